package io.changeflow.application.workflow;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.workflow.ApproveAndMerge.Phase;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link ApproveAndMerge}'s progress as the step's data stores it, read and written by name. The keys are stable
 * across releases (a step written by one release continues in the next) and are spelled here only. Immutable:
 * every change answers a new view of a new step.
 */
final class MergeProgress {

    private static final String BOT = "bot";
    private static final String FAILURES = "failures.";
    private static final String MERGE_ATTEMPTS = "mergeAttempts";
    private static final String REBASES = "rebases";
    private static final String REGENERATIONS = "regenerations";
    private static final String OWN_REGENERATIONS = "ownRegenerations";
    private static final String REGENERATING_SINCE = "regeneratingSince";
    private static final String REAPPROVE = "reapprove";
    private static final String REFUSED = "mergeRefused";
    private static final String SETTLE_SINCE = "mergeabilitySince";
    private static final String SETTLE_POLLS = "mergeabilityPolls";
    private static final String REAPPROVALS = "reapprovals";
    private static final String RULE_WAITS = "approvalRuleWaits";
    private static final String NOT_APPROVED_REFUSALS = "notApprovedRefusals";
    private static final String APPROVED_HEAD = "approvedHead";

    private final Step step;

    private MergeProgress(Step step) {
        this.step = Objects.requireNonNull(step, "step");
    }

    static MergeProgress of(Step step) {
        return new MergeProgress(step);
    }

    /** The step carrying this progress, to reschedule or hand to a {@link PipelineWatch}. */
    Step step() {
        return step;
    }

    MergeProgress nextAttempt() {
        return of(step.nextAttempt());
    }

    MergeProgress at(Phase phase) {
        return of(step.with(ApproveAndMerge.PHASE, phase.name()));
    }

    /** At {@code phase}, starting to wait at {@code now} ({@link PipelineWatch#start}). */
    MergeProgress watching(Phase phase, Instant now) {
        return of(PipelineWatch.start(step, now)).at(phase);
    }

    // ---- approvals ---------------------------------------------------------------------------------------

    /** The index of the approval bot that approves next. */
    int bot() {
        return step.intValue(BOT, 0);
    }

    MergeProgress atBot(int index) {
        return of(step.with(BOT, index));
    }

    /** How often {@code bot}'s approval failed on the current head. */
    int failuresOf(String bot) {
        return step.intValue(FAILURES + bot, 0);
    }

    MergeProgress withFailures(String bot, int failures) {
        return of(step.with(FAILURES + bot, failures));
    }

    /** Approving a new head afresh: from the first bot, no failures counted. */
    MergeProgress approvingAfresh(List<String> bots) {
        var fresh = step.with(BOT, 0);
        for (var bot : bots) {
            fresh = fresh.without(FAILURES + bot);
        }
        return of(fresh);
    }

    /** How often the approvals were given again because GitLab removed them (after a push). */
    int reapprovals() {
        return step.intValue(REAPPROVALS, 0);
    }

    MergeProgress withReapprovals(int reapprovals) {
        return of(step.with(REAPPROVALS, reapprovals));
    }

    /** How often GitLab's approval rules were found unmet after every bot approved. */
    int ruleWaits() {
        return step.intValue(RULE_WAITS, 0);
    }

    MergeProgress withRuleWaits(int waits) {
        return of(step.with(RULE_WAITS, waits));
    }

    /** How often GitLab refused the merge as "not approved" after the bots approved. */
    int notApprovedRefusals() {
        return step.intValue(NOT_APPROVED_REFUSALS, 0);
    }

    MergeProgress withNotApprovedRefusals(int refusals) {
        return of(step.with(NOT_APPROVED_REFUSALS, refusals));
    }

    /** Whether the approvals are to be read (and given) again once the awaited pipeline passed (after a push). */
    boolean reapproveAfterPipeline() {
        return step.value(REAPPROVE).isPresent();
    }

    MergeProgress reapprovingAfterPipeline() {
        return of(step.with(REAPPROVE, "true"));
    }

    /** GitLab judged the approvals given: nothing about them is pending any more. */
    MergeProgress approvalsSettled() {
        return of(step.without(REAPPROVE).without(REAPPROVALS).without(RULE_WAITS));
    }

    /** The head the bots' approvals were given (or found) for; empty when not known (e.g. a step of an older release). */
    Optional<String> approvedHead() {
        return step.value(APPROVED_HEAD).filter(head -> !head.isBlank());
    }

    MergeProgress approvedAt(String head) {
        return of(head == null || head.isBlank() ? step.without(APPROVED_HEAD) : step.with(APPROVED_HEAD, head));
    }

    // ---- merging -----------------------------------------------------------------------------------------

    /** Counted merge retries on the current head. */
    int mergeAttempts() {
        return step.intValue(MERGE_ATTEMPTS, 0);
    }

    MergeProgress withMergeAttempts(int attempts) {
        return of(step.with(MERGE_ATTEMPTS, attempts));
    }

    /** The reason GitLab refused the last merge attempt; cleared once the refusal is explained or counted. */
    Optional<String> refusal() {
        return step.value(REFUSED);
    }

    MergeProgress refused(String reason) {
        return of(step.with(REFUSED, reason));
    }

    MergeProgress withoutRefusal() {
        return of(step.without(REFUSED));
    }

    /** Since when GitLab's mergeability has been awaited on this head; empty when not waiting (or unreadable). */
    Optional<Instant> settlingSince() {
        try {
            return step.value(SETTLE_SINCE).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    int settlePolls() {
        return step.intValue(SETTLE_POLLS, 0);
    }

    MergeProgress settling(Instant since, int polls) {
        return of(step.with(SETTLE_SINCE, since.toString()).with(SETTLE_POLLS, polls));
    }

    /** About to merge a new head (or for the first time): no attempts made, no refusal, no waiting on it yet. */
    MergeProgress freshMerge() {
        return of(step.with(MERGE_ATTEMPTS, 0).without(REFUSED).without(SETTLE_SINCE).without(SETTLE_POLLS)).at(Phase.MERGE);
    }

    // ---- rebases and regenerations ---------------------------------------------------------------------

    int rebases() {
        return step.intValue(REBASES, 0);
    }

    MergeProgress withRebases(int rebases) {
        return of(step.with(REBASES, rebases));
    }

    /** How often this step generated the change again after a rebase conflict (0 before the first). */
    int regenerations() {
        return step.intValue(REGENERATIONS, 0);
    }

    MergeProgress withRegenerations(int regenerations) {
        return of(step.with(REGENERATIONS, regenerations));
    }

    /**
     * How many of {@link #regenerations} followed a conflict that only Changeflow's own merges caused (issue 36): they do
     * not count against the limit. 0 in a step of an older release, where every regeneration counted.
     */
    int ownRegenerations() {
        return Math.min(step.intValue(OWN_REGENERATIONS, 0), regenerations());
    }

    MergeProgress withOwnRegenerations(int ownRegenerations) {
        return of(step.with(OWN_REGENERATIONS, ownRegenerations));
    }

    /** The regenerations that count against the limit: those a person's edit (or an unknown cause) made necessary. */
    int countedRegenerations() {
        return regenerations() - ownRegenerations();
    }

    /** When this step first generated its change again; empty before (or unreadable). */
    Optional<Instant> regeneratingSince() {
        try {
            return step.value(REGENERATING_SINCE).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    MergeProgress regeneratingSince(Instant since) {
        return of(step.with(REGENERATING_SINCE, since.toString()));
    }
}
