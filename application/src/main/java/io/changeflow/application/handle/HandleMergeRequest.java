package io.changeflow.application.handle;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepHandler;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The handle step ({@link StepKind#HANDLE}): approve the merge request with each approval bot, merge
 * it with the head sha read, rebase and retry when it cannot be merged. Every wait (approval backoff,
 * rebase, pipeline, merge retry) is a rescheduling with the progress in the step's data, so no thread
 * waits and any instance can continue it.
 *
 * <p>Only approved requests are handled: MR_CREATED in the create-first order (pipeline passed, approval
 * not asked yet) is refused whatever scheduled the step.
 *
 * <p>Remote state first (design 3.4), on every run: an already merged merge request finishes as
 * MERGED without approving (so a re-trigger never turns into "approval failed"), a closed one ends as
 * MR_CLOSED_REMOTELY.
 *
 * <p>Bot approvals, each bot on its own (two approvals are not one atomic action; retrying them as a
 * pair would re-approve the first): the bot's approval is read before every attempt, so a previous
 * attempt that reached GitLab but lost its answer is seen instead of provoking another 401; a failed
 * read counts as "not approved yet" (fail-open, the check never becomes a new failure); failures are
 * retried {@code approval.maxRetries} times (read per use) with exponential backoff by rescheduling,
 * with a per-bot counter in the step data; after the last failure the approvals are read once more,
 * because a 401 means both "already approved" and "may not approve". A 401 is also re-read at once.
 *
 * <p>Merge outcomes: not mergeable starts a rebase and polls it (a conflict is deterministic:
 * REBASE_CONFLICT); after a rebase the pipeline runs again and is polled (failed: HANDLE_PIPELINE_FAILED,
 * deterministic; timed out: HANDLE_PIPELINE_TIMED_OUT, the request stays MERGING with the step
 * "pipeline pending" and is still looked at for a while); "sha moved or locked" and "cannot be merged
 * yet" re-read and retry a bounded number of times (then HANDLE_ERROR, safe to re-trigger).
 */
public final class HandleMergeRequest implements StepHandler {

    static final String PHASE = "phase";
    static final String BOT = "bot";
    static final String FAILURES = "failures.";
    static final String MERGE_ATTEMPTS = "mergeAttempts";
    static final String REBASES = "rebases";

    /** Where a handle step continues. */
    enum Phase { START, APPROVE, MERGE, REBASE, PIPELINE }

    private static final Set<BindingStatus> STARTABLE =
            EnumSet.of(BindingStatus.MR_CREATED, BindingStatus.MERGING, BindingStatus.HANDLE_FAILED);
    private static final Set<StepStatus> BATCH_FAILURES = EnumSet.of(StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED);
    /** GitLab's detailed merge statuses while it is still computing mergeability. */
    private static final Set<String> COMPUTING = Set.of("checking", "unchecked", "preparing", "approvals_syncing");

    private static final System.Logger LOG = System.getLogger(HandleMergeRequest.class.getName());

    private final Operations operations;
    private final Targets targets;
    private final MergeRequests mergeRequests;
    private final StateChanges changes;
    private final Settings settings;
    private final WorkflowPolicy policy;
    private final PipelineWatch rebaseWatch;
    private final PipelineWatch pipelineWatch;
    private final Clock clock;

    public HandleMergeRequest(Operations operations, Targets targets, MergeRequests mergeRequests, StateChanges changes,
                              Settings settings, WorkflowPolicy policy, Clock clock) {
        this.operations = operations;
        this.targets = targets;
        this.mergeRequests = mergeRequests;
        this.changes = changes;
        this.settings = settings;
        this.policy = policy;
        this.rebaseWatch = new PipelineWatch(policy.rebasePolling(), policy.pendingRecheck(), Duration.ZERO);
        this.pipelineWatch = new PipelineWatch(policy.pipelinePolling(), policy.pendingRecheck(), policy.pendingGiveUpAfter());
        this.clock = clock;
    }

    @Override
    public StepOutcome run(Step step) {
        var found = OperationId.parse(step.ref()).flatMap(operations::find);
        if (found.isEmpty()) {
            LOG.log(Level.WARNING, () -> "no operation " + step.ref() + " for the handle step");
            return StepOutcome.done();
        }
        var op = found.get();
        var phase = phaseOf(step);
        if (phase == Phase.START) {
            return start(op, step);
        }
        if (!op.binding().equals(Optional.of(BindingStatus.MERGING))) {
            LOG.log(Level.INFO, () -> "handle step for " + op.id() + " stops: the request is now " + op.state());
            return StepOutcome.done();
        }
        var mr = op.mergeRequest().orElseThrow(() -> new IllegalStateException(op.id() + " has no merge request recorded"));
        return switch (phase) {
            case APPROVE -> approve(op, mr, step);
            case MERGE -> merge(op, mr, step);
            case REBASE -> awaitRebase(op, mr, step);
            case PIPELINE -> awaitPipeline(op, mr, step);
            case START -> start(op, step);
        };
    }

    private StepOutcome start(Operation op, Step step) {
        var binding = op.binding().orElse(null);
        if (binding == null || !STARTABLE.contains(binding)
                || (binding == BindingStatus.HANDLE_FAILED && BATCH_FAILURES.contains(op.step()))) {
            LOG.log(Level.INFO, () -> "handle step for " + op.id() + " has nothing to do at " + op.state());
            return StepOutcome.done();
        }
        if (binding == BindingStatus.MR_CREATED && op.order() == StepOrder.CREATE_FIRST) {
            // In the create-first order MR_CREATED means "pipeline passed, approval not asked yet": never merge it.
            LOG.log(Level.WARNING, () -> "handle step for " + op.id() + " refused: the request is not approved yet");
            return StepOutcome.done();
        }
        var mr = mergeRequestOf(op);
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(op, remote);
        if (finished.isPresent()) {
            return finished.get();
        }
        if (remote.state() == MergeRequestState.ABSENT) {
            throw new IllegalStateException("merge request !" + mr.iid() + " of " + op.id() + " does not exist");
        }
        var started = op.step() == StepStatus.HANDLE_STARTED && binding == BindingStatus.MERGING
                ? op
                : changes.apply(op, WorkflowEvent.HANDLE_STARTED, "Approving and merging merge request !" + mr.iid() + ".");
        return approve(started, mr, step.with(PHASE, Phase.APPROVE.name()).with(BOT, 0));
    }

    /** Merged or closed on GitLab: the matching final write, whatever this step was about to do. */
    private Optional<StepOutcome> finishedRemotely(Operation op, RemoteMergeRequest remote) {
        if (remote.state() == MergeRequestState.MERGED) {
            changes.applyIfAllowed(op.id(), WorkflowEvent.MERGED, "Merge request !" + remote.iid() + " is merged.");
            return Optional.of(StepOutcome.done());
        }
        if (remote.state() == MergeRequestState.CLOSED) {
            changes.applyIfAllowed(op.id(), WorkflowEvent.MR_CLOSED_REMOTELY,
                    "Merge request !" + remote.iid() + " was closed on GitLab; nothing was merged.");
            return Optional.of(StepOutcome.done());
        }
        return Optional.empty();
    }

    private StepOutcome approve(Operation op, MergeRequestRef mr, Step step) {
        var bots = policy.approvalBots();
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
                changes.apply(op, WorkflowEvent.BOTS_APPROVAL_FAILED, "The approval bot " + bot
                        + " could not approve merge request !" + mr.iid() + " after " + failures + " attempts.");
                return StepOutcome.done();
            }
        }
        var approved = op.step() == StepStatus.HANDLE_APPROVED
                ? op
                : changes.apply(op, WorkflowEvent.BOTS_APPROVED, "Merge request !" + mr.iid() + " is approved.");
        return merge(approved, mr, current.with(PHASE, Phase.MERGE.name()));
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

    private StepOutcome merge(Operation op, MergeRequestRef mr, Step step) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(op, remote);
        if (finished.isPresent()) {
            return finished.get();
        }
        if (remote.state() == MergeRequestState.ABSENT) {
            throw new IllegalStateException("merge request !" + mr.iid() + " of " + op.id() + " disappeared");
        }
        if (remote.rebaseInProgress()) {
            return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.REBASE.name()),
                    rebaseWatch.firstDelay());
        }
        if (remote.state() == MergeRequestState.LOCKED
                || COMPUTING.contains(remote.detailedMergeStatus().toLowerCase(Locale.ROOT))) {
            return retryMerge(op, mr, step, "GitLab is still preparing the merge request");
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
            return retryMerge(op, mr, step, "the merge got no clear answer");
        }
        return switch (result) {
            case MERGED -> {
                changes.applyIfAllowed(op.id(), WorkflowEvent.MERGED, "Merge request !" + mr.iid() + " is merged.");
                yield StepOutcome.done();
            }
            case NOT_MERGEABLE -> rebase(op, mr, step);
            case SHA_MISMATCH_OR_LOCKED -> retryMerge(op, mr, step, "the head moved or the merge request was locked");
            case CANNOT_BE_MERGED_YET -> retryMerge(op, mr, step, "GitLab could not merge it yet");
        };
    }

    private StepOutcome retryMerge(Operation op, MergeRequestRef mr, Step step, String reason) {
        var attempts = step.intValue(MERGE_ATTEMPTS, 0) + 1;
        if (attempts > policy.mergeRetries()) {
            changes.apply(op, WorkflowEvent.HANDLE_ERROR, "Merging merge request !" + mr.iid() + " kept failing (" + reason
                    + "); an operator can re-trigger it.");
            return StepOutcome.done();
        }
        return StepOutcome.again(step.nextAttempt().with(PHASE, Phase.MERGE.name()).with(MERGE_ATTEMPTS, attempts),
                policy.mergeRetryDelay());
    }

    private StepOutcome rebase(Operation op, MergeRequestRef mr, Step step) {
        var rebases = step.intValue(REBASES, 0) + 1;
        if (rebases > policy.maxRebases()) {
            changes.apply(op, WorkflowEvent.HANDLE_ERROR, "Merge request !" + mr.iid() + " needed more than "
                    + policy.maxRebases() + " rebases; an operator can re-trigger it.");
            return StepOutcome.done();
        }
        changes.apply(op, WorkflowEvent.REBASE_STARTED, "Rebasing merge request !" + mr.iid() + " onto its target branch.");
        mergeRequests.rebase(mr.project(), mr.iid());
        return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.REBASE.name())
                .with(REBASES, rebases), rebaseWatch.firstDelay());
    }

    private StepOutcome awaitRebase(Operation op, MergeRequestRef mr, Step step) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(op, remote);
        if (finished.isPresent()) {
            return finished.get();
        }
        if (!remote.rebaseInProgress() && remote.mergeError().isPresent()) {
            changes.apply(op, WorkflowEvent.REBASE_CONFLICT, "Rebasing merge request !" + mr.iid()
                    + " hit a conflict: someone has to resolve it.");
            return StepOutcome.done();
        }
        var observation = remote.rebaseInProgress() ? PollObservation.RUNNING : PollObservation.PASSED;
        return switch (rebaseWatch.observe(step, observation, clock.instant(), op.updatedAt())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed ->
                    StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, Phase.PIPELINE.name()),
                            pipelineWatch.firstDelay());
            case PipelineWatch.Verdict.Failed failed -> {
                changes.apply(op, WorkflowEvent.REBASE_CONFLICT, "Rebasing merge request !" + mr.iid() + " failed.");
                yield StepOutcome.done();
            }
            case PipelineWatch.Verdict.TimedOut timedOut -> timedOutRebase(op, mr);
            case PipelineWatch.Verdict.GaveUp gaveUp -> timedOutRebase(op, mr);
        };
    }

    private StepOutcome timedOutRebase(Operation op, MergeRequestRef mr) {
        changes.apply(op, WorkflowEvent.HANDLE_ERROR, "Rebasing merge request !" + mr.iid()
                + " did not finish in time; an operator can re-trigger it.");
        return StepOutcome.done();
    }

    private StepOutcome awaitPipeline(Operation op, MergeRequestRef mr, Step step) {
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = finishedRemotely(op, remote);
        if (finished.isPresent()) {
            return finished.get();
        }
        var observation = PipelineWatch.observation(mergeRequests.latestPipeline(mr.project(), mr.iid()));
        return switch (pipelineWatch.observe(step, observation, clock.instant(), op.updatedAt())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed -> merge(op, mr, step.with(PHASE, Phase.MERGE.name()).with(MERGE_ATTEMPTS, 0));
            case PipelineWatch.Verdict.Failed failed -> {
                changes.apply(op, WorkflowEvent.HANDLE_PIPELINE_FAILED, "The pipeline of merge request !" + mr.iid()
                        + " failed after the rebase: the change no longer passes its checks.");
                yield StepOutcome.done();
            }
            case PipelineWatch.Verdict.TimedOut timedOut -> {
                if (op.step() != StepStatus.HANDLE_PIPELINE_PENDING) {
                    changes.apply(op, WorkflowEvent.HANDLE_PIPELINE_TIMED_OUT, "The pipeline of merge request !" + mr.iid()
                            + " did not finish in time; its outcome is unknown.");
                }
                yield StepOutcome.again(timedOut.step().nextAttempt(), timedOut.delay());
            }
            case PipelineWatch.Verdict.GaveUp gaveUp -> {
                LOG.log(Level.WARNING, () -> op.id() + " pipeline still pending; an operator confirms the outcome");
                yield StepOutcome.done();
            }
        };
    }

    /** The operation's merge request: recorded, or found on GitLab by its branch (and then recorded). */
    private MergeRequestRef mergeRequestOf(Operation op) {
        if (op.mergeRequest().isPresent()) {
            return op.mergeRequest().get();
        }
        var target = targets.find(op.target())
                .orElseThrow(() -> new IllegalStateException("target " + op.target() + " is no longer in the catalog"));
        var remote = mergeRequests.findBySourceBranch(target.project(), MergeRequestTexts.branchOf(op.id()))
                .orElseThrow(() -> new IllegalStateException(op.id() + " has no merge request to handle"));
        var ref = new MergeRequestRef(remote.project(), remote.iid(), remote.sourceBranch(), remote.webUrl());
        operations.recordMergeRequest(op.id(), ref);
        return ref;
    }

    private static Phase phaseOf(Step step) {
        try {
            return step.value(PHASE).map(Phase::valueOf).orElse(Phase.START);
        } catch (IllegalArgumentException e) {
            return Phase.START;
        }
    }
}
