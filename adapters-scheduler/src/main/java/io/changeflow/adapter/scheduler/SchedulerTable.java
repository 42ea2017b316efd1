package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.jdbc.JdbcCustomization;
import javax.sql.DataSource;

/** Where db-scheduler keeps its rows: {@code scheduled_tasks}, created by the persistence adapter's migrations. */
final class SchedulerTable {

    static final String NAME = "scheduled_tasks";

    private SchedulerTable() {
    }

    /**
     * The SQL dialect, detected once per call (one connection). Timestamps are always written in UTC
     * (db-scheduler requires it for MySQL and MariaDB, whose {@code timestamp} columns carry no zone);
     * with mysql-connector-j on MariaDB 11 the MySQL 8 dialect is chosen, whose lock-and-fetch
     * ({@code FOR UPDATE SKIP LOCKED}) the scheduler polls with.
     */
    static JdbcCustomization dialect(DataSource dataSource) {
        return new AutodetectJdbcCustomization(dataSource, true);
    }
}
