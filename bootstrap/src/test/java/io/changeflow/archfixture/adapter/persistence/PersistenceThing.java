package io.changeflow.archfixture.adapter.persistence;

/** An adapter class others must not use. */
public class PersistenceThing {
}
