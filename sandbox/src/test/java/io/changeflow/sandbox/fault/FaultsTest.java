package io.changeflow.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FaultsTest {

    @Test
    void countsTheFaultsItInjectsPerSystemSoATestCanProveTheyHappened() {
        var faults = new Faults(new Random(1));
        faults.configure(Faults.GITLAB, new FaultSettings(0, 0.10, 0.10, 0, 0, 0, 0));
        int planned = 0;
        int lost = 0;
        for (int i = 0; i < 10_000; i++) {
            var plan = faults.planIncoming(Faults.GITLAB);
            planned += plan.fails() ? 1 : 0;
            lost += plan.loseResponse() ? 1 : 0;
            faults.planIncoming(Faults.APPROVAL);
        }

        assertThat(faults.injectedFailures(Faults.GITLAB)).isEqualTo(planned).isBetween(800L, 1200L);
        assertThat(faults.injectedLostResponses(Faults.GITLAB)).isEqualTo(lost).isBetween(700L, 1200L);
        assertThat(faults.injectedFailures(Faults.APPROVAL)).as("no faults configured for it").isZero();
    }
}
