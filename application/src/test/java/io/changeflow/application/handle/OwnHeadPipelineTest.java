package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 on the workflow: GitLab answers the merge request's stored {@code head_pipeline}, which stays the previous
 * head's after a push until the new head's pipeline exists (and for good when the push creates none); the approvals
 * are removed by the push (GitLab's default) and a project without approval rules merges without any. Nothing is
 * merged on another commit's pipeline, nor without the bots' approvals of the head merged.
 */
class OwnHeadPipelineTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    {
        app.gitlab.pipelinesNeedNotPass().carryHeadPipeline().reportStoredHeadPipeline();
    }

    @Test
    void aPushThatGetsNoPipelineIsNeverMergedOnThePreviousHeadsPassedPipelineAndAPersonIsToldWhy() {
        var id = app.pushedToWhenHandleIsNext("nina");

        app.queue.runUntilIdle();

        app.assertNotMergedAt(id, StepStatus.HANDLE_PIPELINE_UNFINISHED);
        assertThat(app.op(id).binding()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(NextAction.of(app.op(id).state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(lastNote(id)).startsWith("No pipeline ran for this commit")
                .contains("earlier commit").contains("re-trigger");
    }

    @Test
    void aPipelineCreatedLateForThePushedHeadIsWaitedForAndOnlyThenMerged() {
        app.gitlab.nextPipelineDelay(3);
        var id = app.pushedToWhenHandleIsNext("otto", PipelineStatus.RUNNING, PipelineStatus.PASSED);
        var mr = app.mr(id);
        var pushed = app.gitlab.headSha(mr.project(), mr.iid());

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.mergeCalls()).isEqualTo(1);
        assertThat(app.gitlab.headSha(mr.project(), mr.iid())).isEqualTo(pushed);
    }

    @Test
    void aRebaseThatRemovedTheApprovalsIsApprovedAgainBeforeMergingWhereGitLabWouldMergeWithout() {
        app.gitlab.approvalsNotRequired().resetApprovalsOnPush().nextNeedRebase(false, PipelineStatus.PASSED);

        var id = app.approvedAndRun("pia");

        var mr = app.mr(id);
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rebases()).isEqualTo(1);
        assertThat(app.gitlab.approvedAtMerge(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
    }

    @Test
    void aPersonsPushAfterTheApprovalsIsApprovedAgainBeforeMerging() {
        app.gitlab.approvalsNotRequired().resetApprovalsOnPush();
        var id = app.approvedUntilHandleIsNext("quinn");
        var mr = app.mr(id);
        // the bots approve, then someone pushes just before the merge: its head's pipeline passes
        app.gitlab.beforeNext("merge", () -> app.gitlab.pushExternally(mr.project(), mr.iid(), PipelineStatus.PASSED));

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.approvedAtMerge(mr.project(), mr.iid())).containsExactlyInAnyOrderElementsOf(InMemoryChangeflow.BOTS);
    }

    private String lastNote(OperationId id) {
        return app.operations.history(id).getLast().detail();
    }
}
