package io.changeflow.adapter.persistence;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jooq.ExecuteContext;
import org.jooq.ExecuteListener;
import org.jooq.conf.ParamType;

/**
 * Test listener on every jOOQ statement: counts and captures the statements of the calling thread
 * while recording, and lets a test run code right after a statement (to hold a transaction open
 * or to interleave a concurrent write at an exact point).
 */
final class StatementRecorder implements ExecuteListener {

    private final ThreadLocal<List<Sent>> recording = new ThreadLocal<>();
    private final ConcurrentHashMap<Thread, Hook> hooks = new ConcurrentHashMap<>();

    /** Runs {@code action} once, on {@code thread}, after its first statement whose SQL contains {@code sqlFragment}. */
    record Hook(String sqlFragment, Consumer<String> action) {}

    void start() {
        recording.set(new ArrayList<>());
    }

    /** One statement sent, with bind values inlined, and whether it ran inside a transaction (autocommit off). */
    record Sent(String sql, boolean inTransaction) {}

    /** The statements of this thread since {@link #start()}, with bind values inlined. */
    List<String> stop() {
        return stopSent().stream().map(Sent::sql).toList();
    }

    /** {@link #stop()} with each statement's transaction: tells the connections borrowed, not only the statements. */
    List<Sent> stopSent() {
        var statements = recording.get();
        recording.remove();
        return statements == null ? List.of() : statements;
    }

    void hookAfter(Thread thread, String sqlFragment, Consumer<String> action) {
        hooks.put(thread, new Hook(sqlFragment, action));
    }

    @Override
    public void executeEnd(ExecuteContext ctx) {
        var statements = recording.get();
        String sql = null;
        if (statements != null) {
            sql = inlined(ctx);
            statements.add(new Sent(sql, inTransaction(ctx)));
        }
        var hook = hooks.get(Thread.currentThread());
        if (hook != null) {
            if (sql == null) {
                sql = inlined(ctx);
            }
            if (sql.contains(hook.sqlFragment()) && hooks.remove(Thread.currentThread(), hook)) {
                hook.action().accept(sql);
            }
        }
    }

    /** A statement the database refused (a duplicate key, say) was sent all the same: it counts. */
    @Override
    public void exception(ExecuteContext ctx) {
        var statements = recording.get();
        if (statements != null && ctx.sqlException() != null) {
            statements.add(new Sent(inlined(ctx), inTransaction(ctx)));
        }
    }

    /** Spring's transaction turns autocommit off on the connection it binds; the driver answers from its own state. */
    private static boolean inTransaction(ExecuteContext ctx) {
        try {
            return ctx.connection() != null && !ctx.connection().getAutoCommit();
        } catch (java.sql.SQLException e) {
            return false;
        }
    }

    private static String inlined(ExecuteContext ctx) {
        if (ctx.query() != null) {
            return ctx.query().getSQL(ParamType.INLINED);
        }
        return ctx.sql() == null ? "" : ctx.sql();
    }
}
