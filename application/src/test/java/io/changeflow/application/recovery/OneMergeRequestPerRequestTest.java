package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 7: one merge request per request, always. A close while the merge request is being created, or after
 * the answer on opening was lost, leaves no open merge request that no request owns; a re-application opens its own.
 */
class OneMergeRequestPerRequestTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private List<Long> openMergeRequests() {
        return app.gitlab.mergeRequestsOf(FakeTargets.PROJECT).stream()
                .filter(iid -> app.gitlab.get(FakeTargets.PROJECT, iid).state() == MergeRequestState.OPENED).toList();
    }

    private CloseChangeRequest.Result close(OperationId id) {
        return app.closeRequest.close(new CloseChangeRequest.Command(id.value(), "otto", Map.of()));
    }

    @Test
    void aCloseWhileTheMergeRequestIsBeingOpenedClosesTheOneOpenedLateAndAReapplicationHasItsOwn() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var closing = new AtomicReference<OperationId>();
        var closed = new AtomicReference<CloseChangeRequest.Result>();
        app.gitlab.beforeNext("open", () -> closed.set(close(closing.get())));
        var id = app.submitAccepted(FakeTargets.SINGLE, "alice");
        closing.set(id);

        app.queue.runUntilIdle();

        assertThat(closed.get()).isInstanceOf(CloseChangeRequest.Result.Closed.class);
        assertThat(app.op(id).binding()).contains(BindingStatus.CLOSED);
        assertThat(app.gitlab.mergeRequestsOf(FakeTargets.PROJECT)).as("it was opened late").hasSize(1);
        assertThat(openMergeRequests()).as("the late one is closed: nobody owns it").isEmpty();

        var again = app.submitAccepted(FakeTargets.SINGLE, "alice");
        app.queue.runUntilIdle();
        assertThat(openMergeRequests()).containsExactly(app.mr(again).iid());
    }

    /**
     * Finding S11 (issue 30, seed 120376): the merge request opened late for a request closed meanwhile is recorded on
     * that request as well as closed, so that when a person reopens it on GitLab the failed-close job's re-check of
     * ended requests finds it and closes it again. Before, it was closed unrecorded, the re-check (which reads the
     * merge requests requests record) never saw it, and it stayed open for good.
     */
    @Test
    void theMergeRequestOpenedLateForAClosedRequestIsRecordedSoThatAPersonsReopenIsClosedAgain() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var closing = new AtomicReference<OperationId>();
        app.gitlab.beforeNext("open", () -> close(closing.get()));
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        closing.set(id);
        app.queue.runUntilIdle();
        var late = app.gitlab.mergeRequestsOf(FakeTargets.PROJECT).getFirst();
        assertThat(app.op(id).binding()).contains(BindingStatus.CLOSED);
        assertThat(app.op(id).mergeRequest()).as("recorded although closed at once")
                .hasValueSatisfying(mr -> assertThat(mr.iid()).isEqualTo(late));
        assertThat(openMergeRequests()).isEmpty();

        app.gitlab.reopenExternally(FakeTargets.PROJECT, late);
        assertThat(openMergeRequests()).containsExactly(late);
        app.clock.advance(java.time.Duration.ofMinutes(1));
        assertThat(app.retryTransientFailures().scheduled()).as("the close it schedules").isEqualTo(1);
        app.queue.runUntilIdle();

        assertThat(openMergeRequests()).as("closed again through the close step").isEmpty();
        assertThat(app.op(id).binding()).contains(BindingStatus.CLOSED);
    }

    @Test
    void aCloseAfterTheAnswerOnOpeningWasLostFindsTheMergeRequestByTheRequestsBranchAndClosesIt() {
        app.config.set(Settings.APPROVE_FIRST, "false");
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");
        app.queue.lose(StepKind.CREATE, id.value());
        // GitLab opened it, the answer never came back, the retries gave up
        var branch = MergeRequestTexts.branchOf(id);
        app.gitlab.createBranch(FakeTargets.PROJECT, branch, "main");
        var orphan = app.gitlab.open(FakeTargets.PROJECT, branch, "main", "bob's access", "opened, answer lost");
        app.changes.apply(app.op(id), WorkflowEvent.CREATE_GAVE_UP, "GitLab did not answer");
        assertThat(app.op(id).mergeRequest()).isEmpty();

        assertThat(close(id)).isInstanceOf(CloseChangeRequest.Result.Closed.class);

        assertThat(app.op(id).binding()).contains(BindingStatus.CLOSED);
        assertThat(app.op(id).mergeRequest()).hasValueSatisfying(mr -> assertThat(mr.iid()).isEqualTo(orphan.iid()));
        assertThat(app.gitlab.get(FakeTargets.PROJECT, orphan.iid()).state()).isEqualTo(MergeRequestState.CLOSED);
        assertThat(openMergeRequests()).isEmpty();
    }
}
