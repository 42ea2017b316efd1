package io.changeflow.adapter.scheduler;

import com.github.kagkarlsson.scheduler.CurrentlyExecuting;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.sql.DataSource;

/**
 * Hands the rows a stopping instance still runs back to the queue: {@code picked} cleared, the version counted up,
 * the due time left as it was (already due). Another instance picks them at its next poll instead of waiting for
 * the dead-execution timeout. A row is released only while this very scheduler holds it ({@code picked_by}); the
 * run still going on here can no longer complete it (every completion is guarded by the version), and its
 * heartbeats stop counting. The step runs again from its last saved state, as after a crash: every step tolerates
 * that.
 */
final class ShutdownRelease {

    private static final String RELEASE = "update " + SchedulerTable.NAME
            + " set picked = false, picked_by = null, last_heartbeat = null, version = version + 1"
            + " where task_name = ? and task_instance = ? and picked = true and picked_by = ?";

    private ShutdownRelease() {
    }

    /**
     * Releases the rows of {@code running} that {@code schedulerName} still holds.
     *
     * @return the released rows as {@code task_name/task_instance}
     * @throws SQLException the database did not answer: the rows stay picked and are taken over after the
     *                      dead-execution timeout
     */
    static List<String> release(DataSource dataSource, String schedulerName, Collection<CurrentlyExecuting> running)
            throws SQLException {
        var released = new ArrayList<String>();
        if (running.isEmpty()) {
            return released;
        }
        try (var connection = dataSource.getConnection();
             var statement = connection.prepareStatement(RELEASE)) {
            for (var execution : running) {
                var instance = execution.getTaskInstance();
                statement.setString(1, instance.getTaskName());
                statement.setString(2, instance.getId());
                statement.setString(3, schedulerName);
                var rows = statement.executeUpdate();
                if (rows == 1) {
                    released.add(instance.getTaskName() + "/" + instance.getId());
                } else if (rows > 1) {
                    throw new IllegalStateException("released " + rows + " rows of " + instance.getTaskAndInstance());
                }
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
        return released;
    }
}
