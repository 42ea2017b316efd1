package io.changeflow.adapter.persistence;

import java.util.function.Consumer;
import java.util.function.Function;
import org.jooq.DSLContext;

/**
 * Transactions that write many rows by key lists without taking gap locks: the batch claim, settlement and
 * block, and reconciliation's chunks. Under InnoDB's default REPEATABLE READ their {@code UPDATE ... WHERE
 * operation_id IN (...)} scans take next-key locks on {@code uk_binding_operation}, and a request admitted
 * meanwhile, whose new binding's random operation id falls into one of those gaps, waits for the whole
 * transaction (issue 15: up to 4.3 s behind a claim of 10,000). READ COMMITTED takes record locks only on the
 * rows read or written (gap locks stay for duplicate-key checks, so the batch slot's uniqueness holds), and
 * these transactions rely on nothing but those locks and their version-pinned, row-counted writes.
 * {@code SET TRANSACTION} applies to the transaction the next statement starts: it must be the first one.
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
