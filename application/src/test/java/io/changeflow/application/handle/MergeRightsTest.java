package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.state.StepStatus;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: GitLab answers 401 to a merge by an account that may not merge into the target branch
 * ({@code can_be_merged_by?}). No waiting fixes that: the request stops in a state a person owns, saying which right
 * the bot lacks, and nothing is merged. Likewise a project whose merge train may not be skipped (Changeflow merges only
 * with {@code skip_merge_train}): the adapter does not merge there, and a person is told what to allow.
 */
class MergeRightsTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void aMergeRefusedWith401StopsForAPersonNamingTheRightTheBotLacksInsteadOfKeepWaiting() {
        app.gitlab.nextMergeResults(MergeResult.NOT_ALLOWED);

        var id = app.approvedAndRun("rosa");

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(app.gitlab.mergeCalls()).as("not retried").isEqualTo(1);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(id).getLast().detail())
                .contains("the bot may not merge into main: give it Maintainer or allow it on the protected branch");
    }

    @Test
    void aProjectWhoseMergeTrainMayNotBeSkippedStopsForAPersonSayingWhatToAllowAndARetriggerMergesOnceAllowed() {
        app.gitlab.nextMergeResults(MergeResult.MERGE_TRAIN_NOT_SKIPPABLE);

        var id = app.approvedAndRun("rosa");

        app.assertNotMergedAt(id, StepStatus.HANDLE_MERGE_BLOCKED);
        assertThat(app.gitlab.mergeCalls()).as("not retried").isEqualTo(1);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(id).getLast().detail())
                .contains("runs merge trains and does not allow merging immediately without restarting the train")
                .contains("Merge immediately without restarting the train");

        assertThat(app.retrigger(id, "skipping the train is allowed now")).isInstanceOf(RetriggerStep.Result.Retriggered.class);
        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }
}
