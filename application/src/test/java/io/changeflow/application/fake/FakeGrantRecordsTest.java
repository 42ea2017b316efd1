package io.changeflow.application.fake;

import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.port.out.GrantRecordsContract;
import io.changeflow.application.port.out.Operations;

/** The in-memory fake honours the {@link GrantRecords} contract the jOOQ adapter does. */
class FakeGrantRecordsTest extends GrantRecordsContract {

    private FakeOperations operations;

    @Override
    protected Operations operations() {
        operations = new FakeOperations(SettableClock.at("2026-03-02T09:00:00Z"));
        return operations;
    }

    @Override
    protected GrantRecords records() {
        return new FakeGrantRecords(operations);
    }
}
