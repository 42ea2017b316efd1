package io.changeflow.application.callback;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A GitLab event wakes the step waiting on its merge request and decides nothing (issue 33 item 3). */
class WakeOnGitLabEventTest {

    /** The polling while webhooks are on: a look every five minutes at most. */
    private static final Duration FALLBACK = Duration.ofMinutes(5);

    private final InMemoryChangeflow app = new InMemoryChangeflow(WorkflowPolicy.defaults().withFallbackPipelinePolling(FALLBACK));
    private final WakeOnGitLabEvent wake = new WakeOnGitLabEvent(app.inbox, app.operations, app.queue);

    private WakeOnGitLabEvent.Result eventAbout(String key, OperationId id) {
        return wake.handle(new WakeOnGitLabEvent.Command(key, List.of("42", FakeTargets.PROJECT),
                Optional.of(app.mr(id).iid()), Optional.of(MergeRequestTexts.branchOf(id))));
    }

    @Test
    void aPipelineEventWakesOnlyTheStepWaitingOnThatMergeRequestAndTheStepReadsGitLab() {
        var alice = app.openedWithPipelineRunning("alice");
        var bob = app.openedWithPipelineRunning("bob");
        var bobDue = app.queue.pending(StepKind.CREATE, bob.value()).orElseThrow().due();
        assertThat(app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due()).isAfter(app.clock.instant());
        app.gitlab.setPipeline(FakeTargets.PROJECT, app.mr(alice).iid(), PipelineStatus.PASSED);
        var before = app.gitlab.calls();
        var now = app.clock.instant();

        var result = eventAbout("e-1", alice);

        assertThat(result).isEqualTo(new WakeOnGitLabEvent.Result(CallbackAnswer.PROCESSED, 1));
        assertThat(app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due()).isEqualTo(now);
        assertThat(app.queue.pending(StepKind.CREATE, bob.value()).orElseThrow().due()).isEqualTo(bobDue);
        assertThat(app.gitlab.callsSince(before)).as("the event itself asks GitLab nothing").isEmpty();

        app.queue.runDue();

        assertThat(app.clock.instant()).isEqualTo(now);
        assertThat(app.queue.pending(StepKind.CREATE, alice.value())).as("alice's pipeline passed: read, moved on").isEmpty();
        assertThat(app.queue.pending(StepKind.CREATE, bob.value()).orElseThrow().due()).isEqualTo(bobDue);
        assertThat(app.gitlab.callsSince(before)).as("the woken step read GitLab as on any run").isNotEmpty();
    }

    @Test
    void anEventDecidesNothingAWokenStepWhosePipelineStillRunsKeepsWaiting() {
        var alice = app.openedWithPipelineRunning("alice");
        var step = app.op(alice).step();

        eventAbout("e-2", alice);
        app.queue.runDue();

        assertThat(app.op(alice).step()).isEqualTo(step);
        assertThat(app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due())
                .isEqualTo(app.clock.instant().plus(FALLBACK));
    }

    @Test
    void aRepeatedDeliveryWakesNothingAgain() {
        var alice = app.openedWithPipelineRunning("alice");
        eventAbout("e-3", alice);
        app.queue.runDue();
        var due = app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due();

        var repeat = eventAbout("e-3", alice);

        assertThat(repeat).isEqualTo(new WakeOnGitLabEvent.Result(CallbackAnswer.DUPLICATE, 0));
        assertThat(app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due()).isEqualTo(due);
    }

    @Test
    void anEventAboutAMergeRequestOrBranchChangeflowDoesNotKnowIsAnsweredAndIgnored() {
        var alice = app.openedWithPipelineRunning("alice");
        var due = app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due();

        var unknownMr = wake.handle(new WakeOnGitLabEvent.Command("e-4", List.of(FakeTargets.PROJECT),
                Optional.of(app.mr(alice).iid() + 1000), Optional.of("feature/x")));
        var otherProject = wake.handle(new WakeOnGitLabEvent.Command("e-5", List.of("someone/else"),
                Optional.of(app.mr(alice).iid()), Optional.of(MergeRequestTexts.branchOf(alice))));

        assertThat(unknownMr).isEqualTo(new WakeOnGitLabEvent.Result(CallbackAnswer.IGNORED_STALE, 0));
        assertThat(otherProject).isEqualTo(new WakeOnGitLabEvent.Result(CallbackAnswer.IGNORED_STALE, 0));
        assertThat(app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due()).isEqualTo(due);
    }

    @Test
    void aBranchPipelineWithoutAMergeRequestWakesTheRequestOfItsBranch() {
        var alice = app.openedWithPipelineRunning("alice");

        var result = wake.handle(new WakeOnGitLabEvent.Command("e-6", List.of(FakeTargets.PROJECT), Optional.empty(),
                Optional.of(MergeRequestTexts.branchOf(alice))));

        assertThat(result).isEqualTo(new WakeOnGitLabEvent.Result(CallbackAnswer.PROCESSED, 1));
        assertThat(app.queue.pending(StepKind.CREATE, alice.value()).orElseThrow().due()).isEqualTo(app.clock.instant());
    }

    @Test
    void aLostEventStillConvergesByTheSlowerPolling() {
        var alice = app.openedWithPipelineRunning("alice");
        var start = app.clock.instant();
        app.gitlab.setPipeline(FakeTargets.PROJECT, app.mr(alice).iid(), PipelineStatus.PASSED);

        app.queue.runUntilIdle();
        assertThat(Duration.between(start, app.clock.instant())).as("found by the next slow look").isEqualTo(FALLBACK);
        app.decide(alice, HandleApprovalCallback.Decision.APPROVED);
        app.queue.runUntilIdle();

        assertThat(app.op(alice).binding()).contains(BindingStatus.MERGED);
    }
    private WakeOnGitLabEvent.Result reopenEvent(String key, OperationId id) {
        return wake.handle(new WakeOnGitLabEvent.Command(key, List.of("42", FakeTargets.PROJECT),
                Optional.of(app.mr(id).iid()), Optional.of(MergeRequestTexts.branchOf(id)), Optional.of(WakeOnGitLabEvent.REOPEN)));
    }

    /** Finding S9: a person reopens the merge request of a refused request; the event gets it closed again at once. */
    @Test
    void aReopenEventAboutTheMergeRequestOfAnEndedRequestGetsItClosedAgainThroughTheCloseStep() {
        var id = app.rejected("carol");
        app.queue.runUntilIdle();
        assertThat(app.op(id).step()).isEqualTo(io.changeflow.domain.state.StepStatus.CLOSE_DONE);
        app.gitlab.reopenExternally(FakeTargets.PROJECT, app.mr(id).iid());

        assertThat(reopenEvent("r-1", id)).isEqualTo(new WakeOnGitLabEvent.Result(CallbackAnswer.PROCESSED, 1));
        app.queue.runDue();

        assertThat(app.op(id).step()).isEqualTo(io.changeflow.domain.state.StepStatus.CLOSE_DONE);
        assertThat(app.gitlab.find(FakeTargets.PROJECT, app.mr(id).iid()).orElseThrow().state())
                .isEqualTo(io.changeflow.domain.mr.MergeRequestState.CLOSED);
    }

    @Test
    void aReopenEventAboutARequestUnderWayClosesNothing() {
        var id = app.openedWithPipelineRunning("dave");

        reopenEvent("r-2", id);
        app.queue.runDue();

        assertThat(app.queue.pending(StepKind.CLOSE, id.value())).isEmpty();
        assertThat(app.op(id).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.gitlab.find(FakeTargets.PROJECT, app.mr(id).iid()).orElseThrow().state())
                .isEqualTo(io.changeflow.domain.mr.MergeRequestState.OPENED);
    }
}
