package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.polling.RetryPolicy;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The GitLab choreography that takes an open merge request to merged, shared by the single-request
 * handle step and the batch step: approve with each approval bot, merge with the head sha read, rebase
 * and retry when it cannot be merged, and wait for the rebased head's pipeline. Every wait (approval
 * backoff, rebase, pipeline, merge retry) is a rescheduling with the progress in the step's data, so no
 * thread waits and any instance can continue it. What the merge request belongs to (one request, or a
 * batch) is the {@link Subject}: it records progress and decides what each ending means.
 *
 * <p>Remote state first (design 3.4), on every run: an already merged merge request ends as
 * {@link Subject#merged} without approving again, a closed one as {@link Subject#closedRemotely}.
 *
 * <p>Bot approvals, by the accounts {@link MergeRequests#approvalAccounts} names, in its order (none
 * configured is an error, never "nothing to approve"), each bot on its own (two approvals are not one
 * atomic action; retrying them as a pair would re-approve the first): the bot's approval is read before
 * every attempt, so a previous attempt that reached GitLab but lost its answer is seen instead of
 * provoking another 401; a failed read counts as "not approved yet" (fail-open, the check never becomes
 * a new failure); failures are retried {@code approval.maxRetries} times (read per use) with exponential
 * backoff by rescheduling, with a per-bot counter in the step data; after the last failure the approvals
 * are read once more, because a 401 means both "already approved" and "may not approve". A 401 is also
 * re-read at once.
 *
 * <p>Merge outcomes: not mergeable starts a rebase and polls it (a conflict is deterministic); after a
 * rebase the pipeline runs again and is polled. Only the rebased head's own pipeline counts: until
 * GitLab creates it the latest pipeline is the old head's, which reads as still running. "Sha moved or
 * locked" and "cannot be merged yet" re-read and retry a bounded number of times; then, like too many
 * rebases or a rebase that does not finish, the subject is {@link Subject#stuck}.
 *
 * <p>The step data keys and phase names are stable across releases: a step written by one release
 * continues in the next.
 */
public final class ApproveAndMerge {

    /** The step data key of the phase (shared with the callers' own phases). */
    public static final String PHASE = "phase";
    static final String BOT = "bot";
    static final String FAILURES = "failures.";
    static final String MERGE_ATTEMPTS = "mergeAttempts";
    static final String REBASES = "rebases";

    /** Where the choreography continues. */
    public enum Phase { APPROVE, MERGE, REBASE, PIPELINE }

    /** GitLab's detailed merge statuses while it is still computing mergeability. */
    private static final Set<String> COMPUTING = Set.of("checking", "unchecked", "preparing", "approvals_syncing");

    private static final System.Logger LOG = System.getLogger(ApproveAndMerge.class.getName());

    /**
     * What the merge request belongs to: one request or a batch. Each method is told one thing that
     * happened; those returning a {@link StepOutcome} end the run with it. Methods may throw like a step
     * (a lost race on a state write re-runs the step).
     */
    public interface Subject {

        /** For logs and error messages, e.g. an operationId or "batch 17". */
        String describe();

        /** When waiting started if the step data does not say (e.g. a step re-scheduled after its task was lost). */
        Instant lastWrite();

        /** Every approval bot has approved; merging comes next. */
        void approved(MergeRequestRef mr);

        /** A rebase is about to be requested. */
        void rebaseStarting(MergeRequestRef mr);

        /** The merge request is merged (by us now, or found merged). */
        StepOutcome merged(MergeRequestRef mr);

        /** The merge request was found closed without merging. */
        StepOutcome closedRemotely(MergeRequestRef mr);

        /** {@code bot} could not approve, even after {@code attempts} attempts and a last read. */
        StepOutcome approvalFailed(MergeRequestRef mr, String bot, int attempts);

        /** The rebase hit a conflict (deterministic). */
        StepOutcome rebaseConflict(MergeRequestRef mr, String detail);

        /** The rebased head's pipeline failed (deterministic). */
        StepOutcome pipelineFailed(MergeRequestRef mr);

        /** The rebased head's pipeline did not finish in time: record "pending" (the watch keeps looking slowly). */
        void pipelineTimedOut(MergeRequestRef mr);

        /** The pipeline stayed pending for longer than the watch looks: a person confirms the outcome. */
        StepOutcome pipelineGaveUp(MergeRequestRef mr);

        /** Merging could not complete (retries used up, too many rebases, a rebase that did not finish). */
        StepOutcome stuck(MergeRequestRef mr, String detail);
    }

    private final MergeRequests mergeRequests;
    private final Settings settings;
    private final WorkflowPolicy policy;
    private final PipelineWatch rebaseWatch;
    private final PipelineWatch pipelineWatch;
    private final Clock clock;

    public ApproveAndMerge(MergeRequests mergeRequests, Settings settings, WorkflowPolicy policy, Clock clock) {
        this.mergeRequests = mergeRequests;
        this.settings = settings;
        this.policy = policy;
        this.rebaseWatch = new PipelineWatch(policy.rebasePolling(), policy.pendingRecheck(), Duration.ZERO);
        this.pipelineWatch = new PipelineWatch(policy.pipelinePolling(), policy.pendingRecheck(), policy.pendingGiveUpAfter());
        this.clock = clock;
    }

    /** The choreography's phase recorded in {@code step}, if it is one of its own. */
    public static Optional<Phase> phaseOf(Step step) {
        var raw = step.value(PHASE);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        for (var phase : Phase.values()) {
            if (phase.name().equals(raw.get())) {
                return Optional.of(phase);
            }
        }
        return Optional.empty();
    }

    /** Continues at {@code phase}, as a previous run of the step left it. */
    public StepOutcome resume(Phase phase, MergeRequestRef mr, Step step, Subject subject) {
        return switch (phase) {
            case APPROVE -> approve(mr, step, subject);
            case MERGE -> merge(mr, step, subject);
            case REBASE -> awaitRebase(mr, step, subject);
            case PIPELINE -> awaitPipeline(mr, step, subject);
        };
    }

    /** Starts approving with the first bot, then merges. */
    public StepOutcome approveAndMerge(MergeRequestRef mr, Step step, Subject subject) {
        return approve(mr, step.with(PHASE, Phase.APPROVE.name()).with(BOT, 0), subject);
    }

    /** Merged or closed on GitLab: the subject's ending for it, whatever the step was about to do. */
    public Optional<StepOutcome> finishedRemotely(RemoteMergeRequest remote, MergeRequestRef mr, Subject subject) {
        if (remote.state() == MergeRequestState.MERGED) {
            return Optional.of(subject.merged(mr));
        }
        if (remote.state() == MergeRequestState.CLOSED) {
            return Optional.of(subject.closedRemotely(mr));
        }
        return Optional.empty();
    }

    private StepOutcome approve(MergeRequestRef mr, Step step, Subject subject) {
        var bots = mergeRequests.approvalAccounts();
        if (bots.isEmpty()) {
            // Never merge unapproved: a missing bot list is a configuration error, not "nothing to approve".
            throw new IllegalStateException("no approval bot accounts are configured; merge request !" + mr.iid()
                    + " is not approved");
        }
        var retries = new RetryPolicy(settings.approvalMaxRetries().value(), policy.approvalBackoff());
        var current = step;
        for (var index = current.intValue(BOT, 0); index < bots.size(); index++) {
            var bot = bots.get(index);
            if (hasApprovalFrom(mr, bot)) {
                continue;
            }
            try {
                mergeRequests.approve(mr.project(), mr.iid(), bot);
                continue;
            } catch (ExternalCallException e) {
                if (e.status() == 401 && hasApprovalFrom(mr, bot)) {
                    LOG.log(Level.INFO, () -> "401 for " + bot + " on !" + mr.iid() + " meant 'already approved'");
                    continue;
                }
                var failures = current.intValue(FAILURES + bot, 0) + 1;
                current = current.with(BOT, index).with(FAILURES + bot, failures);
                var delay = retries.afterFailure(failures);
                if (delay.isPresent()) {
                    LOG.log(Level.WARNING, "approval by " + bot + " on !" + mr.iid() + " failed (attempt " + failures
                            + "); retrying in " + delay.get(), e);
                    return StepOutcome.again(current.nextAttempt(), delay.get());
                }
                // After the last attempt there is no next read to correct things: read once more.
                if (hasApprovalFrom(mr, bot)) {
                    continue;
                }
                LOG.log(Level.WARNING, "approval by " + bot + " on !" + mr.iid() + " failed " + failures + " times", e);
                return subject.approvalFailed(mr, bot, failures);
            }
        }
        subject.approved(mr);
        return merge(mr, current.with(PHASE, Phase.MERGE.name()), subject);
    }

    /** Whether {@code bot} approved; a failed read counts as "not yet" (fail-open). */
    private boolean hasApprovalFrom(MergeRequestRef mr, String bot) {
        try {
            return mergeRequests.approvedBy(mr.project(), mr.iid()).contains(bot);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not read the approvals of !" + mr.iid() + "; treating " + bot + " as not approved", e);
            return false;
        }
    }

    private StepOutcome merge(MergeRequestRef mr, Step step, Subject subject) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(remote, mr, subject);
        if (finished.isPresent()) {
            return finished.get();
        }
        if (remote.state() == MergeRequestState.ABSENT) {
            throw new IllegalStateException("merge request !" + mr.iid() + " of " + subject.describe() + " disappeared");
        }
        if (remote.rebaseInProgress()) {
            return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.REBASE.name()),
                    rebaseWatch.firstDelay());
        }
        if (remote.state() == MergeRequestState.LOCKED
                || COMPUTING.contains(remote.detailedMergeStatus().toLowerCase(Locale.ROOT))) {
            return retryMerge(mr, step, subject, "GitLab is still preparing the merge request");
        }
        MergeRequests.MergeResult result;
        try {
            result = mergeRequests.merge(mr.project(), mr.iid(), remote.sha());
        } catch (ExternalCallException e) {
            if (!e.isTransient()) {
                throw e;
            }
            // The merge may or may not have happened: the next run reads the merge request first.
            LOG.log(Level.WARNING, "merge of !" + mr.iid() + " got no clear answer; re-reading", e);
            return retryMerge(mr, step, subject, "the merge got no clear answer");
        }
        return switch (result) {
            case MERGED -> subject.merged(mr);
            case NOT_MERGEABLE -> rebase(mr, step, subject);
            case SHA_MISMATCH_OR_LOCKED -> retryMerge(mr, step, subject, "the head moved or the merge request was locked");
            case CANNOT_BE_MERGED_YET -> retryMerge(mr, step, subject, "GitLab could not merge it yet");
        };
    }

    private StepOutcome retryMerge(MergeRequestRef mr, Step step, Subject subject, String reason) {
        var attempts = step.intValue(MERGE_ATTEMPTS, 0) + 1;
        if (attempts > policy.mergeRetries()) {
            return subject.stuck(mr, "Merging merge request !" + mr.iid() + " kept failing (" + reason + ")");
        }
        return StepOutcome.again(step.nextAttempt().with(PHASE, Phase.MERGE.name()).with(MERGE_ATTEMPTS, attempts),
                policy.mergeRetryDelay());
    }

    private StepOutcome rebase(MergeRequestRef mr, Step step, Subject subject) {
        var rebases = step.intValue(REBASES, 0) + 1;
        if (rebases > policy.maxRebases()) {
            return subject.stuck(mr, "Merge request !" + mr.iid() + " needed more than " + policy.maxRebases() + " rebases");
        }
        subject.rebaseStarting(mr);
        mergeRequests.rebase(mr.project(), mr.iid());
        return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.REBASE.name())
                .with(REBASES, rebases), rebaseWatch.firstDelay());
    }

    private StepOutcome awaitRebase(MergeRequestRef mr, Step step, Subject subject) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(remote, mr, subject);
        if (finished.isPresent()) {
            return finished.get();
        }
        if (!remote.rebaseInProgress() && remote.mergeError().isPresent()) {
            return subject.rebaseConflict(mr, "Rebasing merge request !" + mr.iid() + " hit a conflict: someone has to resolve it.");
        }
        var observation = remote.rebaseInProgress() ? PollObservation.RUNNING : PollObservation.PASSED;
        return switch (rebaseWatch.observe(step, observation, clock.instant(), subject.lastWrite())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed ->
                    StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.PIPELINE.name()),
                            pipelineWatch.firstDelay());
            case PipelineWatch.Verdict.Failed failed ->
                    subject.rebaseConflict(mr, "Rebasing merge request !" + mr.iid() + " failed.");
            case PipelineWatch.Verdict.TimedOut timedOut ->
                    subject.stuck(mr, "Rebasing merge request !" + mr.iid() + " did not finish in time");
            case PipelineWatch.Verdict.GaveUp gaveUp ->
                    subject.stuck(mr, "Rebasing merge request !" + mr.iid() + " did not finish in time");
        };
    }

    private StepOutcome awaitPipeline(MergeRequestRef mr, Step step, Subject subject) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(remote, mr, subject);
        if (finished.isPresent()) {
            return finished.get();
        }
        // The rebase made a new head; until GitLab creates its pipeline the latest one is the old head's.
        var observation = PipelineWatch.observation(mergeRequests.latestPipeline(mr.project(), mr.iid()), remote.sha());
        return switch (pipelineWatch.observe(step, observation, clock.instant(), subject.lastWrite())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed -> merge(mr, step.with(PHASE, Phase.MERGE.name()).with(MERGE_ATTEMPTS, 0), subject);
            case PipelineWatch.Verdict.Failed failed -> subject.pipelineFailed(mr);
            case PipelineWatch.Verdict.TimedOut timedOut -> {
                subject.pipelineTimedOut(mr);
                yield StepOutcome.again(timedOut.step().nextAttempt(), timedOut.delay());
            }
            case PipelineWatch.Verdict.GaveUp gaveUp -> subject.pipelineGaveUp(mr);
        };
    }
}
