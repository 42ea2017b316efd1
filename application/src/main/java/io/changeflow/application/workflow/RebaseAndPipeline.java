package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.workflow.ApproveAndMerge.Phase;
import io.changeflow.application.workflow.ApproveAndMerge.Subject;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.polling.PollObservation;
import java.time.Clock;

/**
 * {@link ApproveAndMerge}'s waits on a new head: a rebase requested and polled (a conflict hands over to
 * {@link RegenerateChange}), and the new head's own pipeline awaited as the target's policy reads it, after which
 * the approvals are given again (the head was pushed) or merging goes on.
 */
final class RebaseAndPipeline {

    private static final System.Logger LOG = System.getLogger(RebaseAndPipeline.class.getName());

    /** What follows a passed pipeline: the approvals again (after a push), or merging. */
    interface Then {
        StepOutcome approveAfresh(MergeRequestRef mr, MergeProgress progress, Subject subject);

        StepOutcome merge(MergeRequestRef mr, MergeProgress progress, Subject subject);
    }

    private final MergeRequests mergeRequests;
    private final WorkflowPolicy policy;
    private final Clock clock;
    private final PipelineWatch rebaseWatch;
    private final PipelineWatch pipelineWatch;
    private final RegenerateChange regeneration;
    private final Then then;

    RebaseAndPipeline(MergeRequests mergeRequests, WorkflowPolicy policy, Clock clock, PipelineWatch rebaseWatch,
                      PipelineWatch pipelineWatch, Then then) {
        this.mergeRequests = mergeRequests;
        this.policy = policy;
        this.clock = clock;
        this.rebaseWatch = rebaseWatch;
        this.pipelineWatch = pipelineWatch;
        this.regeneration = new RegenerateChange(mergeRequests, policy, clock, pipelineWatch);
        this.then = then;
    }

    /** Requests a rebase (bounded per step) and starts polling it. */
    StepOutcome rebase(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var rebases = progress.rebases() + 1;
        // A regenerated head is a new change on a newer target: it may need a rebase of its own.
        if (rebases > policy.maxRebases() + progress.regenerations()) {
            return subject.stuck(mr, "Merge request !" + mr.iid() + " needed more than " + policy.maxRebases() + " rebases");
        }
        subject.rebaseStarting(mr);
        try {
            mergeRequests.rebase(mr.project(), mr.iid());
        } catch (ExternalCallException e) {
            if (e.kind() != ExternalCallException.Kind.HTTP_STATUS || (e.status() != 409 && e.status() != 403)) {
                throw e;
            }
            if (e.status() == 403) {
                return subject.mergeBlocked(mr, "GitLab refused to rebase merge request !" + mr.iid() + " (403): the bot "
                        + "may not rewrite its source branch " + mr.sourceBranch() + " (it is protected from force push, "
                        + "the bot may not push to it, or it was deleted). Allow force push on that branch or unprotect it, "
                        + "or rebase it on GitLab, then re-trigger the request.");
            }
            // 409: GitLab could not queue the rebase ("Try again later"); nothing started. Counted as a rebase, so a
            // GitLab that keeps refusing ends at the rebase bound instead of asking forever.
            LOG.log(System.Logger.Level.INFO, () -> "GitLab could not queue the rebase of !" + mr.iid() + " (409); asking again");
            return StepOutcome.again(progress.nextAttempt().at(Phase.MERGE).withRebases(rebases).step(),
                    rebaseWatch.firstDelay());
        }
        // A rebase is a push: once its head's pipeline passed, the approvals are read and given again before merging.
        return StepOutcome.again(progress.nextAttempt().watching(Phase.REBASE, clock.instant()).withRebases(rebases)
                .reapprovingAfterPipeline().step(), rebaseWatch.firstDelay());
    }

    StepOutcome awaitRebase(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = ApproveAndMerge.ending(remote, mr, subject);
        if (finished.isPresent()) {
            return finished.get();
        }
        if (!remote.rebaseInProgress() && remote.mergeError().isPresent()) {
            return regeneration.afterConflict(mr, progress, subject);
        }
        var observation = remote.rebaseInProgress() ? PollObservation.RUNNING : PollObservation.PASSED;
        return switch (rebaseWatch.observe(progress.step(), observation, clock.instant(), subject.lastWrite())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed -> StepOutcome.again(
                    progress.nextAttempt().watching(Phase.PIPELINE, clock.instant()).step(), pipelineWatch.firstDelay());
            case PipelineWatch.Verdict.Failed failed ->
                    subject.rebaseConflict(mr, "Rebasing merge request !" + mr.iid() + " failed.");
            case PipelineWatch.Verdict.TimedOut timedOut ->
                    subject.stuck(mr, "Rebasing merge request !" + mr.iid() + " did not finish in time");
            case PipelineWatch.Verdict.GaveUp gaveUp ->
                    subject.stuck(mr, "Rebasing merge request !" + mr.iid() + " did not finish in time");
        };
    }

    /** The branch is rewritten with the change generated again ({@link RegenerateChange}). */
    StepOutcome rewrite(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = ApproveAndMerge.ending(remote, mr, subject);
        return finished.isPresent() ? finished.get() : regeneration.rewrite(mr, remote, progress, subject);
    }

    StepOutcome awaitPipeline(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var remote = mergeRequests.getWithHeadPipeline(mr.project(), mr.iid());
        var finished = ApproveAndMerge.ending(remote, mr, subject);
        if (finished.isPresent()) {
            return finished.get();
        }
        // After a push or a rebase only the new head's own pipeline counts (as the target's policy reads it), and only
        // once the merge request reports the branch's real head (GitLab refreshes it asynchronously): until then it waits.
        var pipelinePolicy = subject.pipelinePolicy();
        var look = HeadPipeline.look(mergeRequests, mr, remote, pipelinePolicy);
        if (look instanceof HeadPipeline.Look.NotRun notRun) {
            return subject.mergeBlocked(mr, HeadPipeline.notRun(mr, notRun.pipeline(), pipelinePolicy));
        }
        return switch (pipelineWatch.observe(progress.step(), HeadPipeline.observation(look), clock.instant(), subject.lastWrite())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed -> progress.reapproveAfterPipeline()
                    // The rewrite was a push: GitLab may have removed the approvals. Each bot's is read first.
                    ? then.approveAfresh(mr, progress, subject)
                    : then.merge(mr, progress.freshMerge(), subject);
            case PipelineWatch.Verdict.Failed failed -> subject.pipelineFailed(mr);
            case PipelineWatch.Verdict.TimedOut timedOut -> {
                subject.pipelineTimedOut(mr);
                yield StepOutcome.again(timedOut.step().nextAttempt(), timedOut.delay());
            }
            case PipelineWatch.Verdict.GaveUp gaveUp -> gaveUp(mr, remote, gaveUp, subject);
        };
    }

    /** The pending deadline passed: a head that never had a pipeline of its own says so, anything else is pending. */
    private static StepOutcome gaveUp(MergeRequestRef mr, MergeRequests.RemoteMergeRequest remote,
                                      PipelineWatch.Verdict.GaveUp gaveUp, Subject subject) {
        return HeadPipeline.noOwnPipeline(mr, remote, subject.pipelinePolicy(), gaveUp.deadlineText())
                .map(note -> subject.noPipelineRan(mr, remote.sha(), note))
                .orElseGet(() -> subject.pipelineGaveUp(mr));
    }
}
