package io.changeflow.archfixture.adapter.web;

import io.changeflow.archfixture.adapter.persistence.PersistenceThing;

/** Deliberate violation: one adapter using another. */
public class WebUsingPersistence {

    PersistenceThing thing = new PersistenceThing();
}
