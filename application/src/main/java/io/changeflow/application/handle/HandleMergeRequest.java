package io.changeflow.application.handle;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.workflow.ApproveAndMerge;
import io.changeflow.application.workflow.GrantEnds;
import io.changeflow.application.workflow.GrantFiles;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.application.workflow.MergedCommit;
import io.changeflow.application.workflow.RequestStepBody;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * The handle step ({@link StepKind#HANDLE}): approve the merge request with each approval bot, merge it
 * with the head sha read, rebase and retry when it cannot be merged. The GitLab choreography is
 * {@link ApproveAndMerge}, shared with the batch step; this class maps what happens to the request's
 * states. Remote state first, every wait a rescheduling; design: docs/workflow.md.
 */
public final class HandleMergeRequest extends RequestStepBody {

    private static final Set<BindingStatus> STARTABLE =
            EnumSet.of(BindingStatus.MR_CREATED, BindingStatus.MERGING, BindingStatus.HANDLE_FAILED);
    private static final Set<StepStatus> BATCH_FAILURES = EnumSet.of(StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED);

    private static final System.Logger LOG = System.getLogger(HandleMergeRequest.class.getName());

    private final Targets targets;
    private final MergeRequests mergeRequests;
    private final StateChanges changes;
    private final ApproveAndMerge choreography;
    private final Clock clock;

    public HandleMergeRequest(Operations operations, Targets targets, MergeRequests mergeRequests, StateChanges changes,
                              Settings settings, WorkflowPolicy policy, Clock clock) {
        this(operations, targets, mergeRequests, changes, settings, policy, clock, ApproveAndMerge.RANDOM_JITTER);
    }

    /** @param jitter the random part of merge retry delays (see {@link ApproveAndMerge}); seeded in tests */
    public HandleMergeRequest(Operations operations, Targets targets, MergeRequests mergeRequests, StateChanges changes,
                              Settings settings, WorkflowPolicy policy, Clock clock, DoubleSupplier jitter) {
        super(operations, LOG, "handle step");
        this.targets = targets;
        this.mergeRequests = mergeRequests;
        this.changes = changes;
        this.choreography = new ApproveAndMerge(mergeRequests, settings, policy, clock, jitter);
        this.clock = clock;
    }

    @Override
    protected StepOutcome run(Operation op, Step step) {
        var phase = ApproveAndMerge.phaseOf(step);
        if (phase.isEmpty()) {
            return start(op, step);
        }
        if (!op.binding().equals(Optional.of(BindingStatus.MERGING))) {
            LOG.log(Level.INFO, () -> "handle step for " + op.id() + " stops: the request is now " + op.state());
            return StepOutcome.done();
        }
        var mr = op.mergeRequest().orElseThrow(() -> new IllegalStateException(op.id() + " has no merge request recorded"));
        return choreography.resume(phase.get(), mr, step, new Request(op));
    }

    private StepOutcome start(Operation op, Step step) {
        var binding = op.binding().orElse(null);
        if (binding == null || !STARTABLE.contains(binding)
                || (binding == BindingStatus.HANDLE_FAILED && BATCH_FAILURES.contains(op.step()))) {
            return nothingToDo(op);
        }
        if (binding == BindingStatus.MR_CREATED && op.order() == StepOrder.CREATE_FIRST) {
            // In the create-first order MR_CREATED means "pipeline passed, approval not asked yet": never merge it.
            LOG.log(Level.WARNING, () -> "handle step for " + op.id() + " refused: the request is not approved yet");
            return StepOutcome.done();
        }
        var mr = mergeRequestOf(op);
        // with its head pipeline: the merge after the approvals goes on from this read (issue 33 item 3)
        var remote = mergeRequests.getWithHeadPipeline(mr.project(), mr.iid());
        var request = new Request(op);
        var finished = ApproveAndMerge.finishedRemotely(remote, mr, request, "does not exist");
        if (finished.isPresent()) {
            return finished.get();
        }
        if (binding == BindingStatus.HANDLE_FAILED && op.step() == StepStatus.HANDLE_PIPELINE_FAILED) {
            // A re-trigger after the head's pipeline failed: look at that pipeline again first; merged only if it
            // passed by now (e.g. run again on GitLab), never the failed head.
            request.apply(WorkflowEvent.HANDLE_STARTED, "Looking at the pipeline of merge request !" + mr.iid()
                    + "'s head again; it is merged only if that pipeline passed.");
            return choreography.recheckPipeline(mr, step, request);
        }
        // issue 33 item 3: the bots approve only after this write, so before it (the request just approved, or created in
        // the approve-first order) none of them was asked yet and the approvals need no read before approving
        var neverAsked = binding == BindingStatus.MR_CREATED
                || (binding == BindingStatus.MERGING && op.step() == StepStatus.APPROVAL_GRANTED);
        if (!(op.step() == StepStatus.HANDLE_STARTED && binding == BindingStatus.MERGING)) {
            request.apply(WorkflowEvent.HANDLE_STARTED, "Approving and merging merge request !" + mr.iid() + ".");
        }
        return choreography.approveAndMerge(mr, step, request, remote, neverAsked);
    }

    /** The operation's merge request: recorded, or found on GitLab by its branch (and then recorded). */
    private MergeRequestRef mergeRequestOf(Operation op) {
        if (op.mergeRequest().isPresent()) {
            return op.mergeRequest().get();
        }
        var target = targets.require(op.target());
        var remote = mergeRequests.findBySourceBranch(target.project(), MergeRequestTexts.branchOf(op.id()))
                .orElseThrow(() -> new IllegalStateException(op.id() + " has no merge request to handle"));
        operations.recordMergeRequest(op.id(), remote.ref());
        return remote.ref();
    }

    /** One request as the choreography's subject: each happening becomes the request's state write. */
    private final class Request implements ApproveAndMerge.Subject {

        private Operation current;

        Request(Operation op) {
            this.current = op;
        }

        /** A guarded write on the request as last written by this run. */
        void apply(WorkflowEvent event, String detail) {
            current = changes.apply(current, event, detail);
        }

        /** {@link #apply}, the write that ends this run. */
        StepOutcome end(WorkflowEvent event, String detail) {
            apply(event, detail);
            return StepOutcome.done();
        }

        @Override
        public String describe() {
            return current.id().value();
        }

        @Override
        public Instant lastWrite() {
            return current.updatedAt();
        }

        @Override
        public void approved(MergeRequestRef mr) {
            if (current.step() != StepStatus.HANDLE_APPROVED) {
                apply(WorkflowEvent.BOTS_APPROVED, "Merge request !" + mr.iid() + " is approved.");
            }
        }

        @Override
        public void rebaseStarting(MergeRequestRef mr) {
            apply(WorkflowEvent.REBASE_STARTED, "Rebasing merge request !" + mr.iid() + " onto its target branch.");
        }

        /**
         * Merged on GitLab: MERGED only when the merged commit's grant file holds the request's line
         * ({@link MergedCommit}); otherwise the request stops at HANDLE_MERGE_BLOCKED saying what the commit holds.
         */
        @Override
        public StepOutcome merged(MergeRequestRef mr, Optional<String> mergedCommit) {
            var verdict = MergedCommit.check(mergeRequests, mr, mergedCommit, targets.find(current.target()),
                    current.removedLine().orElseGet(() -> Grant.of(current.request())), current.kind().removes());
            var contradiction = verdict.contradiction();
            if (contradiction.isPresent()) {
                LOG.log(Level.WARNING, () -> current.id() + ": merged, but " + contradiction.get());
                if (!current.binding().equals(Optional.of(BindingStatus.MERGING))) {
                    apply(WorkflowEvent.HANDLE_STARTED, "Merge request !" + mr.iid() + " was found merged; reading the grant "
                            + "file at its merged commit.");
                }
                return end(WorkflowEvent.MERGE_BLOCKED, contradiction.get());
            }
            // issue 37: before MERGED, so a request waiting for its deploy report always has its merge's commit
            verdict.commit().ifPresent(commit -> operations.recordMergedCommit(mr, commit));
            changes.applyIfAllowed(current.id(), WorkflowEvent.MERGED, "Merge request !" + mr.iid() + " is merged.");
            return StepOutcome.done();
        }

        @Override
        public StepOutcome closedRemotely(MergeRequestRef mr) {
            changes.applyIfAllowed(current.id(), WorkflowEvent.MR_CLOSED_REMOTELY,
                    "Merge request !" + mr.iid() + " was closed on GitLab; nothing was merged.");
            return StepOutcome.done();
        }

        @Override
        public StepOutcome approvalFailed(MergeRequestRef mr, String bot, int attempts) {
            return end(WorkflowEvent.BOTS_APPROVAL_FAILED, "The approval bot " + bot + " could not approve merge request !"
                    + mr.iid() + " after " + attempts + " attempts.");
        }

        @Override
        public Optional<ApproveAndMerge.Regenerated> regenerate(MergeRequestRef mr, String onto) {
            var target = targets.find(current.target());
            if (target.isEmpty()) {
                return Optional.empty();
            }
            // the end fixed at the first write is reused; fixed now only if the line was never written with it
            var grant = Grant.of(GrantEnds.fixedBeforeWriting(operations, current, clock.instant()).request());
            return Optional.of(new ApproveAndMerge.Regenerated(MergeRequestTexts.commitMessageOf(current),
                    List.of(GrantFiles.on(mergeRequests, mr.project(), onto, target.get(), List.of(grant)))));
        }

        @Override
        public List<String> changedFiles() {
            return targets.find(current.target()).map(target -> List.of(target.filePath())).orElse(List.of());
        }

        @Override
        public void regenerating(MergeRequestRef mr, String onto, boolean ownMerges) {
            apply(WorkflowEvent.REBASE_STARTED, "Rebasing merge request !" + mr.iid() + " conflicted with a change merged "
                    + "first" + (ownMerges ? " by Changeflow (not counted against the conflict limit)" : "")
                    + "; generating its change again on the current " + onto + ".");
        }

        @Override
        public StepOutcome rebaseConflict(MergeRequestRef mr, String detail) {
            return end(WorkflowEvent.REBASE_CONFLICT, detail);
        }

        @Override
        public StepOutcome pipelineFailed(MergeRequestRef mr) {
            return end(WorkflowEvent.HANDLE_PIPELINE_FAILED, "The pipeline of merge request !" + mr.iid()
                    + "'s current head failed: the change no longer passes its checks; nothing was merged. Fix the "
                    + "change (or run the pipeline again on GitLab) before re-triggering.");
        }

        @Override
        public StepOutcome mergeBlocked(MergeRequestRef mr, String detail) {
            return end(WorkflowEvent.MERGE_BLOCKED, detail);
        }

        @Override
        public void pipelineTimedOut(MergeRequestRef mr) {
            if (current.step() != StepStatus.HANDLE_PIPELINE_PENDING) {
                apply(WorkflowEvent.HANDLE_PIPELINE_TIMED_OUT, "The pipeline of merge request !" + mr.iid()
                        + " did not finish in time; its outcome is unknown.");
            }
        }

        @Override
        public StepOutcome pipelineGaveUp(MergeRequestRef mr) {
            LOG.log(Level.WARNING, () -> current.id() + " pipeline still pending past the pending deadline; a person looks");
            return end(WorkflowEvent.HANDLE_PIPELINE_UNFINISHED, "The pipeline of merge request !" + mr.iid()
                    + " before merging was still pending at the pending deadline, and nobody looks at it any more. "
                    + "Check the pipeline on GitLab (a stuck runner, a job waiting to be started by hand), then "
                    + "re-trigger the request (it looks at the pipeline again) or close it.");
        }

        @Override
        public StepOutcome noPipelineRan(MergeRequestRef mr, String head, String detail) {
            LOG.log(Level.WARNING, () -> current.id() + " no pipeline ran for head " + head + " by the pending deadline; a person looks");
            return end(WorkflowEvent.HANDLE_PIPELINE_UNFINISHED, detail);
        }

        @Override
        public StepOutcome stuck(MergeRequestRef mr, String detail) {
            return end(WorkflowEvent.HANDLE_ERROR, detail + "; an operator can re-trigger it.");
        }

        /** The target's pipeline policy, read from the catalog on every use; required when the target left it. */
        @Override
        public PipelinePolicy pipelinePolicy() {
            return targets.pipelineOf(current.target());
        }
    }
}
