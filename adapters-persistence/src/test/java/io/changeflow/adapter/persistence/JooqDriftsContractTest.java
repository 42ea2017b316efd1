package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.DriftsContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The persistence adapter honours the {@link Drifts} contract of the in-memory fake, on the real database. */
class JooqDriftsContractTest extends DriftsContract {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @Override
    protected Drifts drifts() {
        var dsl = persistence.dsl();
        dsl.execute("DELETE FROM drift_item");
        dsl.execute("DELETE FROM drift_baseline");
        return persistence.drifts();
    }
}
