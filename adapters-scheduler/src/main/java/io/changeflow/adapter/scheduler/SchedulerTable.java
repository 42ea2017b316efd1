package io.changeflow.adapter.scheduler;

import javax.sql.DataSource;

/** Where db-scheduler keeps its rows: {@code scheduled_tasks}, created by the persistence adapter's migrations. */
final class SchedulerTable {

    static final String NAME = "scheduled_tasks";

    private SchedulerTable() {
    }

    /**
     * The SQL dialect and polling strategy, detected once per call (one connection) from the server
     * itself: see {@link SchedulerDialect}.
     */
    static SchedulerDialect dialect(DataSource dataSource) {
        return SchedulerDialect.detect(dataSource);
    }
}
