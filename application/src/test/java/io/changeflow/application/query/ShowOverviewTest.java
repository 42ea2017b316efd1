package io.changeflow.application.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeActivity;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.recovery.FindOverdueRequests.Deadlines;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.Convergence.Deadline;
import io.changeflow.domain.state.Convergence.Owner;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The operations overview: waiting states with owner and deadline, 24 hours, dependencies, backlog, slots. */
class ShowOverviewTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeActivity activity = new FakeActivity(app.operations);
    private final ExternalSystemHealth gitlab = () -> new ExternalSystemHealth.Status("gitlab", "OPEN", Optional.of(62.5), 8, 5, 3);

    private ShowOverview overview(WorkQueue queue) {
        return new ShowOverview(activity, queue, List.of(gitlab), app.targets, Convergence.standard(), Deadlines.defaults(),
                app.clock);
    }

    @Test
    void aWaitOnTheApproverShowsItsCountOldestAgeAndTheApprovalDeadline() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        app.submittedAndRun("alice");
        var firstWrite = app.clock.instant();
        app.clock.advance(Duration.ofMinutes(30));
        app.submittedAndRun("bob");
        app.clock.advance(Duration.ofMinutes(12));

        var overview = overview(app.queue).show();

        assertThat(overview.byStatus()).containsEntry(BindingStatus.APPROVAL_SENT, 2L);
        assertThat(overview.waiting()).singleElement().satisfies(w -> {
            assertThat(w.status()).isEqualTo(BindingStatus.APPROVAL_SENT);
            assertThat(w.owner()).isEqualTo(Owner.APPROVER);
            assertThat(w.count()).isEqualTo(2);
            assertThat(w.oldestSince()).isEqualTo(firstWrite);
            assertThat(w.oldestAge()).isEqualTo(Duration.ofMinutes(42));
            assertThat(w.deadline()).contains(Deadline.APPROVAL);
            assertThat(w.nextDeadline()).contains(firstWrite.plus(Duration.ofDays(7)));
        });
    }

    @Test
    void thereAreAlways24HoursEndingWithTheCurrentOneAndZerosWhereNothingHappened() {
        var now = app.clock.instant();
        var current = now.truncatedTo(ChronoUnit.HOURS);
        activity.hours(List.of(new Activity.Hour(current.minus(Duration.ofHours(2)), 4, 1), new Activity.Hour(current, 2, 0)));

        var hours = overview(app.queue).show().hours();

        assertThat(hours).hasSize(24);
        assertThat(hours.getFirst().start()).isEqualTo(current.minus(Duration.ofHours(23)));
        assertThat(hours.getLast()).isEqualTo(new Activity.Hour(current, 2, 0));
        assertThat(hours.get(21)).isEqualTo(new Activity.Hour(current.minus(Duration.ofHours(2)), 4, 1));
        assertThat(hours.get(22)).isEqualTo(new Activity.Hour(current.minus(Duration.ofHours(1)), 0, 0));
        assertThat(activity.lastHoursSince()).isEqualTo(current.minus(Duration.ofHours(23)));
    }

    @Test
    void dependenciesAreTheBreakersAndTheDeployReportsWithTheirErrorRate() {
        var last = Instant.parse("2026-03-02T09:59:00Z");
        activity.deployReports(new Activity.DeployReports(8, 2, Optional.of(last)));

        var dependencies = overview(app.queue).show().dependencies();

        assertThat(dependencies).containsExactly(
                new ShowOverview.Dependency("gitlab", Optional.of("OPEN"), Optional.of(62.5), 8, 5, 3, Optional.empty()),
                new ShowOverview.Dependency(ShowOverview.DEPLOY_REPORTS, Optional.empty(), Optional.of(25.0), 8, 2, 0,
                        Optional.of(last)));
    }

    @Test
    void noDeployReportHasNoErrorRateAndAnUnreadableQueueLeavesOnlyTheBacklogOut() {
        app.queue.failBacklogReads(new IllegalStateException("down"));

        var overview = overview(app.queue).show();

        assertThat(overview.backlog()).isEmpty();
        assertThat(overview.dependencies().getLast().errorRatePercent()).isEmpty();
        assertThat(overview.hours()).hasSize(24);
    }

    @Test
    void everyBatchPartitionOfTheCatalogHasASlotFreeOrTaken() {
        var batch = new Activity.ActiveBatch(7, io.changeflow.domain.state.BatchStatus.RUNNING, app.clock.instant());
        activity.slots(List.of(new Activity.Slot("elsewhere", 3, Optional.of(batch))));
        var partition = app.targets.find(FakeTargets.BATCHABLE).orElseThrow().partition();

        var slots = overview(app.queue).show().slots();

        assertThat(slots).contains(new Activity.Slot(partition, 0, Optional.empty()),
                new Activity.Slot("elsewhere", 3, Optional.of(batch)));
        assertThat(overview(app.queue).show().backlog()).hasValueSatisfying(b -> assertThat(b.waiting()).isZero());
    }

    /**
     * Issue 33: the overview's version covers what it shows, not its {@code at} nor the ages computed from it, and
     * reading it computes no overview (no snapshot read).
     */
    @Test
    void theVersionChangesWithWhatIsShownNotWithTheTimeAndReadsNoSnapshot() {
        var health = new java.util.concurrent.atomic.AtomicReference<>(new ExternalSystemHealth.Status("gitlab", "CLOSED",
                Optional.empty(), 0, 0, 0));
        var overview = new ShowOverview(activity, app.queue, List.of(health::get), app.targets, Convergence.standard(),
                Deadlines.defaults(), app.clock);
        app.clock.set(app.clock.instant().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1)));
        app.config.set(Settings.APPROVE_FIRST, "true");
        app.submittedAndRun("alice");
        app.clock.advance(Duration.ofSeconds(1)); // the fake lists a request as waiting once its last write is in the past
        var reads = activity.reads();

        var version = overview.version();
        var backlog = app.queue.backlogSummary();
        app.clock.advance(Duration.ofSeconds(10));
        assertThat(app.queue.backlogSummary()).as("no step came due meanwhile (that would be a change)").isEqualTo(backlog);
        assertThat(overview.version()).as("only time passed").isEqualTo(version);
        assertThat(activity.reads()).as("the version reads no snapshot").isEqualTo(reads);
        var read = overview.read();
        assertThat(read.version()).isEqualTo(version);
        assertThat(read.overview().waiting().getFirst().oldestAge()).isEqualTo(Duration.ofSeconds(11));

        app.submittedAndRun("bob");
        app.clock.advance(Duration.ofSeconds(1));
        var afterRequest = overview.version();
        assertThat(afterRequest).as("a new request").isNotEqualTo(version);
        activity.deployReports(new Activity.DeployReports(1, 0, Optional.of(app.clock.instant())));
        var afterReport = overview.version();
        assertThat(afterReport).as("a deploy report").isNotEqualTo(afterRequest);
        health.set(new ExternalSystemHealth.Status("gitlab", "OPEN", Optional.of(50.0), 2, 1, 0));
        var afterBreaker = overview.version();
        assertThat(afterBreaker).as("a breaker").isNotEqualTo(afterReport);
        app.clock.set(app.clock.instant().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofHours(1)));
        assertThat(overview.version()).as("the next hour of the 24 shown").isNotEqualTo(afterBreaker);
    }
}
