package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.workflow.ApproveAndMerge.Phase;
import io.changeflow.application.workflow.ApproveAndMerge.Subject;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.polling.PollDecision;
import io.changeflow.domain.polling.PollObservation;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * {@link ApproveAndMerge}'s merge phase: merge only on evidence read now ({@link MergeEvidence}), with the head sha
 * pinned; wait for GitLab to settle its mergeability without using up attempts; read a refusal by its reason; count
 * only refusals GitLab's settled status does not explain, with exponential backoff and jitter
 * (docs/external-systems-gitlab.md, "Approving and merging").
 */
final class MergeAttempts {

    private static final System.Logger LOG = System.getLogger(MergeAttempts.class.getName());

    /** GitLab's detailed merge statuses while it is still computing mergeability. */
    private static final Set<String> COMPUTING = Set.of("checking", "unchecked", "preparing", "approvals_syncing");

    /** Where a merge refusal leads: a rebase, or the approvals again (after GitLab's refusal, or for a new head). */
    interface Then {
        StepOutcome rebase(MergeRequestRef mr, MergeProgress progress, Subject subject);

        StepOutcome reapprove(MergeRequestRef mr, MergeProgress progress, Subject subject);

        StepOutcome approveAfresh(MergeRequestRef mr, MergeProgress progress, Subject subject);
    }

    private final MergeRequests mergeRequests;
    private final WorkflowPolicy policy;
    private final Clock clock;
    private final DoubleSupplier jitter;
    private final PipelineWatch rebaseWatch;
    private final PipelineWatch pipelineWatch;
    private final Then then;

    MergeAttempts(MergeRequests mergeRequests, WorkflowPolicy policy, Clock clock, DoubleSupplier jitter,
                  PipelineWatch rebaseWatch, PipelineWatch pipelineWatch, Then then) {
        this.mergeRequests = mergeRequests;
        this.policy = policy;
        this.clock = clock;
        this.jitter = jitter;
        this.rebaseWatch = rebaseWatch;
        this.pipelineWatch = pipelineWatch;
        this.then = then;
    }

    StepOutcome merge(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        return merge(mr, progress, subject, mergeRequests.getWithHeadPipeline(mr.project(), mr.iid()));
    }

    /**
     * {@link #merge} on {@code readBefore}, the merge request as this run of the step read it just before its bots approved
     * its head and GitLab said it is approved (issue 33 item 3: the merge request is read once per run, not again). The
     * evidence stays that of the head merged: the branch head is read now and must be the read's head, whose head
     * pipeline must count, and the merge pins that sha. What the read said about approvals is out of date (GitLab judged
     * them since): its {@code not_approved} is read as nothing against merging. A reason it hid behind that status costs
     * at most a merge GitLab refuses, whose refusal is read again like any other.
     */
    StepOutcome mergeApproved(MergeRequestRef mr, MergeProgress progress, Subject subject, RemoteMergeRequest readBefore) {
        var status = readBefore.detailedMergeStatus();
        return merge(mr, progress, subject, "not_approved".equalsIgnoreCase(status == null ? "" : status.trim())
                ? approved(readBefore) : readBefore);
    }

    /** {@code remote} with GitLab's approvals judged met since it was read. */
    private static RemoteMergeRequest approved(RemoteMergeRequest remote) {
        return new RemoteMergeRequest(remote.project(), remote.iid(), remote.state(), "mergeable", remote.sha(),
                remote.sourceBranch(), remote.webUrl(), remote.rebaseInProgress(), remote.mergeError(),
                remote.headPipelineRead(), remote.headPipeline(), remote.mergeAfter());
    }

    private StepOutcome merge(MergeRequestRef mr, MergeProgress progress, Subject subject, RemoteMergeRequest remote) {
        var finished = ApproveAndMerge.finishedRemotely(remote, mr, subject, "disappeared");
        if (finished.isPresent()) {
            return finished.get();
        }
        if (remote.rebaseInProgress()) {
            return StepOutcome.again(progress.nextAttempt().watching(Phase.REBASE, clock.instant()).step(), rebaseWatch.firstDelay());
        }
        if (stillChecking(remote)) {
            return awaitMergeability(mr, progress, subject);
        }
        var mergeAfter = mergeAfterInTheFuture(remote);
        if (mergeAfter.isPresent()) {
            // GitLab's "merge after" (merge_time): not a person's job, the step comes back at that time
            var wait = Duration.between(clock.instant(), mergeAfter.get());
            LOG.log(Level.INFO, () -> "!" + mr.iid() + " may only be merged after " + mergeAfter.get() + "; waiting " + wait);
            return StepOutcome.again(progress.nextAttempt().at(Phase.MERGE).withoutRefusal().step(), wait);
        }
        // Merge only on evidence read now: the real head, GitLab's reasons, the head's own pipeline.
        var pipelinePolicy = subject.pipelinePolicy();
        return switch (MergeEvidence.read(mergeRequests, mr, remote, pipelinePolicy)) {
            case MergeEvidence.Verdict.StaleHead stale when stale.branchHead().isEmpty() ->
                    // the source branch is gone (a person deleted it): GitLab calls the merge request broken, and no
                    // wait brings the branch back (simulation finding S5, docs/reliability.md)
                    subject.mergeBlocked(mr, "The source branch " + mr.sourceBranch() + " of merge request !" + mr.iid()
                            + " no longer exists on GitLab (deleted?), so nothing can be merged from it: close the request"
                            + " and apply again, or push the branch again and re-trigger the request.");
            case MergeEvidence.Verdict.StaleHead stale -> {
                LOG.log(Level.INFO, () -> "!" + mr.iid() + " still reports head " + stale.reported() + ", its branch is at "
                        + stale.branchHead().orElse("(none)") + "; waiting for GitLab to catch up");
                yield awaitMergeability(mr, progress, subject);
            }
            case MergeEvidence.Verdict.Refused refused -> onRefusal(mr, progress, subject, refused.reason(),
                    refused.detailedMergeStatus());
            case MergeEvidence.Verdict.PipelineRunning running ->
                    StepOutcome.again(progress.nextAttempt().watching(Phase.PIPELINE, clock.instant()).step(),
                            pipelineWatch.firstDelay());
            case MergeEvidence.Verdict.PipelineFailed failed -> subject.pipelineFailed(mr);
            case MergeEvidence.Verdict.PipelineNotRun notRun ->
                    subject.mergeBlocked(mr, HeadPipeline.notRun(mr, notRun.pipeline(), pipelinePolicy));
            case MergeEvidence.Verdict.Mergeable mergeable -> approvedFor(progress, mergeable.sha())
                    ? mergeNow(mr, progress, subject, mergeable.sha())
                    : approveNewHead(mr, progress, subject, mergeable.sha());
        };
    }

    /**
     * Whether the approvals were given for {@code head}. A push since (a rebase, a regeneration, a person's commit) may
     * have removed them: GitLab resets approvals on push by default ({@code reset_approvals_on_push} DEFAULT true,
     * db/structure.sql), and a project that requires none merges without any. Unknown (a step of an older release): yes.
     */
    private static boolean approvedFor(MergeProgress progress, String head) {
        return progress.approvedHead().map(head::equals).orElse(true);
    }

    /** The head moved since the bots approved: their approvals are read and given again before merging. */
    private StepOutcome approveNewHead(MergeRequestRef mr, MergeProgress progress, Subject subject, String head) {
        LOG.log(Level.INFO, () -> "!" + mr.iid() + " was approved at " + progress.approvedHead().orElse("?") + ", its head is "
                + head + " now; reading and giving the approvals again before merging");
        return then.approveAfresh(mr, progress, subject);
    }

    /** The evidence holds: merge with the head sha pinned, and read the answer by its reason. */
    private StepOutcome mergeNow(MergeRequestRef mr, MergeProgress progress, Subject subject, String sha) {
        var refused = progress.refusal();
        if (refused.isPresent()) {
            // GitLab refused the last attempt and its settled status does not explain why: a counted retry.
            return retryMerge(mr, progress, subject, refused.get());
        }
        MergeRequests.MergeAnswer answer;
        try {
            answer = mergeRequests.mergeWithCommit(mr.project(), mr.iid(), sha);
        } catch (ExternalCallException e) {
            if (!e.isTransient()) {
                throw e;
            }
            // The merge may or may not have happened: the next run reads the merge request first.
            LOG.log(Level.WARNING, "merge of !" + mr.iid() + " got no clear answer; re-reading", e);
            return retryMerge(mr, progress, subject, "the merge got no clear answer");
        }
        return switch (answer.result()) {
            case MERGED -> subject.merged(mr, answer.mergedCommit());
            case NOT_MERGEABLE -> then.rebase(mr, progress, subject);
            case NOT_APPROVED -> then.reapprove(mr, progress, subject);
            case SHA_MISMATCH_OR_LOCKED -> refused(progress, "the head moved or the merge request was locked");
            case CANNOT_BE_MERGED_YET -> refused(progress, "GitLab could not merge it yet");
            case PIPELINE_NOT_PASSED, PIPELINE_RUNNING -> refused(progress, "GitLab says the pipeline must pass first");
            case BLOCKED -> refused(progress, "GitLab refused to merge it");
            case NOT_ALLOWED -> subject.mergeBlocked(mr, notAllowed(mr));
            case REFUSED_AFTER_CHECKS -> refusedAfterChecks(mr, progress, subject);
            case MERGE_TRAIN_NOT_SKIPPABLE -> subject.mergeBlocked(mr, mergeTrainNotSkippable(mr));
        };
    }

    /**
     * GitLab's merge failed after every check passed (its {@code merge_error}: a push rule, a server hook): no conflict,
     * so no rebase. Retried like an unexplained refusal; when the retries are used up a person reads GitLab's reason.
     */
    private StepOutcome refusedAfterChecks(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var attempts = progress.mergeAttempts() + 1;
        if (attempts > policy.mergeRetries()) {
            var why = mergeRequests.get(mr.project(), mr.iid()).mergeError().orElse("GitLab gave no reason");
            return subject.mergeBlocked(mr, "GitLab refused to merge merge request !" + mr.iid() + " " + attempts
                    + " times after every check passed: \"" + why + "\" (a push rule or a server hook; not a conflict, "
                    + "so nothing was rebased). Once someone removed the cause on GitLab, re-trigger the request.");
        }
        var delay = policy.mergeRetryBackoff().delayBefore(attempts, jitter.getAsDouble());
        LOG.log(Level.INFO, () -> "merge of !" + mr.iid() + " failed after every check passed; retry " + attempts + " in " + delay);
        return StepOutcome.again(progress.nextAttempt().at(Phase.MERGE).withMergeAttempts(attempts).withoutRefusal().step(), delay);
    }

    /** GitLab's settled status names a reason it would refuse the merge: each reason has its own way on. */
    private StepOutcome onRefusal(MergeRequestRef mr, MergeProgress progress, Subject subject, MergeRequests.MergeResult reason,
                                  String detailedMergeStatus) {
        return switch (reason) {
            case NOT_MERGEABLE -> then.rebase(mr, progress, subject);
            case NOT_APPROVED -> then.reapprove(mr, progress, subject);
            case BLOCKED -> subject.mergeBlocked(mr, MergeEvidence.blocked(mr, detailedMergeStatus));
            case NOT_ALLOWED -> subject.mergeBlocked(mr, notAllowed(mr));
            case REFUSED_AFTER_CHECKS -> refusedAfterChecks(mr, progress, subject);
            case MERGE_TRAIN_NOT_SKIPPABLE -> subject.mergeBlocked(mr, mergeTrainNotSkippable(mr));
            case CANNOT_BE_MERGED_YET, SHA_MISMATCH_OR_LOCKED, PIPELINE_NOT_PASSED, PIPELINE_RUNNING, MERGED ->
                    awaitMergeability(mr, progress, subject);
        };
    }

    /** For a person: GitLab answered 401 to the merge, the bot lacks the right to merge into the target branch. */
    private String notAllowed(MergeRequestRef mr) {
        String target;
        try {
            target = mergeRequests.defaultBranch(mr.project());
        } catch (RuntimeException e) {
            target = "the target branch";
        }
        return "GitLab refused to merge merge request !" + mr.iid() + " (401): the bot may not merge into " + target
                + ": give it Maintainer or allow it on the protected branch (Allowed to merge), then re-trigger the request.";
    }

    /**
     * GitLab's {@code merge_after} where it still reports {@code merge_time} and the time is ahead (the merge request's
     * own setting, MergeRequests::Mergeability::CheckMergeTimeService); empty otherwise: a {@code merge_time} without a
     * time read, or one already passed while GitLab still refuses, is read as blocking like any other reason.
     */
    private Optional<Instant> mergeAfterInTheFuture(RemoteMergeRequest remote) {
        if (!"merge_time".equalsIgnoreCase(String.valueOf(remote.detailedMergeStatus()))) {
            return Optional.empty();
        }
        var now = clock.instant();
        return remote.mergeAfter().filter(now::isBefore);
    }

    /** For a person: the project's merge train may not be skipped, and Changeflow never merges through a train. */
    private static String mergeTrainNotSkippable(MergeRequestRef mr) {
        return "Merge request !" + mr.iid() + " was not merged: project " + mr.project() + " runs merge trains and does"
                + " not allow merging immediately without restarting the train, and Changeflow merges only by skipping"
                + " the train (a plain merge would restart every pipeline on it). Turn on \"Merge immediately without"
                + " restarting the train\" or turn merge trains off (Settings > Merge requests), or merge it yourself;"
                + " then re-trigger the request.";
    }

    /** GitLab is still working out whether the merge request can be merged (or is merging it: locked). */
    private static boolean stillChecking(RemoteMergeRequest remote) {
        return remote.state() == MergeRequestState.LOCKED
                || (remote.detailedMergeStatus() != null
                && COMPUTING.contains(remote.detailedMergeStatus().toLowerCase(Locale.ROOT)));
    }

    /**
     * A 409 or 422: most often GitLab is checking the merge request again (another merge just moved the
     * target branch). Re-read soon; the next run waits for GitLab to settle, and only a refusal that the
     * settled status does not explain is counted as a merge retry.
     */
    private StepOutcome refused(MergeProgress progress, String reason) {
        return StepOutcome.again(progress.nextAttempt().at(Phase.MERGE).refused(reason).step(),
                policy.mergeabilityPolling().shortInterval());
    }

    /** Waits for GitLab to settle the merge request's mergeability, within its own time budget; no merge attempt is used. */
    private StepOutcome awaitMergeability(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var now = clock.instant();
        var since = progress.settlingSince().orElse(now);
        var polls = progress.settlePolls() + 1;
        var polling = policy.mergeabilityPolling();
        return switch (polling.next(PollObservation.RUNNING, polls, Duration.between(since, now))) {
            case PollDecision.PollAgain again -> StepOutcome.again(progress.nextAttempt().at(Phase.MERGE).withoutRefusal()
                    .settling(since, polls).step(), again.delay());
            case PollDecision.Done done -> subject.stuck(mr, "GitLab was still checking whether merge request !" + mr.iid()
                    + " can be merged after " + polling.timeout().toSeconds() + " s");
        };
    }

    /** A merge retry: counted, after an exponential delay with jitter; the merge request is re-read first. */
    private StepOutcome retryMerge(MergeRequestRef mr, MergeProgress progress, Subject subject, String reason) {
        var attempts = progress.mergeAttempts() + 1;
        if (attempts > policy.mergeRetries()) {
            return subject.stuck(mr, "Merging merge request !" + mr.iid() + " kept failing (" + reason + ")");
        }
        var delay = policy.mergeRetryBackoff().delayBefore(attempts, jitter.getAsDouble());
        LOG.log(Level.INFO, () -> "merge of !" + mr.iid() + " refused (" + reason + "); retry " + attempts + " in " + delay);
        return StepOutcome.again(progress.nextAttempt().at(Phase.MERGE).withMergeAttempts(attempts).withoutRefusal().step(), delay);
    }
}
