package io.changeflow.application.fake;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.DriftsContract;

/** The in-memory fake honours the {@link Drifts} contract the jOOQ adapter does. */
class FakeDriftsTest extends DriftsContract {

    @Override
    protected Drifts drifts() {
        return new FakeDrifts();
    }
}
