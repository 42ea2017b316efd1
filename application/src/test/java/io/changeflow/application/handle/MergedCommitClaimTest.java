package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 1: a request is MERGED (and so can become VALIDATED) only when the grant file at the commit its merge
 * put on main holds exactly its line; read from GitLab, never inferred from "we merged something".
 */
class MergedCommitClaimTest {

    private static final String GRANT_FILE = "grants/" + FakeTargets.SINGLE.value() + ".txt";

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void aMergeWhoseMergedCommitHoldsTheLineIsMergedAndThenInEffect() {
        var id = app.approvedUntilHandleIsNext("anna");

        app.queue.runUntilIdle();
        app.deployed(id);

        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        var mr = app.mr(id);
        var merged = app.gitlab.mergedCommit(mr.project(), mr.iid()).orElseThrow();
        assertThat(app.gitlab.readFile(mr.project(), merged, GRANT_FILE).orElseThrow()).contains("anna until=never op=" + id.value());
    }

    /**
     * A person changed the merge request's branch (dropped the line) and merged it by hand: the merge request is merged,
     * but its merged commit does not grant; the request is not MERGED, a deploy report cannot make it VALIDATED, and
     * the reason names the file and the commit.
     */
    @Test
    void aMergeWhoseMergedCommitLacksTheLineIsNotReportedInEffect() {
        var id = app.approvedUntilHandleIsNext("bert");
        var mr = app.mr(id);
        var onBranch = app.gitlab.fileOn(mr.project(), mr.sourceBranch(), GRANT_FILE).orElseThrow();
        app.gitlab.commit(mr.project(), mr.sourceBranch(), "drop it by hand",
                List.of(new FileChange(GRANT_FILE, onBranch.replaceAll("(?m)^bert .*\\n", "") + "# nothing granted\n")));
        app.gitlab.mergeExternally(mr.project(), mr.iid());

        app.queue.runUntilIdle();
        app.deployed(id);

        var op = app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_MERGE_BLOCKED, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("is merged, but " + GRANT_FILE + " at its merged commit")
                .contains("does not hold the line of bert").contains("not reported so");
        assertThat(app.gitlab.merges()).isEqualTo(1);
    }

    /** A re-trigger reads the same merged commit again: still not in effect, never MERGED by a second look. */
    @Test
    void aRetriggerOfAContradictedMergeReadsTheSameCommitAndStaysBlocked() {
        var id = app.approvedUntilHandleIsNext("carl");
        var mr = app.mr(id);
        app.gitlab.commit(mr.project(), mr.sourceBranch(), "drop it by hand", List.of(new FileChange(GRANT_FILE, "# empty\n")));
        app.gitlab.mergeExternally(mr.project(), mr.iid());
        app.queue.runUntilIdle();

        assertThat(app.retrigger(id, "try again")).isInstanceOf(RetriggerStep.Result.Retriggered.class);
        app.queue.runUntilIdle();

        app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_MERGE_BLOCKED, Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(id)).extracting(h -> h.event())
                .filteredOn(WorkflowEvent.MERGE_BLOCKED::equals).hasSize(2);
        assertThat(app.operations.history(id)).extracting(h -> h.event()).doesNotContain(WorkflowEvent.MERGED);
    }
}
