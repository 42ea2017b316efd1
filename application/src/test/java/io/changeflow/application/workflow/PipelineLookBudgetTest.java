package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, the GitLab call budget of waiting on a pipeline: how many GitLab calls one look at the head's pipeline
 * costs, how far apart the looks are with the production polling ({@link WorkflowPolicy#defaults()}), and that a 429
 * makes the waiting step wait at least as long as GitLab asked. Counted calls and scheduled delays on a settable
 * clock, never time measured.
 */
class PipelineLookBudgetTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    /** The GitLab calls {@code action} makes, by method. */
    private Map<String, Integer> callsOf(Runnable action) {
        var before = app.gitlab.calls();
        action.run();
        return app.gitlab.callsSince(before);
    }

    /** The merge request of {@code id} with its head pipeline {@code status}, as a look reads it now. */
    private MergeRequests.RemoteMergeRequest readWithPipeline(OperationId id, PipelineStatus status) {
        var mr = app.mr(id);
        app.gitlab.setPipeline(mr.project(), mr.iid(), status);
        return app.gitlab.getWithHeadPipeline(mr.project(), mr.iid());
    }

    /** A request whose create step opened its merge request and now waits on its pipeline. */
    private OperationId waitingOnItsPipeline(String subject) {
        var id = app.submitAccepted(FakeTargets.SINGLE, subject);
        app.queue.runNext();
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_MR_OPENED);
        assertThat(app.queue.pending(StepKind.CREATE, id.value())).as("the first look is scheduled").isPresent();
        return id;
    }

    @Test
    void aLookAtARunningPipelineIsOneReadOfTheMergeRequestAndADecidingLookAddsOnlyTheBranchHead() {
        app.gitlab.carryHeadPipeline().nextPipeline(PipelineStatus.RUNNING);
        var id = waitingOnItsPipeline("paula");

        assertThat(callsOf(app.queue::runNext)).as("a look that waits").isEqualTo(Map.of("get", 1));

        var mr = app.mr(id);
        app.gitlab.setPipeline(mr.project(), mr.iid(), PipelineStatus.PASSED);
        assertThat(callsOf(app.queue::runNext)).as("a look that decides: the head's pipeline counts only for the branch's real head")
                .isEqualTo(Map.of("get", 1, "branchHead", 1));
        assertThat(app.op(id).step()).isNotEqualTo(StepStatus.CREATE_MR_OPENED);
    }

    @Test
    void aPassedPipelineOfAHeadTheBranchHasLeftStillWaits() {
        app.gitlab.carryHeadPipeline().nextPipeline(PipelineStatus.RUNNING);
        var id = waitingOnItsPipeline("pia");
        var mr = app.mr(id);
        var remote = readWithPipeline(id, PipelineStatus.PASSED);
        // pushed after that read: the branch is at a new head, the read still reports the old one and its passed pipeline
        app.gitlab.pushExternally(mr.project(), mr.iid(), PipelineStatus.RUNNING);

        var before = app.gitlab.calls();
        var look = HeadPipeline.look(app.gitlab, mr, remote, PipelinePolicy.REQUIRED);

        assertThat(look).isEqualTo(new HeadPipeline.Look.Waiting());
        assertThat(app.gitlab.callsSince(before)).isEqualTo(Map.of("branchHead", 1));
    }

    @Test
    void aReadThatDoesNotCarryTheHeadPipelineStillReadsTheBranchHeadAndThePipeline() {
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var id = waitingOnItsPipeline("petra");

        var calls = callsOf(app.queue::runNext);

        assertThat(calls).containsEntry("get", 1).containsEntry("branchHead", 1).containsEntry("headPipeline", 1);
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_MR_OPENED);
    }

    @Test
    void theMergeEvidenceReadsTheBranchHeadButNotTheMergeRequestAgain() {
        app.gitlab.carryHeadPipeline().nextPipeline(PipelineStatus.RUNNING);
        var id = waitingOnItsPipeline("pauline");
        var mr = app.mr(id);
        var remote = readWithPipeline(id, PipelineStatus.PASSED);

        var before = app.gitlab.calls();
        var verdict = MergeEvidence.read(app.gitlab, mr, remote, PipelinePolicy.REQUIRED);

        assertThat(verdict).isEqualTo(new MergeEvidence.Verdict.Mergeable(remote.sha()));
        assertThat(app.gitlab.callsSince(before)).isEqualTo(Map.of("branchHead", 1));
    }

    /**
     * Production polling: a look every 10 s for the first six looks after the first (the short phase), then never two
     * looks less than a minute apart, except the one look that lands exactly on the timeout (30 min: the polling never
     * waits past it); then "pending" is looked at every 10 minutes. Every look at the running pipeline is one GitLab call.
     */
    @Test
    void afterTheShortPhaseARunningPipelineIsLookedAtAtMostOnceAMinuteWithOneCallEach() {
        app.gitlab.carryHeadPipeline().nextPipeline(PipelineStatus.RUNNING);
        var id = waitingOnItsPipeline("pamela");
        var polling = app.policy.pipelinePolling();
        var started = app.clock.instant();

        var delays = new java.util.ArrayList<Duration>();
        delays.add(Duration.between(app.clock.instant(), app.queue.pending(StepKind.CREATE, id.value()).orElseThrow().due()));
        var looks = 0;
        while (app.op(id).step() != StepStatus.CREATE_PIPELINE_PENDING) {
            looks++;
            assertThat(callsOf(app.queue::runNext)).as("look %d", looks).isEqualTo(Map.of("get", 1));
            var next = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
            delays.add(Duration.between(app.clock.instant(), next.due()));
        }

        assertThat(Duration.between(started, app.clock.instant())).as("pending exactly at the timeout")
                .isEqualTo(polling.timeout());
        assertThat(delays.subList(0, polling.shortAttempts() + 1)).as("the short phase: the first look and six more")
                .containsOnly(polling.shortInterval());
        var afterShortPhase = delays.subList(polling.shortAttempts() + 1, delays.size() - 2);
        assertThat(afterShortPhase).isNotEmpty().allSatisfy(delay -> assertThat(delay).isGreaterThanOrEqualTo(Duration.ofMinutes(1)));
        assertThat(delays.get(delays.size() - 2)).as("the last wait ends at the timeout").isPositive()
                .isLessThanOrEqualTo(polling.longInterval());
        assertThat(delays.getLast()).as("pending: looked at every 10 minutes").isEqualTo(app.policy.pendingRecheck());

        assertThat(callsOf(app.queue::runNext)).as("a look at a pending pipeline").isEqualTo(Map.of("get", 1));
        assertThat(Duration.between(app.clock.instant(), app.queue.pending(StepKind.CREATE, id.value()).orElseThrow().due()))
                .isEqualTo(app.policy.pendingRecheck());
    }

    @Test
    void theLongIntervalStartsRightAfterTheShortAttempts() {
        var polling = WorkflowPolicy.defaults().pipelinePolling();
        var watch = new PipelineWatch(polling, Duration.ofMinutes(10), Duration.ofHours(24));
        var start = app.clock.instant();
        var step = PipelineWatch.start(io.changeflow.application.port.out.WorkQueue.Step.first(StepKind.CREATE, "op"), start);
        var now = start.plus(watch.firstDelay());
        for (var look = 1; look <= polling.shortAttempts() + 3; look++) {
            var again = (PipelineWatch.Verdict.Again) watch.observe(step, PollObservation.RUNNING, now, start);
            assertThat(again.delay()).as("after look %d", look)
                    .isEqualTo(look <= polling.shortAttempts() ? Duration.ofSeconds(10) : Duration.ofMinutes(1));
            step = again.step();
            now = now.plus(again.delay());
        }
    }

    @Test
    void aLookRefusedWith429WaitsAtLeastAsLongAsGitLabAsked() {
        app.gitlab.carryHeadPipeline().nextPipeline(PipelineStatus.RUNNING);
        var id = waitingOnItsPipeline("pilar");
        app.queue.runNext();
        var asked = Duration.ofSeconds(90);
        app.gitlab.failNext("get", new ExternalCallException("gitlab", ExternalCallException.Kind.HTTP_STATUS, 429,
                "HTTP 429, GitLab asks to wait PT1M30S", null, asked));

        var calls = callsOf(app.queue::runNext);

        assertThat(calls).as("refused, nothing else tried").isEqualTo(Map.of("get", 1));
        var next = app.queue.pending(StepKind.CREATE, id.value()).orElseThrow();
        assertThat(Duration.between(app.clock.instant(), next.due())).isGreaterThanOrEqualTo(asked);
        assertThat(app.op(id).step()).isEqualTo(StepStatus.CREATE_MR_OPENED);
    }
}
