package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.workflow.ApproveAndMerge.Phase;
import io.changeflow.application.workflow.ApproveAndMerge.Regenerated;
import io.changeflow.application.workflow.ApproveAndMerge.Subject;
import io.changeflow.domain.operation.MergeRequestRef;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link ApproveAndMerge}'s answer to a rebase conflict: the change is configuration as code, so it is generated again
 * on the target branch as it is now and the merge request's branch is rewritten with it, then the new head's pipeline
 * is awaited and the approvals given again (docs/external-systems-gitlab.md, "Approving and merging").
 */
final class RegenerateChange {

    private static final System.Logger LOG = System.getLogger(RegenerateChange.class.getName());

    /** How often one regeneration writes the branch again because the target branch changed meanwhile. */
    static final int STABLE_REWRITES = 3;

    private final MergeRequests mergeRequests;
    private final WorkflowPolicy policy;
    private final Clock clock;
    private final PipelineWatch pipelineWatch;
    private final OwnMerges ownMerges;

    RegenerateChange(MergeRequests mergeRequests, WorkflowPolicy policy, Clock clock, PipelineWatch pipelineWatch) {
        this.mergeRequests = mergeRequests;
        this.ownMerges = new OwnMerges(mergeRequests);
        this.policy = policy;
        this.clock = clock;
        this.pipelineWatch = pipelineWatch;
    }

    /**
     * The rebase conflicted: generate the change again on the target branch as it is now and rewrite the
     * merge request's branch with it (one commit on top of the target), then await its pipeline. Bounded
     * per step: a conflict that only Changeflow's own merges caused ({@link OwnMerges}) does not count, for as long as
     * the transient deadline since the step's first regeneration; any other counts, and a counted one past
     * {@code max-regenerations}, or a change that cannot be generated again, is the deterministic rebase conflict.
     */
    StepOutcome afterConflict(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var conflict = "Rebasing merge request !" + mr.iid() + " hit a conflict";
        if (policy.maxRegenerations() == 0) {
            return subject.rebaseConflict(mr, conflict + ": someone has to resolve it.");
        }
        var onto = mergeRequests.defaultBranch(mr.project());
        var now = clock.instant();
        var since = progress.regeneratingSince().orElse(now);
        var freeUntil = since.plus(policy.transientDeadline());
        var ourMerges = now.isBefore(freeUntil) && ownMerges.only(mr, onto, subject);
        var regenerations = progress.regenerations() + 1;
        var own = progress.ownRegenerations() + (ourMerges ? 1 : 0);
        if (regenerations - own > policy.maxRegenerations()) {
            var why = now.isBefore(freeUntil) ? "a change not made by Changeflow (or whose author cannot be told) conflicts with it"
                    : "it kept conflicting past " + freeUntil + ", the transient deadline after its first regeneration, after "
                    + "which Changeflow's own merges count too";
            return subject.rebaseConflict(mr, conflict + " again after its change was generated on the current target branch "
                    + policy.maxRegenerations() + " time(s)" + (own == 0 ? "" : " (and " + own + " more time(s) after "
                    + "Changeflow's own merges, which do not count)") + ": " + why + "; someone has to resolve it.");
        }
        // Said once per regeneration, here where it is decided: the rewrite itself may be refused (a 429, a 5xx) and
        // repeated, and its story should still read as one regeneration.
        subject.regenerating(mr, onto, ourMerges);
        // What follows the push (read and give the approvals again) is stored before it: its answer can be lost.
        return StepOutcome.again(progress.nextAttempt().at(Phase.REWRITE).withRegenerations(regenerations)
                .withOwnRegenerations(own).regeneratingSince(since).reapprovingAfterPipeline().step(), Duration.ZERO);
    }

    /**
     * Rewrites the merge request's branch with its change generated again on the target branch as it is now,
     * then awaits the new head's pipeline. Repeated as a whole when the rewrite's answer is lost (the step data
     * already says to approve again after it).
     */
    StepOutcome rewrite(MergeRequestRef mr, RemoteMergeRequest remote, MergeProgress progress, Subject subject) {
        var regenerations = Math.max(1, progress.regenerations());
        var onto = mergeRequests.defaultBranch(mr.project());
        var change = subject.regenerate(mr, onto);
        if (change.isEmpty()) {
            return subject.rebaseConflict(mr, "Rebasing merge request !" + mr.iid() + " hit a conflict and its change cannot "
                    + "be generated again: someone has to resolve it.");
        }
        if (alreadyWritten(mr, remote, change.get())) {
            // An earlier run's rewrite reached GitLab but its answer was lost: read back, not pushed again.
            LOG.log(Level.INFO, () -> subject.describe() + ": the branch of !" + mr.iid() + " already holds its change generated on "
                    + onto + "; awaiting its pipeline");
            return awaitPipeline(progress);
        }
        if (!rewriteUntilStable(mr, onto, change.get(), subject)) {
            return subject.stuck(mr, "The change of merge request !" + mr.iid() + " was generated again on " + onto
                    + ", but " + onto + " kept changing while it was written (" + STABLE_REWRITES + " tries)");
        }
        LOG.log(Level.INFO, () -> subject.describe() + ": rebasing !" + mr.iid() + " conflicted; its change was generated again on "
                + onto + " (" + regenerations + ", " + progress.countedRegenerations() + " counted of at most "
                + policy.maxRegenerations() + ")");
        return awaitPipeline(progress);
    }

    /** The rewritten head's pipeline is awaited next, and the approvals are given again after it. */
    private StepOutcome awaitPipeline(MergeProgress progress) {
        return StepOutcome.again(progress.nextAttempt().watching(Phase.PIPELINE, clock.instant()).reapprovingAfterPipeline().step(),
                pipelineWatch.firstDelay());
    }

    /**
     * Whether an earlier rewrite already landed: the merge request no longer reports the conflict (nor a failed
     * rebase) and its branch holds every file of {@code change} as generated now.
     */
    private boolean alreadyWritten(MergeRequestRef mr, RemoteMergeRequest remote, Regenerated change) {
        if (remote.mergeError().isPresent()
                || MergeRequests.MergeResult.expectedFor(remote.detailedMergeStatus()).filter(MergeRequests.MergeResult.NOT_MERGEABLE::equals)
                .isPresent()) {
            return false;
        }
        for (var file : change.files()) {
            if (!mergeRequests.readFile(mr.project(), mr.sourceBranch(), file.path()).equals(Optional.of(file.content()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Writes {@code change} as the branch's one commit on top of {@code onto}, then generates it again: the same
     * content proves no merge landed on {@code onto} between the read and the write (the commit would undo it); other
     * content is written again, at most {@link #STABLE_REWRITES} times (docs/reliability.md, "Findings", 6).
     *
     * @return whether the branch now holds the change generated on {@code onto}'s current content
     */
    private boolean rewriteUntilStable(MergeRequestRef mr, String onto, Regenerated change, Subject subject) {
        var written = change;
        for (int attempt = 1; attempt <= STABLE_REWRITES; attempt++) {
            mergeRequests.rewriteBranch(mr.project(), mr.sourceBranch(), onto, written.message(), written.files());
            var again = subject.regenerate(mr, onto);
            if (again.isEmpty() || again.get().files().equals(written.files())) {
                return true;
            }
            var previous = written;
            LOG.log(Level.INFO, () -> subject.describe() + ": " + onto + " changed while !" + mr.iid()
                    + " was rewritten; writing it again on the new content (" + previous.files().size() + " file(s))");
            written = again.get();
        }
        return false;
    }
}
