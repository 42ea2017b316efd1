package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.OperationsContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The persistence adapter honours the same {@link Operations} port contract as the in-memory fake
 * (application's {@code FakeOperationsTest}), on the real database: every test starts on empty tables.
 */
class JooqOperationsContractTest extends OperationsContract {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(8);

    @Override
    protected Operations operations() {
        return persistence.operationsOnEmptyTables();
    }

    @Override
    protected IdempotencyRecords idempotencyRecordsOf(Operations store) {
        return persistence.idempotencyRecords();
    }
}
