package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.recovery.FindOverdueRequests.Deadlines;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.Convergence.Deadline;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The convergence promise against stored requests: a step scheduled, or inside the deadline. */
class FindOverdueRequestsTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private FindOverdueRequests finder(Deadlines deadlines) {
        return new FindOverdueRequests(app.operations, app.queue, Convergence.standard(), deadlines, app.clock);
    }

    @Test
    void aRequestWithItsStepScheduledIsNeverOverdue() {
        app.submittedApprovingFirst("alice");
        app.clock.advance(Duration.ofDays(30));

        assertThat(finder(Deadlines.defaults()).find(100).overdue()).isEmpty();
    }

    @Test
    void aRequestWhoseTaskWasLostIsOverdueOnceItsDeadlinePassed() {
        var id = app.approvalSubmissionLost("bob");
        var finder = finder(Deadlines.defaults());

        app.clock.advance(Duration.ofMinutes(119));
        assertThat(finder.find(100).overdue()).as("inside the step-silence deadline").isEmpty();

        app.clock.advance(Duration.ofMinutes(2));
        var overdue = finder.find(100).overdue();
        assertThat(overdue).singleElement().satisfies(o -> {
            assertThat(o.operation().id()).isEqualTo(id);
            assertThat(o.deadline()).isEqualTo(Deadline.STEP_SILENCE);
            assertThat(o.overdueBy()).isEqualTo(Duration.ofMinutes(1));
            assertThat(o.owner().owner()).isEqualTo(Convergence.Owner.SERVICE);
        });
    }

    @Test
    void aWaitOnTheApproverIsOverdueAfterTheApprovalDeadlineOrTheRequestsOwnExpiry() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.submittedAndRun("carol");
        assertThat(app.op(id).binding()).contains(BindingStatus.APPROVAL_SENT);
        var durations = new HashMap<Deadline, Duration>();
        durations.put(Deadline.APPROVAL, Duration.ofHours(1));
        var finder = finder(new Deadlines(durations));

        app.clock.advance(Duration.ofMinutes(59));
        assertThat(finder.find(100).overdue()).isEmpty();
        app.clock.advance(Duration.ofMinutes(2));
        assertThat(finder.find(100).overdue()).singleElement()
                .satisfies(o -> assertThat(o.deadline()).isEqualTo(Deadline.APPROVAL));
    }

    @Test
    void aMissingZeroOrNegativeDurationIsItsDefaultNeverImmediately() {
        var durations = new HashMap<Deadline, Duration>();
        durations.put(Deadline.DEPLOY, Duration.ZERO);
        durations.put(Deadline.APPROVAL, Duration.ofMinutes(-5));
        durations.put(Deadline.TRANSIENT, null);
        var deadlines = new Deadlines(durations);

        assertThat(deadlines.of(Deadline.DEPLOY)).isEqualTo(Duration.ofHours(2));
        assertThat(deadlines.of(Deadline.APPROVAL)).isEqualTo(Duration.ofDays(7));
        assertThat(deadlines.of(Deadline.TRANSIENT)).isEqualTo(Duration.ofHours(1));
        assertThat(Deadlines.defaults().durations()).containsOnlyKeys(Deadline.values());
        assertThat(new Deadlines(Map.of(Deadline.DEPLOY, Duration.ofMinutes(2))).of(Deadline.DEPLOY))
                .isEqualTo(Duration.ofMinutes(2));
    }
}
