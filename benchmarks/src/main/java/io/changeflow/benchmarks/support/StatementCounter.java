package io.changeflow.benchmarks.support;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;

/**
 * A jOOQ listener counting the statements of the calling thread while recording (the approach of
 * adapters-persistence's ClaimCostTest), grouped by their SQL with bind markers, so counting costs a
 * map update and no rendering. Other threads' statements are not counted.
 */
public final class StatementCounter implements ExecuteListener {

    private final ThreadLocal<Map<String, Integer>> recording = new ThreadLocal<>();

    public void start() {
        recording.set(new LinkedHashMap<>());
    }

    /** What this thread executed since {@link #start()}. */
    public Recorded stop() {
        var shapes = recording.get();
        recording.remove();
        return new Recorded(shapes == null ? Map.of() : shapes);
    }

    @Override
    public void executeEnd(ExecuteContext ctx) {
        var shapes = recording.get();
        if (shapes != null) {
            shapes.merge(ctx.sql() == null ? "?" : ctx.sql(), 1, Integer::sum);
        }
    }

    /** Statements by SQL text (bind markers, not values). */
    public record Recorded(Map<String, Integer> bySql) {

        public int total() {
            return bySql.values().stream().mapToInt(Integer::intValue).sum();
        }

        /** Counts by statement kind and table, e.g. {@code update operation=100}. */
        public Map<String, Integer> byKind() {
            var kinds = new TreeMap<String, Integer>();
            bySql.forEach((sql, n) -> kinds.merge(kind(sql), n, Integer::sum));
            return kinds;
        }

        static String kind(String sql) {
            var s = sql.strip().replace("`", "").toLowerCase(java.util.Locale.ROOT);
            var verb = s.split("\\s+", 2)[0];
            var table = switch (verb) {
                case "insert" -> after(s, "into ");
                case "update" -> after(s, "update ");
                case "delete" -> s.startsWith("delete from") ? after(s, "delete from ") : after(s, " from ");
                case "select" -> after(s, " from ");
                default -> "";
            };
            return table.isEmpty() ? verb : verb + " " + table;
        }

        private static String after(String sql, String marker) {
            var i = sql.indexOf(marker);
            if (i < 0) {
                return "";
            }
            var rest = sql.substring(i + marker.length()).strip();
            if (rest.startsWith("(")) {
                return "(subquery)";
            }
            var name = rest.split("[\\s(,]", 2)[0];
            var dot = name.lastIndexOf('.');
            return dot >= 0 ? name.substring(dot + 1) : name;
        }
    }
}
