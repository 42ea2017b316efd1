package io.changeflow.archfixture.adapter.web;

import org.jooq.DSLContext;

/** Deliberate violation: jOOQ outside persistence. */
public class JooqInWeb {

    DSLContext dsl;
}
