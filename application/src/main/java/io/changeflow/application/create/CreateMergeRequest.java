package io.changeflow.application.create;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.GrantEnds;
import io.changeflow.application.workflow.GrantFiles;
import io.changeflow.application.workflow.HeadPipeline;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.RequestStepBody;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.EnumSet;
import io.changeflow.domain.batch.Settlement;
import java.util.Optional;
import java.util.Set;

/**
 * The create step ({@link StepKind#CREATE}): branch, commit and merge request for one operation, then
 * waiting for its pipeline by rescheduling itself. Idempotent when re-triggered: it decides from the
 * database and from GitLab where to continue. Pipeline outcomes per {@link HeadPipeline}; design:
 * docs/workflow.md.
 */
public final class CreateMergeRequest extends RequestStepBody {

    static final String PHASE = "phase";
    static final String PIPELINE = "PIPELINE";

    private static final Set<StepStatus> WAITING_FOR_PIPELINE =
            EnumSet.of(StepStatus.CREATE_MR_OPENED, StepStatus.CREATE_PIPELINE_PENDING);

    private static final System.Logger LOG = System.getLogger(CreateMergeRequest.class.getName());

    private final Targets targets;
    private final MergeRequests mergeRequests;
    private final StateChanges changes;
    private final PipelineWatch watch;
    private final Clock clock;

    public CreateMergeRequest(Operations operations, Targets targets, MergeRequests mergeRequests, StateChanges changes,
                              PipelineWatch watch, Clock clock) {
        super(operations, LOG, "create step");
        this.targets = targets;
        this.mergeRequests = mergeRequests;
        this.changes = changes;
        this.watch = watch;
        this.clock = clock;
    }

    @Override
    protected StepOutcome run(Operation op, Step step) {
        var binding = op.binding().orElse(null);
        if (binding == BindingStatus.MR_CREATED
                || (binding == BindingStatus.APPROVAL_SENDING && op.order() == StepOrder.CREATE_FIRST && op.mergeRequest().isPresent())) {
            return handOn(op, step);
        }
        if (binding != BindingStatus.MR_CREATING && binding != BindingStatus.CREATE_FAILED) {
            return nothingToDo(op);
        }
        var waiting = binding == BindingStatus.MR_CREATING && op.mergeRequest().isPresent()
                && (step.value(PHASE).filter(PIPELINE::equals).isPresent() || WAITING_FOR_PIPELINE.contains(op.step()));
        return waiting ? awaitPipeline(op, op.mergeRequest().get(), step) : open(op, step);
    }

    private StepOutcome open(Operation current, Step step) {
        var started = current.step() == StepStatus.CREATE_STARTED && current.binding().equals(Optional.of(BindingStatus.MR_CREATING))
                ? current
                : changes.apply(current, WorkflowEvent.CREATE_STARTED, "Creating the merge request.");
        var remote = ensureMergeRequest(started, targets.require(started.target()));
        var now = operations.find(started.id()).orElse(started);
        if (!now.binding().equals(Optional.of(BindingStatus.MR_CREATING))) {
            return closedMeanwhile(now, remote);
        }
        if (remote.state() == MergeRequestState.CLOSED) {
            changes.apply(started, WorkflowEvent.MR_CLOSED_REMOTELY, "The merge request !" + remote.iid() + " was closed on GitLab.");
            return StepOutcome.done();
        }
        if (!operations.recordMergeRequest(started.id(), remote.ref())) {
            LOG.log(Level.WARNING, () -> started.id() + " already records another merge request; keeping it");
        }
        try {
            changes.apply(operations.find(started.id()).orElseThrow(), WorkflowEvent.MR_OPENED,
                    "Merge request !" + remote.iid() + " is open; waiting for its pipeline.");
        } catch (PreemptedException | IllegalTransitionException movedOn) {
            // Issue 37: ended after the read above (superseded by its subject, closed, rejected) while the merge request
            // was being recorded: whoever ended it may not have seen the merge request, so this step closes it.
            var ended = operations.find(started.id()).orElse(now);
            if (ended.binding().equals(Optional.of(BindingStatus.MR_CREATING))) {
                throw movedOn;
            }
            return closedMeanwhile(ended, remote);
        }
        return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(PHASE, PIPELINE),
                watch.firstDelay());
    }

    private RemoteMergeRequest ensureMergeRequest(Operation read, Target target) {
        // issue 32 item 3: approved (a request of a duration always approves first), so its end is fixed now, once
        var op = GrantEnds.fixedBeforeWriting(operations, read, clock.instant());
        var project = target.project();
        var branch = MergeRequestTexts.branchOf(op.id());
        var recorded = recordedMergeRequest(op);
        if (recorded.isPresent() && recorded.get().state() != MergeRequestState.CLOSED) {
            LOG.log(Level.INFO, () -> "reusing merge request !" + recorded.get().iid() + " of " + op.id());
            return recorded.get();
        }
        var existing = recorded.isPresent() ? Optional.<RemoteMergeRequest>empty() : mergeRequests.findBySourceBranch(project, branch);
        if (existing.isPresent()) {
            LOG.log(Level.INFO, () -> "reusing merge request !" + existing.get().iid() + " of " + op.id());
            return existing.get();
        }
        var base = mergeRequests.defaultBranch(project);
        mergeRequests.createBranch(project, branch, base);
        var grant = Grant.of(op.request());
        // one read of the grant file on the branch: the commit decides create or update from it (issue 33 item 3)
        var file = new MergeRequests.FileRead(target.filePath(), mergeRequests.readFile(project, branch, target.filePath()));
        var onBranch = GrantFiles.parse(target, file);
        if (!onBranch.grantOf(op.subject()).equals(Optional.of(grant))) {
            // Generated on the branch's own content (what the commit is based on), never on a fresh read of the
            // target branch: a merge landing in between would otherwise be undone by this commit.
            var content = onBranch.with(grant).render();
            mergeRequests.commit(project, branch, MergeRequestTexts.commitMessageOf(op),
                    new MergeRequests.FileChange(target.filePath(), content), file);
        }
        if (recorded.isPresent()) {
            // One merge request per request: the one recorded was closed on GitLab without merging; it is reopened
            // (with the branch made whole again above), never a second one opened next to it.
            var closed = recorded.get();
            LOG.log(Level.INFO, () -> "reopening merge request !" + closed.iid() + " of " + op.id() + ", closed on GitLab");
            mergeRequests.reopen(project, closed.iid());
            return mergeRequests.get(project, closed.iid());
        }
        return mergeRequests.open(project, branch, base, MergeRequestTexts.titleOf(op), MergeRequestTexts.descriptionOf(op));
    }

    /**
     * Issue 36, one merge request per request: the request was closed (or otherwise ended) while its merge request was
     * being opened, so nobody owns the one just opened: it is recorded on the request and closed on GitLab (a merge
     * request already merged is left to the reconciliation of merged requests).
     */
    private StepOutcome closedMeanwhile(Operation now, RemoteMergeRequest remote) {
        // recorded all the same (unless the request records one already): a person may reopen it on GitLab later, and
        // what closes a reopened merge request of an ended request reads the ones requests record (finding S11)
        operations.recordMergeRequest(now.id(), remote.ref());
        if (Settlement.needsClose(remote.state())) {
            LOG.log(Level.INFO, () -> now.id() + " ended (" + now.state() + ") while its merge request !" + remote.iid()
                    + " was opened; closing it");
            mergeRequests.close(remote.project(), remote.iid());
        }
        return StepOutcome.done();
    }

    /** The merge request the operation records, as GitLab reports it now; empty when none is recorded or it is gone. */
    private Optional<RemoteMergeRequest> recordedMergeRequest(Operation op) {
        return op.mergeRequest()
                .map(mr -> mergeRequests.get(mr.project(), mr.iid()))
                .filter(remote -> remote.state() != MergeRequestState.ABSENT);
    }

    private StepOutcome awaitPipeline(Operation op, MergeRequestRef mr, Step step) {
        var remote = mergeRequests.getWithHeadPipeline(mr.project(), mr.iid());
        if (remote.state() == MergeRequestState.CLOSED) {
            changes.apply(op, WorkflowEvent.MR_CLOSED_REMOTELY, "The merge request !" + mr.iid() + " was closed on GitLab.");
            return StepOutcome.done();
        }
        // Only the head's own pipeline counts (GitLab's head_pipeline, merged-results pipelines included), as the target's
        // pipeline policy reads it, and only once the merge request reports its branch's real head: a read that lags
        // behind a push is still waiting. A target without CI awaits no pipeline (only that head).
        var policy = targets.pipelineOf(op.target());
        var look = remote.state() == MergeRequestState.MERGED
                ? new HeadPipeline.Look.Counts(Optional.empty())
                : HeadPipeline.look(mergeRequests, mr, remote, policy);
        if (look instanceof HeadPipeline.Look.NotRun notRun) {
            changes.apply(op, WorkflowEvent.MR_PIPELINE_FAILED, HeadPipeline.notRun(mr, notRun.pipeline(), policy));
            return StepOutcome.done();
        }
        // a request recorded pending (its last write) is pending since then, however its watch was resumed (issue 30, S7)
        var watched = op.step() == StepStatus.CREATE_PIPELINE_PENDING ? PipelineWatch.resumedPending(step, op.updatedAt()) : step;
        return switch (watch.observe(watched, HeadPipeline.observation(look), clock.instant(), op.updatedAt())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt().with(PHASE, PIPELINE), again.delay());
            case PipelineWatch.Verdict.Passed passed -> handOn(changes.apply(op, WorkflowEvent.MR_PIPELINE_PASSED,
                    passedNote(look, policy)), step);
            case PipelineWatch.Verdict.Failed failed -> {
                changes.apply(op, WorkflowEvent.MR_PIPELINE_FAILED,
                        "The merge request pipeline failed: the change does not pass its checks.");
                yield StepOutcome.done();
            }
            case PipelineWatch.Verdict.TimedOut timedOut -> {
                if (op.step() != StepStatus.CREATE_PIPELINE_PENDING) {
                    changes.apply(op, WorkflowEvent.MR_PIPELINE_TIMED_OUT,
                            "The merge request pipeline did not finish in time; its outcome is unknown.");
                }
                yield StepOutcome.again(timedOut.step().nextAttempt().with(PHASE, PIPELINE), timedOut.delay());
            }
            case PipelineWatch.Verdict.GaveUp gaveUp -> pipelineGaveUp(op, mr, remote, policy, gaveUp);
        };
    }

    /**
     * The pipeline stayed pending past the pending deadline: the watch ends in an explicit state (hint
     * CONTACT_MAINTAINERS) whose note says what a person checks.
     */
    private StepOutcome pipelineGaveUp(Operation op, MergeRequestRef mr, RemoteMergeRequest remote, PipelinePolicy policy,
                                       PipelineWatch.Verdict.GaveUp gaveUp) {
        var noOwnPipeline = HeadPipeline.noOwnPipeline(mr, remote, policy, gaveUp.deadlineText());
        if (noOwnPipeline.isPresent()) {
            // Issue 35: GitLab created no pipeline for this head (rules:changes, [skip ci]); saying "still pending" would
            // send a person looking for a pipeline that does not exist.
            LOG.log(Level.WARNING, () -> op.id() + " no pipeline ran for head " + remote.sha() + " by the pending deadline; a person looks");
            changes.apply(op, WorkflowEvent.MR_PIPELINE_UNFINISHED, noOwnPipeline.get());
            return StepOutcome.done();
        }
        LOG.log(Level.WARNING, () -> op.id() + " pipeline still pending after " + gaveUp.deadlineText() + "; a person looks");
        changes.apply(op, WorkflowEvent.MR_PIPELINE_UNFINISHED, "The pipeline of merge request !" + mr.iid()
                + " was still pending " + gaveUp.deadlineText() + " after it timed out, and nobody looks at it any more. "
                + "Check the pipeline on GitLab (a stuck runner, a job waiting to be started by hand), then re-trigger "
                + "the request (it looks at the pipeline again) or close it.");
        return StepOutcome.done();
    }

    private static String passedNote(HeadPipeline.Look look, PipelinePolicy policy) {
        if (look instanceof HeadPipeline.Look.Counts counts
                && (counts.pipeline().isEmpty() ? !policy.awaitsPipeline()
                : counts.pipeline().get().status() != MergeRequests.PipelineStatus.PASSED)) {
            var why = HeadPipeline.counted(counts, policy);
            return "Nothing to wait for: " + why + ".";
        }
        return "The merge request pipeline passed.";
    }

    /** After the pipeline passed: the next step of the order stored with the operation. */
    private StepOutcome handOn(Operation op, Step step) {
        if (op.order() == StepOrder.APPROVE_FIRST) {
            return StepOutcome.next(Step.first(StepKind.HANDLE, step.ref()));
        }
        if (op.binding().equals(Optional.of(BindingStatus.MR_CREATED))) {
            changes.apply(op, WorkflowEvent.APPROVAL_REQUESTED,
                    "Requesting approval for merge request !" + op.mergeRequest().map(MergeRequestRef::iid).orElse(0L) + ".");
        }
        return StepOutcome.next(Step.first(StepKind.SUBMIT_APPROVAL, step.ref()));
    }
}
