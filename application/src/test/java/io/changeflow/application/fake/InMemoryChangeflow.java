package io.changeflow.application.fake;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.approval.CheckApprovalStep;
import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.approval.SubmitApproval;
import io.changeflow.application.batch.BatchPolicy;
import io.changeflow.application.batch.BatchSteps;
import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.MergeBatch;
import io.changeflow.application.batch.ReadmitBatchMember;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.batch.SettleBatchStep;
import io.changeflow.application.batch.SweepStuckBatches;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.close.CloseMergeRequest;
import io.changeflow.application.create.CreateMergeRequest;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.application.grant.ListExpiringGrants;
import io.changeflow.application.grant.RemoveGrant;
import io.changeflow.application.handle.HandleMergeRequest;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.query.ListMyBindings;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.application.query.PreviewChange;
import io.changeflow.application.query.RequestWaits;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.PurgeExpiredIdempotencyRecords;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.application.recovery.RetryTransientFailures;
import io.changeflow.application.recovery.SweepStuckRequests;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.application.workflow.TransientRetries;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.application.workflow.StepSafetyNet;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.reconcile.ReconciliationMatching;
import io.changeflow.domain.reconcile.ReconciliationWindow;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The whole application on in-memory fakes, wired the way bootstrap wires it: every port fake, the
 * settings, the workflow steps (the batch steps included) behind {@link RunDueStep} on a
 * {@link ManualWorkQueue}, and every use case. Tests drive it through the use cases and the queue; fields are public for brevity.
 */
public final class InMemoryChangeflow {

    public static final String START = "2026-03-02T09:00:00Z";
    /** The approval bots the fake GitLab names ({@code MergeRequests.approvalAccounts}), in their order. */
    public static final List<String> BOTS = List.of("approver-bot-1", "approver-bot-2");
    public static final ReconciliationWindow WINDOW = new ReconciliationWindow(Duration.ofMinutes(10), Duration.ofHours(24));

    public final SettableClock clock = SettableClock.at(START);
    public final FakeIdempotencyRecords idempotency = new FakeIdempotencyRecords(clock);
    public final FakeOperations operations = new FakeOperations(clock, idempotency);
    public final FakeTargets targets = FakeTargets.standard();
    public final FakeDirectory directory = new FakeDirectory();
    public final FakeCallbackInbox inbox = new FakeCallbackInbox();
    public final FakeScanCursors cursors = new FakeScanCursors();
    public final FakeAuditLog audit = new FakeAuditLog();
    public final FakeBusinessMetrics metrics = new FakeBusinessMetrics();
    public final FakeDynamicConfig config = new FakeDynamicConfig().set(Settings.ACCESS_MODE, "OPEN");
    public final FakePermissions permissions = new FakePermissions().grant("otto", "ops.operator");
    public final FakeBatches batches = new FakeBatches(operations, clock);
    public final FakeApprovals approvals = new FakeApprovals();
    public final FakeMergeRequests gitlab = new FakeMergeRequests(BOTS);
    public final ManualWorkQueue queue = new ManualWorkQueue(clock);
    /** How a duplicate submission waits for the original: moves {@link #clock}, never sleeps. */
    public final FakePause pause = new FakePause(clock);
    public final Settings settings = new Settings(config);
    public final WorkflowPolicy policy;
    public final BatchPolicy batchPolicy;
    /** The random part of merge retry delays: seeded, so every run of a test sees the same delays. */
    public final SplittableRandom jitter = new SplittableRandom(20261130L);

    public final StateChanges changes = new StateChanges(operations, metrics);
    public final StepLauncher launcher = new StepLauncher(queue, changes);
    public final MarkDeployed markDeployed = new MarkDeployed(operations, metrics);

    public final SubmitChangeRequest submit;
    public final HandleApprovalCallback approvalCallback;
    public final HandleDeployCallback deployCallback;
    public final DeployDeadline deployDeadline;
    public final ConfirmDeployed confirmDeployed;
    public final MarkDeployFailed markDeployFailed;
    public final ReconcileMergedRequests reconcile;
    public final RunDueStep steps;
    public final SweepStuckRequests sweep;
    /** The transient retries of the workflow steps (deadline and jitter from {@link #policy}, {@link #clock}, {@link #jitter}). */
    public final TransientRetries transientRetries;
    public final RetryTransientFailures retryFailures;
    public final RetriggerStep retrigger;
    public final CloseChangeRequest closeRequest;
    public final FindStuckRequests findStuck;
    public final ShowOperation showOperation;
    public final PurgeExpiredIdempotencyRecords purge;
    public final ShowChangeRequest showRequest;
    public final ListMyRequests myRequests;
    public final ListMyBindings myBindings;
    public final PreviewChange preview;
    public final RunBatchRound batchRound;
    public final RunScheduledBatchRounds scheduledBatchRounds;
    public final SettleBatch settleBatch;
    public final SweepStuckBatches sweepBatches;
    public final ReadmitBatchMember readmit;
    public final ListBatches listBatches;
    public final SubmitApproval submitApproval;
    public final ReconcileApprovals approvalCheck;
    public final ExpireGrants expireGrants;
    public final RemoveGrant removeGrant;
    public final ListExpiringGrants expiringGrants;

    public InMemoryChangeflow() {
        this(WorkflowPolicy.defaults());
    }

    public InMemoryChangeflow(WorkflowPolicy policy) {
        this(policy, BatchPolicy.defaults());
    }

    public InMemoryChangeflow(WorkflowPolicy policy, BatchPolicy batchPolicy) {
        this.policy = policy;
        this.batchPolicy = batchPolicy;
        submit = new SubmitChangeRequest(operations, targets, directory, idempotency, settings, launcher, metrics, approvals,
                clock, SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE, pause);
        approvalCallback = new HandleApprovalCallback(inbox, operations, targets, batches, changes, launcher);
        deployCallback = new HandleDeployCallback(inbox, operations, gitlab, markDeployed, changes);
        deployDeadline = new DeployDeadline(operations, changes, DeployDeadline.Policy.defaults());
        removeGrant = new RemoveGrant(operations, batches, targets, launcher, audit, clock);
        expiringGrants = new ListExpiringGrants(operations);
        confirmDeployed = new ConfirmDeployed(operations, markDeployed, audit, clock);
        markDeployFailed = new MarkDeployFailed(operations, changes, audit, clock);
        inbox.resolveMergeOrders(operations::mergeOrderOf);
        reconcile = reconciliation(ReconciliationMatching.exact());
        var createWatch = new PipelineWatch(policy.pipelinePolling(), policy.pendingRecheck(), policy.pendingGiveUpAfter());
        settleBatch = new SettleBatch(batches, operations, targets, gitlab, metrics, audit, batchPolicy, clock);
        transientRetries = policy.transientRetries(clock, jitter::nextDouble);
        submitApproval = new SubmitApproval(operations, approvals, changes, approvalCallback);
        approvalCheck = new ReconcileApprovals(operations, approvals, submitApproval, approvalCallback,
                ReconcileApprovals.Policy.defaults(), clock);
        var safetyNets = new ArrayList<StepSafetyNet>(List.of(
                new StepSafetyNet(StepKind.SUBMIT_APPROVAL, WorkflowEvent.APPROVAL_SUBMIT_FAILED,
                        submitApproval, changes, transientRetries),
                new StepSafetyNet(StepKind.CHECK_APPROVAL, new CheckApprovalStep(operations, approvalCheck),
                        CheckApprovalStep::onFailure, transientRetries),
                new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR,
                        new CreateMergeRequest(operations, targets, gitlab, changes, createWatch, clock), changes,
                        transientRetries),
                new StepSafetyNet(StepKind.HANDLE, WorkflowEvent.HANDLE_ERROR,
                        new HandleMergeRequest(operations, targets, gitlab, changes, settings, policy, clock,
                                jitter::nextDouble), changes,
                        transientRetries),
                new StepSafetyNet(StepKind.CLOSE, WorkflowEvent.CLOSE_FAILED,
                        new CloseMergeRequest(operations, targets, gitlab, changes, policy), changes, transientRetries)));
        safetyNets.addAll(BatchSteps.of(
                new MergeBatch(batches, operations, targets, gitlab, metrics, settings, policy, clock, jitter::nextDouble),
                new SettleBatchStep(settleBatch, policy), policy.transientRetry()));
        steps = new RunDueStep(safetyNets);
        queue.attach(steps);
        retryFailures = new RetryTransientFailures(operations, gitlab, queue, changes, transientRetries, cursors,
                RetryTransientFailures.DEFAULT_LIMIT);
        sweep = new SweepStuckRequests(operations, targets, batches, queue, changes, cursors,
                SweepStuckRequests.Policy.defaults());
        batchRound = new RunBatchRound(batches, queue, audit, batchPolicy, clock);
        scheduledBatchRounds = new RunScheduledBatchRounds(targets, batchRound);
        sweepBatches = new SweepStuckBatches(batches, queue, batchPolicy);
        readmit = new ReadmitBatchMember(operations, targets, batches, changes, audit, clock);
        listBatches = new ListBatches(batches, operations);
        retrigger = new RetriggerStep(operations, queue, readmit, audit, clock);
        closeRequest = new CloseChangeRequest(operations, targets, gitlab, approvals, changes, audit, clock);
        expireGrants = new ExpireGrants(operations, batches, targets, launcher, approvalCheck, closeRequest,
                ExpireGrants.Policy.defaults());
        findStuck = new FindStuckRequests(operations);
        showOperation = new ShowOperation(operations, audit);
        purge = new PurgeExpiredIdempotencyRecords(idempotency);
        showRequest = new ShowChangeRequest(operations, permissions, new RequestWaits(queue, policy, io.changeflow.application.recovery.FindOverdueRequests.Deadlines.defaults()));
        myRequests = new ListMyRequests(operations);
        myBindings = new ListMyBindings(operations);
        preview = new PreviewChange(targets, gitlab, permissions, clock);
    }

    // ---- helpers for tests ---------------------------------------------------------------------------

    /** Reconciliation with {@code matching} (the wired {@link #reconcile} matches exactly), sharing the scan's position. */
    public ReconcileMergedRequests reconciliation(ReconciliationMatching matching) {
        return new ReconcileMergedRequests(operations, inbox, cursors, markDeployed, audit,
                new ReconcileMergedRequests.Policy(WINDOW.minAge(), ReconcileMergedRequests.DEFAULT_CANDIDATES, matching),
                clock);
    }

    private static final AtomicInteger IDS = new AtomicInteger();

    /** A fresh operationId, as the form generates it. */
    public static String newOperationId() {
        return String.format("0a0a0000-0000-4000-8000-%012d", IDS.incrementAndGet());
    }

    public static Submission submission(String operationId, TargetKey target, String subject) {
        return new Submission(operationId, target.value(), subject, "needed for the quarterly report", null);
    }

    public SubmitChangeRequest.Result submit(String requester, Submission submission) {
        return submit.submit(new SubmitChangeRequest.Command(submission, requester));
    }

    /** Submits for {@code subject} by {@code subject}; fails the test unless accepted. */
    public OperationId submitAccepted(TargetKey target, String subject) {
        var id = newOperationId();
        var result = submit(subject, submission(id, target, subject));
        if (!(result instanceof SubmitChangeRequest.Result.Accepted)) {
            throw new AssertionError("expected ACCEPTED, got " + result);
        }
        return OperationId.of(id);
    }

    /** An application whose requests are approved first ({@link Settings#APPROVE_FIRST}). */
    public static InMemoryChangeflow approvingFirst() {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, "true");
        return app;
    }

    /** Approving first ({@link Settings#APPROVE_FIRST}), submits for {@code subject} on the single-MR target. */
    public OperationId submittedApprovingFirst(String subject) {
        config.set(Settings.APPROVE_FIRST, "true");
        return submitAccepted(FakeTargets.SINGLE, subject);
    }

    /** {@link #submittedApprovingFirst}, and the task that would send the request to the approver is lost. */
    public OperationId approvalSubmissionLost(String subject) {
        var id = submittedApprovingFirst(subject);
        queue.lose(StepKind.SUBMIT_APPROVAL, id.value());
        return id;
    }

    /**
     * Submits for {@code subject} on the single-MR target with its merge request's pipeline running, and runs the
     * create step once: the merge request is open and its pipeline is watched.
     */
    public OperationId openedWithPipelineRunning(String subject) {
        gitlab.nextPipeline(MergeRequests.PipelineStatus.RUNNING);
        var id = submitAccepted(FakeTargets.SINGLE, subject);
        queue.runNext();
        return id;
    }

    /** Submits for {@code subject} on the single-MR target and runs the workflow until the queue is idle. */
    public OperationId submittedAndRun(String subject) {
        var id = submitAccepted(FakeTargets.SINGLE, subject);
        queue.runUntilIdle();
        return id;
    }

    /**
     * {@link #submittedAndRun} while the merge request's pipeline fails: in the create-first order the request ends
     * CREATE_PIPELINE_FAILED.
     */
    public OperationId pipelineFailed(String subject) {
        gitlab.nextPipeline(MergeRequests.PipelineStatus.FAILED);
        return submittedAndRun(subject);
    }

    /** {@link #submittedAndRun}, then the approver rejects it: the relationship is free for a new request. */
    public OperationId rejected(String subject) {
        var id = submittedAndRun(subject);
        decide(id, HandleApprovalCallback.Decision.REJECTED);
        return id;
    }

    /** Submits for {@code subject} on the single-MR target, approves it and runs the workflow until the queue is idle. */
    public OperationId approvedAndRun(String subject) {
        var id = submitAccepted(FakeTargets.SINGLE, subject);
        approveAndRun(id);
        return id;
    }

    /** Runs the workflow until the queue is idle, approves {@code id} and runs it until the queue is idle again. */
    public void approveAndRun(OperationId id) {
        queue.runUntilIdle();
        decide(id, HandleApprovalCallback.Decision.APPROVED);
        queue.runUntilIdle();
    }

    /** {@link #approvedAndRun}, and the request ended merged. */
    public OperationId merged(String subject) {
        var id = approvedAndRun(subject);
        assertThat(op(id).binding()).contains(BindingStatus.MERGED);
        return id;
    }

    /** The request {@code id} is merged, the first and the second of {@link #BOTS} asked to approve that many times. */
    public void assertMergedWithApprovals(OperationId id, int firstBotCalls, int secondBotCalls) {
        assertThat(op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(gitlab.approveCalls(BOTS.get(0))).isEqualTo(firstBotCalls);
        assertThat(gitlab.approveCalls(BOTS.get(1))).isEqualTo(secondBotCalls);
    }

    /**
     * Submits for {@code subject} on the single-MR target, approves it and runs steps until the handle step is next
     * (approve first: the merge request exists).
     */
    public OperationId approvedUntilHandleIsNext(String subject) {
        var id = submittedAndRun(subject);
        decide(id, HandleApprovalCallback.Decision.APPROVED);
        while (queue.pending(StepKind.HANDLE, id.value()).isEmpty()) {
            queue.runNext();
        }
        return id;
    }

    /** {@link #openedWithPipelineRunning}, then runs steps until the create step's watch records the pipeline pending. */
    public OperationId createPipelinePending(String subject) {
        var id = openedWithPipelineRunning(subject);
        runUntilStep(id, StepStatus.CREATE_PIPELINE_PENDING);
        return id;
    }

    /**
     * {@link #approvedUntilHandleIsNext}, then someone pushes to the merge request's branch: the new head's pipeline
     * reads {@code pipelines} one look after another.
     */
    public OperationId pushedToWhenHandleIsNext(String subject, MergeRequests.PipelineStatus... pipelines) {
        var id = approvedUntilHandleIsNext(subject);
        var mr = mr(id);
        gitlab.pushExternally(mr.project(), mr.iid(), pipelines);
        return id;
    }

    /** Runs steps one by one until {@code id}'s step is {@code step}. */
    public void runUntilStep(OperationId id, StepStatus step) {
        while (op(id).step() != step) {
            queue.runNext();
        }
    }

    /** One run of the sweep of stuck requests, as its scheduled job runs it. */
    public SweepStuckRequests.Result sweepStuck() {
        return sweep.sweep(new SweepStuckRequests.Command());
    }

    /** One scheduled run of the reconciliation of merged requests (the wired one: exact matching). */
    public ReconcileMergedRequests.Result reconcileMerged() {
        return reconcile.reconcile(ReconcileMergedRequests.Command.scheduled());
    }

    /** One run of the retry of transiently failed requests, as its scheduled job runs it. */
    public RetryTransientFailures.Result retryTransientFailures() {
        return retryFailures.run(new RetryTransientFailures.Command());
    }

    /** The operator otto re-triggers the request's current step, giving {@code reason}. */
    public RetriggerStep.Result retrigger(OperationId id, String reason) {
        return retrigger.retrigger(new RetriggerStep.Command(id.value(), "otto", Map.of("reason", reason)));
    }

    /**
     * A grant of {@code subject} on {@code target}, requested by {@code requester} (approve first), until
     * {@code until} (null: for good), approved and run until the queue is idle; fails the test unless accepted.
     */
    public OperationId approvedGrant(String requester, TargetKey target, String subject, java.time.Instant until) {
        config.set(Settings.APPROVE_FIRST, "true");
        var id = newOperationId();
        var result = submit(requester, new Submission(id, target.value(), subject, "for the report",
                until == null ? null : until.toString()));
        if (!(result instanceof SubmitChangeRequest.Result.Accepted)) {
            throw new AssertionError("expected ACCEPTED, got " + result);
        }
        var op = OperationId.of(id);
        approveAndRun(op);
        return op;
    }

    /**
     * A grant of {@code subject} on the single-MR target, requested by {@code requester} (approve first), until
     * {@code until} (null: for good), approved, merged and confirmed in effect; fails the test unless accepted.
     */
    public OperationId grantInEffect(String requester, String subject, java.time.Instant until) {
        var op = approvedGrant(requester, FakeTargets.SINGLE, subject, until);
        deployed(op);
        return op;
    }

    public Operation op(OperationId id) {
        return operations.find(id).orElseThrow();
    }

    /** Nothing was merged on GitLab and the request {@code id} stopped at {@code step}. */
    public void assertNotMergedAt(OperationId id, StepStatus step) {
        assertThat(gitlab.merges()).isZero();
        assertThat(op(id).step()).isEqualTo(step);
    }

    /** Asserts the request {@code id} is in {@code binding} at {@code step}; the operation, for further assertions. */
    public Operation assertState(OperationId id, BindingStatus binding, StepStatus step) {
        var op = op(id);
        assertThat(op.binding()).as("binding status of %s", id).contains(binding);
        assertThat(op.step()).as("step status of %s", id).isEqualTo(step);
        return op;
    }

    /** {@link #assertState(OperationId, BindingStatus, StepStatus)}, and the next action the request shows is {@code hint}. */
    public Operation assertState(OperationId id, BindingStatus binding, StepStatus step, Hint hint) {
        var op = assertState(id, binding, step);
        assertThat(op.hint()).as("hint of %s", id).isEqualTo(hint);
        return op;
    }

    public MergeRequestRef mr(OperationId id) {
        return op(id).mergeRequest().orElseThrow(() -> new AssertionError(id + " has no merge request"));
    }

    /** The approver decides; the callback echoes the form's extension fields like the approval system does. */
    public CallbackAnswer decide(OperationId id, HandleApprovalCallback.Decision decision) {
        var ext = approvals.formOf(id).map(f -> f.ext()).orElse(Map.of());
        return approvalCallback.handle(new HandleApprovalCallback.Command("cb-" + newOperationId(), id.value(), decision, ext));
    }

    /** The deploy pipeline reports the operation's merge request in effect (without operation IDs). */
    public HandleDeployCallback.Result deployed(OperationId id) {
        var mr = mr(id);
        return deployCallback.handle(new HandleDeployCallback.Command("dl-" + newOperationId(), mr.project(), mr.iid(),
                "success", List.of()));
    }
}
