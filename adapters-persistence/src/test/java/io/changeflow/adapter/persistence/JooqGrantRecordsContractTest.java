package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.port.out.GrantRecordsContract;
import io.changeflow.application.port.out.Operations;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The persistence adapter honours the {@link GrantRecords} contract of the in-memory fake, on the real database. */
class JooqGrantRecordsContractTest extends GrantRecordsContract {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @Override
    protected Operations operations() {
        return persistence.operationsOnEmptyTables();
    }

    @Override
    protected GrantRecords records() {
        return persistence.grantRecords();
    }
}
