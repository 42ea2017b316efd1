package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code changeflow.shutdown.drain-delay}: read fail-safe, kept inside the shutdown phase (issue 31). */
class ReadinessDrainTest {

    private static final Duration PHASE = Duration.ofSeconds(20);

    @Test
    void aMissingOrGarbledDrainMeansTheDefaultAndZeroMeansNone() {
        assertThat(ReadinessDrain.of(null, PHASE).delay()).isEqualTo(ReadinessDrain.DEFAULT);
        assertThat(ReadinessDrain.of(" ", PHASE).delay()).isEqualTo(ReadinessDrain.DEFAULT);
        assertThat(ReadinessDrain.of("soon", PHASE).delay()).isEqualTo(ReadinessDrain.DEFAULT);
        assertThat(ReadinessDrain.of("-3s", PHASE).delay()).isEqualTo(ReadinessDrain.DEFAULT);
        assertThat(ReadinessDrain.of("0s", PHASE).delay()).isZero();
        assertThat(ReadinessDrain.of(" 8s ", PHASE).delay()).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void theDrainNeverHoldsTheShutdownPhasePastItsTimeout() {
        assertThat(ReadinessDrain.of("1m", PHASE).delay()).isEqualTo(Duration.ofSeconds(19));
        assertThat(ReadinessDrain.of("5s", Duration.ofMillis(500)).delay()).isZero();
    }

    @Test
    void stopsInTheFirstPhaseBesideTheSchedulerAndAnswersAtOnceWithoutADrain() throws Exception {
        var none = ReadinessDrain.of("0s", PHASE);
        none.start();
        var done = new CountDownLatch(1);

        none.stop(done::countDown);

        assertThat(done.await(0, TimeUnit.SECONDS)).isTrue();
        assertThat(none.isRunning()).isFalse();
        assertThat(none.getPhase()).isEqualTo(Integer.MAX_VALUE);
    }
}
