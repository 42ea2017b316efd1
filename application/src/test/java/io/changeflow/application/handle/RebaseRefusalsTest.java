package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: GitLab's refusals of a rebase request ({@code PUT .../rebase}, lib/api/merge_requests.rb and
 * app/services/merge_requests/rebase_service.rb, 17.x to 19.2). 409 is "Failed to enqueue the rebase operation ...
 * Try again later" (nothing started), not "a rebase is already in progress": it is asked again, bounded by the
 * rebase limit, instead of waiting for a rebase that never runs. 403 (the source branch is protected from force
 * push, the bot may not push to it, or it is gone) is a person's job.
 */
class RebaseRefusalsTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void aRebaseGitLabCouldNotQueueIsAskedForAgainAndTheRequestMergedOnceItRan() {
        app.gitlab.nextNeedRebase(false, PipelineStatus.PASSED);
        app.gitlab.failNext("rebase", ExternalCallException.status("gitlab", 409, "409 Conflict"));
        var id = app.approvedUntilHandleIsNext("hana");

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rebases()).as("the rebase GitLab queued").isEqualTo(1);
    }

    @Test
    void aRebaseGitLabNeverQueuesEndsAtTheRebaseBoundNotInAnEndlessWait() {
        app.gitlab.nextNeedRebase(false, PipelineStatus.PASSED);
        app.gitlab.failNext("rebase", 20, () -> ExternalCallException.status("gitlab", 409, "409 Conflict"));
        var id = app.approvedUntilHandleIsNext("ivan");

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).isNotEqualTo(java.util.Optional.of(BindingStatus.MERGED));
        assertThat(app.operations.history(id).getLast().detail()).contains("rebases");
        assertThat(app.gitlab.rebases()).isZero();
        assertThat(app.gitlab.mergeCalls()).isZero();
    }

    @Test
    void aRebaseRefusedWith403StopsAtOnceForAPersonSayingTheSourceBranchMayNotBeRewritten() {
        app.gitlab.nextNeedRebase(false, PipelineStatus.PASSED);
        app.gitlab.failNext("rebase", ExternalCallException.status("gitlab", 403, "403 Forbidden"));
        var id = app.approvedUntilHandleIsNext("jana");

        app.queue.runUntilIdle();

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(id).getLast().detail()).contains("(403)", "protected from force push");
        assertThat(app.gitlab.rebases()).isZero();
        assertThat(app.gitlab.mergeCalls()).isZero();
    }
}
