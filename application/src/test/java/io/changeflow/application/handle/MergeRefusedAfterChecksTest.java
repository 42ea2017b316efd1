package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a merge GitLab refuses with 422 and a {@code merge_error} after every check passed (a push rule, a server
 * hook) is no conflict: it is retried a bounded number of times without a rebase, then stops for a person with
 * GitLab's own message.
 */
class MergeRefusedAfterChecksTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void aPushRuleThatRefusesTwiceIsRetriedWithoutRebasingAndMerged() {
        app.gitlab.refuseMergesAfterChecks(2, "GitLab: pre-receive hook declined");

        var id = app.approvedAndRun("sam");

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.mergeCalls()).isEqualTo(3);
        assertThat(app.gitlab.rebases()).isZero();
        assertThat(app.gitlab.rewrites()).isZero();
    }

    @Test
    void aPushRuleThatKeepsRefusingStopsForAPersonWithGitLabsMessageNeverRebasing() {
        app.gitlab.refuseMergesAfterChecks(50, "Commit message does not follow the pattern '^JIRA-'");

        var id = app.approvedAndRun("tess");

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(app.gitlab.rebases()).isZero();
        assertThat(app.gitlab.rewrites()).isZero();
        assertThat(app.operations.history(id).getLast().detail())
                .contains("after every check passed").contains("Commit message does not follow the pattern '^JIRA-'");
    }
}
