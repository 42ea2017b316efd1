package io.changeflow.systemtest.harness;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Plain JDBC reads for assertions straight on the tables (the schema is docs/persistence.md's; the
 * scheduler's {@code scheduled_tasks} is db-scheduler's). Tests never write through here.
 */
public final class Sql {

    private Sql() {
    }

    /** Every row of {@code query} as column label to value, in order. */
    public static List<Map<String, Object>> rows(DataSource dataSource, String query, Object... parameters) {
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(query)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (var result = statement.executeQuery()) {
                var meta = result.getMetaData();
                var rows = new ArrayList<Map<String, Object>>();
                while (result.next()) {
                    var row = new LinkedHashMap<String, Object>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) {
                        row.put(meta.getColumnLabel(c), result.getObject(c));
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed: " + query, e);
        }
    }

    /** The single number {@code query} answers. */
    public static long number(DataSource dataSource, String query, Object... parameters) {
        var rows = rows(dataSource, query, parameters);
        if (rows.size() != 1 || rows.getFirst().size() != 1) {
            throw new IllegalStateException("expected one value from " + query + ", got " + rows);
        }
        return ((Number) rows.getFirst().values().iterator().next()).longValue();
    }

    /**
     * Workflow steps an instance is running right now ({@code scheduled_tasks} rows picked by the
     * scheduler named {@code schedulerName}), as {@code KIND:ref} task instances.
     */
    public static List<String> stepsPickedBy(DataSource dataSource, String schedulerName) {
        return rows(dataSource, "select task_instance from scheduled_tasks where picked = true and picked_by = ?"
                + " and task_name = 'workflow-step'", schedulerName)
                .stream().map(r -> String.valueOf(r.get("task_instance"))).toList();
    }
}
