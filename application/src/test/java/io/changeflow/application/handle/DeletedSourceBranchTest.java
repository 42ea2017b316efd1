package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Simulation finding S5 (issue 30, docs/reliability.md): a person deletes the source branch of a request's open merge
 * request. GitLab keeps the merge request open but broken ({@code broken_status}); the handle step read the missing
 * branch as a head GitLab had not caught up with yet, waited, failed, and the retry job started it again without end.
 * No wait brings a deleted branch back: the request stops in a state a person owns, saying what happened.
 */
class DeletedSourceBranchTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void aDeletedSourceBranchStopsTheMergeForAPersonInsteadOfWaitingForItsHead() {
        var id = handledAfterItsBranchWasDeleted();
        var mr = app.mr(id);

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(id).getLast().detail())
                .contains("source branch " + mr.sourceBranch(), "no longer exists on GitLab");
    }

    @Test
    void theRetryJobLeavesTheBlockedMergeToThePerson() {
        var id = handledAfterItsBranchWasDeleted();
        var writes = app.operations.writes();

        app.clock.advance(Duration.ofHours(2));
        app.retryTransientFailures();
        app.queue.runUntilIdle();

        assertThat(app.operations.writes()).isEqualTo(writes);
        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
    }

    /** Approved, the handle step next, a person deletes the merge request's source branch; the workflow runs until idle. */
    private OperationId handledAfterItsBranchWasDeleted() {
        var id = app.approvedUntilHandleIsNext("rosa");
        var mr = app.mr(id);
        app.gitlab.deleteBranchExternally(mr.project(), mr.sourceBranch());
        app.queue.runUntilIdle();
        return id;
    }
}
