package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.ApproveAndMerge.Phase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The choreography's progress keys are stable across releases: a step stored by an earlier release (its raw keys,
 * as they stand in the scheduler's task data) reads the same through {@link MergeProgress}, and what it writes is
 * stored under the same keys.
 */
class MergeProgressTest {

    private static final Map<String, String> STORED_BY_AN_EARLIER_RELEASE = Map.ofEntries(
            Map.entry("phase", "MERGE"), Map.entry("bot", "1"), Map.entry("failures.approver-2", "2"),
            Map.entry("mergeAttempts", "3"), Map.entry("rebases", "2"), Map.entry("regenerations", "1"),
            Map.entry("reapprove", "true"), Map.entry("mergeRefused", "GitLab could not merge it yet"),
            Map.entry("mergeabilitySince", "2026-11-30T10:15:30Z"), Map.entry("mergeabilityPolls", "4"),
            Map.entry("reapprovals", "1"), Map.entry("approvalRuleWaits", "2"), Map.entry("notApprovedRefusals", "1"));

    private final Step stored = new Step(StepKind.HANDLE, "op-1", 7, STORED_BY_AN_EARLIER_RELEASE);

    @Test
    void aStepStoredByAnEarlierReleaseReadsTheSame() {
        var progress = MergeProgress.of(stored);

        assertThat(ApproveAndMerge.phaseOf(progress.step())).contains(Phase.MERGE);
        assertThat(progress.bot()).isEqualTo(1);
        assertThat(progress.failuresOf("approver-2")).isEqualTo(2);
        assertThat(progress.failuresOf("approver-1")).isZero();
        assertThat(progress.mergeAttempts()).isEqualTo(3);
        assertThat(progress.rebases()).isEqualTo(2);
        assertThat(progress.regenerations()).isEqualTo(1);
        assertThat(progress.reapproveAfterPipeline()).isTrue();
        assertThat(progress.refusal()).contains("GitLab could not merge it yet");
        assertThat(progress.settlingSince()).contains(Instant.parse("2026-11-30T10:15:30Z"));
        assertThat(progress.settlePolls()).isEqualTo(4);
        assertThat(progress.reapprovals()).isEqualTo(1);
        assertThat(progress.ruleWaits()).isEqualTo(2);
        assertThat(progress.notApprovedRefusals()).isEqualTo(1);
    }

    @Test
    void whatItWritesIsStoredUnderTheSameKeys() {
        var written = MergeProgress.of(Step.first(StepKind.HANDLE, "op-1")).at(Phase.REWRITE).atBot(1)
                .withFailures("approver-2", 2).withMergeAttempts(3).withRebases(2).withRegenerations(1)
                .reapprovingAfterPipeline().refused("GitLab could not merge it yet")
                .settling(Instant.parse("2026-11-30T10:15:30Z"), 4).withReapprovals(1).withRuleWaits(2)
                .withNotApprovedRefusals(1).at(Phase.MERGE).step();

        assertThat(written.data()).isEqualTo(STORED_BY_AN_EARLIER_RELEASE);
    }

    @Test
    void aFreshMergeAndAFreshApprovalForgetOnlyTheirOwnCounts() {
        var progress = MergeProgress.of(stored);

        var merge = progress.freshMerge().step().data();
        assertThat(merge).doesNotContainKeys("mergeRefused", "mergeabilitySince", "mergeabilityPolls")
                .containsEntry("mergeAttempts", "0").containsEntry("phase", "MERGE").containsEntry("rebases", "2").containsEntry("reapprovals", "1");
        var approval = progress.approvingAfresh(List.of("approver-1", "approver-2")).step().data();
        assertThat(approval).containsEntry("bot", "0").doesNotContainKey("failures.approver-2")
                .containsEntry("mergeAttempts", "3");
        var settled = progress.approvalsSettled().step().data();
        assertThat(settled).doesNotContainKeys("reapprove", "reapprovals", "approvalRuleWaits").containsEntry("bot", "1");
    }

    @Test
    void anUnreadableValueReadsAsNotThere() {
        var garbled = MergeProgress.of(new Step(StepKind.HANDLE, "op-1", 1,
                Map.of("mergeAttempts", "three", "mergeabilitySince", "yesterday")));

        assertThat(garbled.mergeAttempts()).isZero();
        assertThat(garbled.settlingSince()).isEmpty();
    }
}
