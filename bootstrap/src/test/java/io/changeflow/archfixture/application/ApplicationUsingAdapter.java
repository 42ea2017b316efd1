package io.changeflow.archfixture.application;

import io.changeflow.archfixture.adapter.persistence.PersistenceThing;

/** Deliberate violation: the application layer using an adapter. */
public class ApplicationUsingAdapter {

    PersistenceThing thing = new PersistenceThing();
}
