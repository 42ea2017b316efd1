package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Finding S9 (docs/reliability.md): a merge request a person reopens after its request ended unmerged is closed again by
 * the failed-close job, through the close step; a request under way keeps its merge request.
 */
class CloseReopenedMergeRequestsTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void aMergeRequestReopenedAfterItsRequestWasRefusedIsClosedAgainThroughTheCloseStep() {
        var id = app.rejected("alice");
        app.queue.runUntilIdle();
        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_DONE);
        reopen(id);

        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().scheduled()).isEqualTo(1);
        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.REJECTED, StepStatus.CLOSE_DONE);
        assertThat(state(id)).isEqualTo(MergeRequestState.CLOSED);
        assertThat(app.operations.history(id)).extracting(e -> e.toStep()).endsWith(StepStatus.CLOSE_STARTED,
                StepStatus.CLOSE_DONE);
        assertThat(app.retryTransientFailures().scheduled()).as("closed again once, then nothing to do").isZero();
    }

    @Test
    void aMergeRequestAPersonClosedThenReopenedAfterTheRequestRecordedItClosedIsClosedAgain() {
        var id = app.submittedAndRun("bob");
        var iid = app.op(id).mergeRequest().orElseThrow().iid();
        app.gitlab.closeExternally(FakeTargets.PROJECT, iid);
        app.approveAndRun(id);
        app.queue.runUntilIdle();
        app.assertState(id, BindingStatus.CLOSED, StepStatus.HANDLE_MR_CLOSED);
        reopen(id);

        app.clock.advance(Duration.ofMinutes(1));
        app.retryTransientFailures();
        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.CLOSED, StepStatus.CLOSE_DONE);
        assertThat(state(id)).isEqualTo(MergeRequestState.CLOSED);
    }

    @Test
    void theMergeRequestOfARequestUnderWayIsNeitherReadNorClosed() {
        var id = app.submittedAndRun("carol");
        assertThat(app.op(id).binding()).as("waiting on its approval").contains(BindingStatus.APPROVAL_SENT);
        var before = app.gitlab.calls();

        app.clock.advance(Duration.ofMinutes(1));
        app.retryTransientFailures();
        app.queue.runUntilIdle();

        assertThat(app.gitlab.callsSince(before)).doesNotContainKey("get");
        assertThat(app.queue.pending(StepKind.CLOSE, id.value())).isEmpty();
        assertThat(state(id)).isEqualTo(MergeRequestState.OPENED);
    }

    @Test
    void oneRunReadsAtMostItsBudgetOfMergeRequestsAndLaterRunsReachTheRest() {
        var ids = new java.util.ArrayList<OperationId>();
        for (var i = 0; i < CloseReopenedMergeRequests.DEFAULT_READS + 5; i++) {
            ids.add(app.rejected("dave" + i));
        }
        app.queue.runUntilIdle();
        var last = ids.getLast();
        app.assertState(last, BindingStatus.REJECTED, StepStatus.CLOSE_DONE);
        ids.forEach(this::reopen);

        app.clock.advance(Duration.ofMinutes(1));
        var before = app.gitlab.calls();
        var first = app.retryTransientFailures().scheduled();
        assertThat(app.gitlab.callsSince(before).getOrDefault("get", 0)).isLessThanOrEqualTo(CloseReopenedMergeRequests.DEFAULT_READS);
        assertThat(first).isPositive().isLessThan(ids.size());
        for (var run = 0; run < 5; run++) {
            app.clock.advance(Duration.ofMinutes(1));
            app.queue.runUntilIdle();
            app.retryTransientFailures();
        }
        app.queue.runUntilIdle();

        assertThat(ids).allSatisfy(id -> assertThat(state(id)).isEqualTo(MergeRequestState.CLOSED));
    }

    @Test
    void aGitLabFailureEndsTheReCheckForThisRunWithoutFailingTheJobAndALaterRunClosesIt() {
        var id = app.rejected("erin");
        app.queue.runUntilIdle();
        reopen(id);
        app.gitlab.failNext("get", 1, () -> ExternalCallException.status("gitlab", 503, "Service Unavailable"));

        app.clock.advance(Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().scheduled()).isZero();
        assertThat(app.queue.pending(StepKind.CLOSE, id.value())).isEmpty();
        for (var run = 0; run < 3 && app.queue.pending(StepKind.CLOSE, id.value()).isEmpty(); run++) {
            app.clock.advance(Duration.ofMinutes(1));
            app.retryTransientFailures();
        }
        app.queue.runUntilIdle();

        assertThat(state(id)).isEqualTo(MergeRequestState.CLOSED);
    }

    private void reopen(OperationId id) {
        app.gitlab.reopenExternally(FakeTargets.PROJECT, app.op(id).mergeRequest().orElseThrow().iid());
        assertThat(state(id)).isEqualTo(MergeRequestState.OPENED);
    }

    private MergeRequestState state(OperationId id) {
        return app.gitlab.find(FakeTargets.PROJECT, app.op(id).mergeRequest().orElseThrow().iid()).orElseThrow().state();
    }
}
