package io.changeflow.application.fake;

import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.OperationsContract;

/** The in-memory operations fake honours the port contract. */
class FakeOperationsTest extends OperationsContract {

    @Override
    protected Operations operations() {
        return new FakeOperations(SettableClock.at("2026-03-02T09:00:00Z"));
    }

    @Override
    protected IdempotencyRecords idempotencyRecordsOf(Operations store) {
        return ((FakeOperations) store).idempotency();
    }
}
