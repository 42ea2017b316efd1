package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.polling.PollDecision;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.polling.RetryPolicy;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

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
 * <p>Merging waits for GitLab first: while it is still computing whether the merge request can be merged
 * ({@code detailed_merge_status} checking, unchecked, preparing, approvals syncing, or the merge request is
 * locked), and after a merge refused as "cannot be merged yet" (422) or "sha moved or locked" (409), the
 * merge request is re-read by tiered polling ({@link WorkflowPolicy#mergeabilityPolling}, its own time
 * budget from the first wait on a head) and merged once GitLab has settled; that waiting uses up no merge
 * attempt. Every merge into the target branch makes GitLab check the other merge requests again, so in a
 * burst of merges most refusals are this. A refusal that GitLab's settled status does not explain, or a
 * merge without a clear answer, is a merge retry: at most {@link WorkflowPolicy#mergeRetries}, after an
 * exponential delay with jitter ({@link WorkflowPolicy#mergeRetryBackoff}; the random source is injected),
 * so merge requests refused together do not come back together. Then, like too many rebases, a rebase that
 * does not finish or GitLab checking for longer than the budget, the subject is {@link Subject#stuck}.
 *
 * <p>Not mergeable starts a rebase and polls it; after a rebase the pipeline runs again and is polled.
 * Only the rebased head's own pipeline counts: until GitLab creates it the latest pipeline is the old
 * head's, which reads as still running. A rebase conflict is not the end: the change is configuration as
 * code, so it is generated again ({@link Subject#regenerate}: the grant files as the target branch holds
 * them now, with the subject's grants applied) and the merge request's branch is rewritten as one commit on
 * top of the target branch ({@link MergeRequests#rewriteBranch}); then its pipeline is awaited, the bots'
 * approvals are read again (the push may have removed them) and it is merged. At most
 * {@link WorkflowPolicy#maxRegenerations} per step: a change generated on the current file cannot conflict
 * with it, so a conflict after that means the target branch keeps changing under it, and is
 * {@link Subject#rebaseConflict} (deterministic), as is one whose change cannot be generated again.
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
    static final String REGENERATIONS = "regenerations";
    /** Set while the pipeline of a regenerated head is awaited: the approvals are read (and given) again after it. */
    static final String REAPPROVE = "reapprove";
    /** The reason GitLab refused the last merge attempt; cleared once the refusal is explained or counted. */
    static final String REFUSED = "mergeRefused";
    static final String SETTLE_SINCE = "mergeabilitySince";
    static final String SETTLE_POLLS = "mergeabilityPolls";

    /** How often one regeneration writes the branch again because the target branch changed meanwhile. */
    static final int STABLE_REWRITES = 3;

    /** A uniformly distributed fraction in [0, 1) per call, from a thread-safe random source. */
    public static final DoubleSupplier RANDOM_JITTER = () -> ThreadLocalRandom.current().nextDouble();

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

        /**
         * This subject's change generated again on the current content of {@code onto} (each grant file as
         * {@code onto} holds it now, with the subject's grants applied) and its commit message, to rewrite the
         * merge request's branch with after a rebase conflict. Reads GitLab, writes nothing. Empty when the
         * change cannot be generated again (e.g. its target left the catalog): the conflict then stays.
         */
        Optional<Regenerated> regenerate(MergeRequestRef mr, String onto);

        /** The merge request's branch is about to be rewritten with the change generated again on {@code onto}. */
        void regenerating(MergeRequestRef mr, String onto);

        /** The rebase hit a conflict that generating the change again did not (or could not) resolve (deterministic). */
        StepOutcome rebaseConflict(MergeRequestRef mr, String detail);

        /** The rebased head's pipeline failed (deterministic). */
        StepOutcome pipelineFailed(MergeRequestRef mr);

        /** The rebased head's pipeline did not finish in time: record "pending" (the watch keeps looking slowly). */
        void pipelineTimedOut(MergeRequestRef mr);

        /** The pipeline stayed pending for longer than the watch looks: a person confirms the outcome. */
        StepOutcome pipelineGaveUp(MergeRequestRef mr);

        /**
         * Merging could not complete (merge retries used up, too many rebases, a rebase that did not finish,
         * GitLab checking mergeability for longer than its budget): nothing is known to be wrong with the change.
         */
        StepOutcome stuck(MergeRequestRef mr, String detail);
    }

    /** A change generated again: the commit message and the complete content of every file it touches. */
    public record Regenerated(String message, List<FileChange> files) {
        public Regenerated {
            Objects.requireNonNull(message, "message");
            files = List.copyOf(files);
            if (files.isEmpty()) {
                throw new IllegalArgumentException("a change touches at least one file");
            }
        }
    }

    private final MergeRequests mergeRequests;
    private final Settings settings;
    private final WorkflowPolicy policy;
    private final PipelineWatch rebaseWatch;
    private final PipelineWatch pipelineWatch;
    private final Clock clock;
    private final DoubleSupplier jitter;

    public ApproveAndMerge(MergeRequests mergeRequests, Settings settings, WorkflowPolicy policy, Clock clock) {
        this(mergeRequests, settings, policy, clock, RANDOM_JITTER);
    }

    /**
     * @param jitter the random part of merge retry delays: a fraction in [0, 1) per call ({@link #RANDOM_JITTER},
     *               or a seeded source in tests)
     */
    public ApproveAndMerge(MergeRequests mergeRequests, Settings settings, WorkflowPolicy policy, Clock clock,
                           DoubleSupplier jitter) {
        this.mergeRequests = mergeRequests;
        this.settings = settings;
        this.policy = policy;
        this.rebaseWatch = new PipelineWatch(policy.rebasePolling(), policy.pendingRecheck(), Duration.ZERO);
        this.pipelineWatch = new PipelineWatch(policy.pipelinePolling(), policy.pendingRecheck(), policy.pendingGiveUpAfter());
        this.clock = clock;
        this.jitter = Objects.requireNonNull(jitter, "jitter");
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
        return merge(mr, freshMerge(current.without(REAPPROVE)), subject);
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
        if (stillChecking(remote)) {
            return awaitMergeability(mr, step, subject);
        }
        var refused = step.value(REFUSED);
        if (refused.isPresent()) {
            // GitLab refused the last attempt and is not checking now: the refusal was not about checking.
            return retryMerge(mr, step, subject, refused.get());
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
            case SHA_MISMATCH_OR_LOCKED -> refused(step, "the head moved or the merge request was locked");
            case CANNOT_BE_MERGED_YET -> refused(step, "GitLab could not merge it yet");
        };
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
    private StepOutcome refused(Step step, String reason) {
        return StepOutcome.again(step.nextAttempt().with(PHASE, Phase.MERGE.name()).with(REFUSED, reason),
                policy.mergeabilityPolling().shortInterval());
    }

    /** Waits for GitLab to settle the merge request's mergeability, within its own time budget; no merge attempt is used. */
    private StepOutcome awaitMergeability(MergeRequestRef mr, Step step, Subject subject) {
        var now = clock.instant();
        var since = instant(step, SETTLE_SINCE).orElse(now);
        var polls = step.intValue(SETTLE_POLLS, 0) + 1;
        var polling = policy.mergeabilityPolling();
        return switch (polling.next(PollObservation.RUNNING, polls, Duration.between(since, now))) {
            case PollDecision.PollAgain again -> StepOutcome.again(step.nextAttempt().with(PHASE, Phase.MERGE.name())
                    .without(REFUSED).with(SETTLE_SINCE, since.toString()).with(SETTLE_POLLS, polls), again.delay());
            case PollDecision.Done done -> subject.stuck(mr, "GitLab was still checking whether merge request !" + mr.iid()
                    + " can be merged after " + polling.timeout().toSeconds() + " s");
        };
    }

    /** A merge retry: counted, after an exponential delay with jitter; the merge request is re-read first. */
    private StepOutcome retryMerge(MergeRequestRef mr, Step step, Subject subject, String reason) {
        var attempts = step.intValue(MERGE_ATTEMPTS, 0) + 1;
        if (attempts > policy.mergeRetries()) {
            return subject.stuck(mr, "Merging merge request !" + mr.iid() + " kept failing (" + reason + ")");
        }
        var delay = policy.mergeRetryBackoff().delayBefore(attempts, jitter.getAsDouble());
        LOG.log(Level.INFO, () -> "merge of !" + mr.iid() + " refused (" + reason + "); retry " + attempts + " in " + delay);
        return StepOutcome.again(step.nextAttempt().with(PHASE, Phase.MERGE.name()).with(MERGE_ATTEMPTS, attempts)
                .without(REFUSED), delay);
    }

    /** {@code step} about to merge a new head (or for the first time): no attempts made, no waiting on it yet. */
    private static Step freshMerge(Step step) {
        return step.with(PHASE, Phase.MERGE.name()).with(MERGE_ATTEMPTS, 0)
                .without(REFUSED).without(SETTLE_SINCE).without(SETTLE_POLLS);
    }

    private StepOutcome rebase(MergeRequestRef mr, Step step, Subject subject) {
        var rebases = step.intValue(REBASES, 0) + 1;
        // A regenerated head is a new change on a newer target: it may need a rebase of its own.
        if (rebases > policy.maxRebases() + step.intValue(REGENERATIONS, 0)) {
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
            return regenerate(mr, step, subject);
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

    /**
     * The rebase conflicted: generate the change again on the target branch as it is now and rewrite the
     * merge request's branch with it (one commit on top of the target), then await its pipeline. Bounded
     * per step; a change that cannot be generated again, or a conflict after the last regeneration, is the
     * deterministic rebase conflict.
     */
    private StepOutcome regenerate(MergeRequestRef mr, Step step, Subject subject) {
        var conflict = "Rebasing merge request !" + mr.iid() + " hit a conflict";
        var regenerations = step.intValue(REGENERATIONS, 0) + 1;
        if (regenerations > policy.maxRegenerations()) {
            return subject.rebaseConflict(mr, conflict + (policy.maxRegenerations() == 0 ? "" : " again after its change was "
                    + "generated on the current target branch " + policy.maxRegenerations() + " time(s)")
                    + ": someone has to resolve it.");
        }
        var onto = mergeRequests.defaultBranch(mr.project());
        var change = subject.regenerate(mr, onto);
        if (change.isEmpty()) {
            return subject.rebaseConflict(mr, conflict + " and its change cannot be generated again: someone has to resolve it.");
        }
        subject.regenerating(mr, onto);
        if (!rewriteUntilStable(mr, onto, change.get(), subject)) {
            return subject.stuck(mr, "The change of merge request !" + mr.iid() + " was generated again on " + onto
                    + ", but " + onto + " kept changing while it was written (" + STABLE_REWRITES + " tries)");
        }
        LOG.log(Level.INFO, () -> subject.describe() + ": rebasing !" + mr.iid() + " conflicted; its change was generated again on "
                + onto + " (" + regenerations + " of at most " + policy.maxRegenerations() + ")");
        return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.PIPELINE.name())
                .with(REGENERATIONS, regenerations).with(REAPPROVE, "true"), pipelineWatch.firstDelay());
    }

    /**
     * Writes {@code change} as the branch's one commit on top of {@code onto}, then generates it again: the
     * change was generated from {@code onto}'s content read before the write, while the commit starts from
     * {@code onto}'s head at the write; a merge landing in between would be undone by the commit (its line
     * missing from the file we wrote). Generated again after the write, the same content proves nothing
     * landed in between (the write lies between the two reads); other content is written again, at most
     * {@link #STABLE_REWRITES} times.
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
            case PipelineWatch.Verdict.Passed passed -> step.value(REAPPROVE).isPresent()
                    // The rewrite was a push: GitLab may have removed the approvals. Each bot's is read first.
                    ? approve(mr, withoutApprovalProgress(step).with(PHASE, Phase.APPROVE.name()).with(BOT, 0), subject)
                    : merge(mr, freshMerge(step), subject);
            case PipelineWatch.Verdict.Failed failed -> subject.pipelineFailed(mr);
            case PipelineWatch.Verdict.TimedOut timedOut -> {
                subject.pipelineTimedOut(mr);
                yield StepOutcome.again(timedOut.step().nextAttempt(), timedOut.delay());
            }
            case PipelineWatch.Verdict.GaveUp gaveUp -> subject.pipelineGaveUp(mr);
        };
    }

    /** {@code step} without the per-bot approval failure counts, for approving a new head afresh. */
    private Step withoutApprovalProgress(Step step) {
        var fresh = step;
        for (var bot : mergeRequests.approvalAccounts()) {
            fresh = fresh.without(FAILURES + bot);
        }
        return fresh;
    }

    private static Optional<Instant> instant(Step step, String key) {
        try {
            return step.value(key).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
