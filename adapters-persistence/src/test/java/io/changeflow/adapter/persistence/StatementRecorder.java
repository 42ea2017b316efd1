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

    private final ThreadLocal<List<String>> recording = new ThreadLocal<>();
    private final ConcurrentHashMap<Thread, Hook> hooks = new ConcurrentHashMap<>();

    /** Runs {@code action} once, on {@code thread}, after its first statement whose SQL contains {@code sqlFragment}. */
    record Hook(String sqlFragment, Consumer<String> action) {}

    void start() {
        recording.set(new ArrayList<>());
    }

    /** The statements of this thread since {@link #start()}, with bind values inlined. */
    List<String> stop() {
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
            statements.add(sql);
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
            statements.add(inlined(ctx));
        }
    }

    private static String inlined(ExecuteContext ctx) {
        if (ctx.query() != null) {
            return ctx.query().getSQL(ParamType.INLINED);
        }
        return ctx.sql() == null ? "" : ctx.sql();
    }
}
