package io.changeflow.adapter.scheduler;

import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The workflow steps cluster-wide, in one read of {@code scheduled_tasks}: what the health indicator shows and
 * the scheduler gauges publish.
 *
 * @param waiting steps due or scheduled, not picked (the backlog)
 * @param running steps picked by an instance now
 * @param failing steps retried after an exception (consecutive failures above 0)
 */
record StepCounts(int waiting, int running, int failing) {

    private static final String COUNT_STEPS = "select"
            + " coalesce(sum(case when picked then 0 else 1 end), 0),"
            + " coalesce(sum(case when picked then 1 else 0 end), 0),"
            + " coalesce(sum(case when consecutive_failures > 0 then 1 else 0 end), 0)"
            + " from " + SchedulerTable.NAME + " where task_name = ?";

    /** Reads the counts now; throws when the table cannot be read. */
    static StepCounts read(DataSource dataSource) throws SQLException {
        try (var connection = dataSource.getConnection();
             var statement = connection.prepareStatement(COUNT_STEPS)) {
            statement.setString(1, WorkflowStepTask.NAME);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return new StepCounts(rows.getInt(1), rows.getInt(2), rows.getInt(3));
            }
        }
    }
}
