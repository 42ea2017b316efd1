package io.changeflow.adapter.persistence;

import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/** The adapter stores instants as UTC DATETIME(3): a session in another time zone would shift every time. */
final class SessionTimeZone {

    private SessionTimeZone() {
    }

    static void requireUtc(DSLContext dsl) {
        var offsetSeconds = dsl.select(DSL.field("TIMESTAMPDIFF(SECOND, UTC_TIMESTAMP(), NOW())", SQLDataType.BIGINT))
                .fetchSingle().value1();
        if (offsetSeconds == null || Math.abs(offsetSeconds) > 1) {
            throw new IllegalStateException("the database session time zone is not UTC (offset " + offsetSeconds
                    + " s): add connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true to the JDBC URL");
        }
    }
}
