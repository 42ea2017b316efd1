package io.changeflow.adapter.persistence;

import java.util.function.Consumer;
import java.util.function.Function;
import org.jooq.DSLContext;

/**
 * READ COMMITTED transactions for the writes of many rows by key lists (the batch claim, settlement, block and
 * status change, reconciliation's chunks), so they take no gap locks an admission would wait on (issue 15; why:
 * docs/persistence.md, "Transactions without gap locks"). The isolation statement must come first.
 */
final class GapLockFree {

    static final String READ_COMMITTED = "set transaction isolation level read committed";

    private GapLockFree() {
    }

    static <T> T transactionResult(DSLContext dsl, Function<DSLContext, T> body) {
        return dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            ctx.execute(READ_COMMITTED);
            return body.apply(ctx);
        });
    }

    static void transaction(DSLContext dsl, Consumer<DSLContext> body) {
        transactionResult(dsl, ctx -> {
            body.accept(ctx);
            return null;
        });
    }
}
