package io.changeflow.domain.reconcile;

import static io.changeflow.domain.reconcile.ReconciliationDecision.Verdict.ADVANCE;
import static io.changeflow.domain.reconcile.ReconciliationDecision.Verdict.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReconciliationTest {

    private static final Instant NOW = Instant.parse("2025-06-02T12:00:00Z");

    /** Looks at records merged between 2 hours and 10 minutes ago. */
    private final ReconciliationWindow window = new ReconciliationWindow(Duration.ofMinutes(10), Duration.ofHours(2));

    @Test
    void windowBoundsAreNowMinusTheAges() {
        assertThat(window.newest(NOW)).isEqualTo(Instant.parse("2025-06-02T11:50:00Z"));
        assertThat(window.oldest(NOW)).isEqualTo(Instant.parse("2025-06-02T10:00:00Z"));
    }

    @Test
    void skipsRecordsWhoseCallbackMayStillBeOnItsWay() {
        assertThat(window.contains(NOW, NOW)).isFalse();
        assertThat(window.contains(NOW.minus(Duration.ofMinutes(9)), NOW)).isFalse();
        assertThat(window.contains(NOW.minus(Duration.ofMinutes(10)), NOW)).as("exactly minAge: still too new").isFalse();
        assertThat(window.contains(NOW.minus(Duration.ofMinutes(10)).minusMillis(1), NOW)).isTrue();
    }

    @Test
    void skipsRecordsThatFellOutOfTheWindow() {
        assertThat(window.contains(NOW.minus(Duration.ofHours(2)), NOW)).as("exactly maxAge: out").isFalse();
        assertThat(window.contains(NOW.minus(Duration.ofHours(2)).plusMillis(1), NOW)).isTrue();
        assertThat(window.contains(NOW.minus(Duration.ofDays(3)), NOW)).isFalse();
    }

    @Test
    void looksAtRecordsInsideTheWindow() {
        assertThat(window.contains(NOW.minus(Duration.ofMinutes(30)), NOW)).isTrue();
        assertThat(window.contains(NOW.minus(Duration.ofMinutes(119)), NOW)).isTrue();
    }

    @Test
    void zeroMinAgeLooksUpToNow() {
        var fromNow = new ReconciliationWindow(Duration.ZERO, Duration.ofHours(1));
        assertThat(fromNow.contains(NOW.minusMillis(1), NOW)).isTrue();
        assertThat(fromNow.contains(NOW, NOW)).isFalse();
    }

    @Test
    void rejectsAWindowThatIsEmptyOrNegative() {
        assertThatThrownBy(() -> new ReconciliationWindow(Duration.ofMinutes(-1), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReconciliationWindow(Duration.ofHours(1), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReconciliationWindow(Duration.ofHours(2), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReconciliationWindow(null, Duration.ofHours(1))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void advancesWhenItsOwnCallbackIsTheWatermark() {
        assertThat(ReconciliationDecision.byWatermark(42, OptionalLong.of(42))).isEqualTo(ADVANCE);
    }

    @Test
    void advancesWhenALaterMergeRequestWasCalledBack() {
        assertThat(ReconciliationDecision.byWatermark(41, OptionalLong.of(42))).isEqualTo(ADVANCE);
        assertThat(ReconciliationDecision.byWatermark(1, OptionalLong.of(Long.MAX_VALUE))).isEqualTo(ADVANCE);
    }

    @Test
    void waitsWhenTheMergeRequestIsNewerThanTheWatermark() {
        assertThat(ReconciliationDecision.byWatermark(43, OptionalLong.of(42))).isEqualTo(WAIT);
    }

    @Test
    void waitsWhenNoCallbackArrivedYet() {
        assertThat(ReconciliationDecision.byWatermark(1, OptionalLong.empty())).isEqualTo(WAIT);
    }

    @Test
    void advancesExactlyTheListedOperations() {
        var calledBack = Set.of("op-1", "op-3");
        assertThat(ReconciliationDecision.byExactMatch("op-1", calledBack)).isEqualTo(ADVANCE);
        assertThat(ReconciliationDecision.byExactMatch("op-2", calledBack)).isEqualTo(WAIT);
        assertThat(ReconciliationDecision.byExactMatch("op-1", Set.of())).isEqualTo(WAIT);
    }
}
