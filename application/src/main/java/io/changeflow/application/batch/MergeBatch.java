package io.changeflow.application.batch;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.workflow.ApproveAndMerge;
import io.changeflow.application.workflow.GrantFiles;
import io.changeflow.application.workflow.HeadPipeline;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.FailureKind;
import io.changeflow.domain.batch.Settlement;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.state.BatchStatus;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * The batch step ({@link StepKind#BATCH}, ref = the batch id): one branch, commit and merge request holding
 * every member's change, then the same approve-and-merge path as single requests ({@link ApproveAndMerge}),
 * and the batch settled by the outcome. Outcomes: docs/workflow.md.
 */
public final class MergeBatch implements StepBody {

    /** Phases before the shared choreography's own. */
    static final String CREATE = "CREATE";
    static final String CHECKS = "CHECKS";

    private static final System.Logger LOG = System.getLogger(MergeBatch.class.getName());

    private final Batches batches;
    private final Operations operations;
    private final Targets targets;
    private final MergeRequests mergeRequests;
    private final BatchMergeRequests batchMergeRequests;
    private final EndBatch end;
    private final ApproveAndMerge choreography;
    private final PipelineWatch checks;
    private final Clock clock;

    public MergeBatch(Batches batches, Operations operations, Targets targets, MergeRequests mergeRequests,
                      BusinessMetrics metrics, Settings settings, WorkflowPolicy policy, Clock clock) {
        this(batches, operations, targets, mergeRequests, metrics, settings, policy, clock, ApproveAndMerge.RANDOM_JITTER);
    }

    /** @param jitter the random part of merge retry delays (see {@link ApproveAndMerge}); seeded in tests */
    public MergeBatch(Batches batches, Operations operations, Targets targets, MergeRequests mergeRequests,
                      BusinessMetrics metrics, Settings settings, WorkflowPolicy policy, Clock clock, DoubleSupplier jitter) {
        this.batches = batches;
        this.operations = operations;
        this.targets = targets;
        this.mergeRequests = mergeRequests;
        this.batchMergeRequests = new BatchMergeRequests(batches, operations, targets, mergeRequests);
        this.end = new EndBatch(batches, metrics);
        this.choreography = new ApproveAndMerge(mergeRequests, settings, policy, clock, jitter);
        this.checks = policy.pipelineWatch();
        this.clock = clock;
    }

    /** The first run of merging {@code batchId} (what a batch round schedules). */
    public static Step first(long batchId) {
        return Step.first(StepKind.BATCH, String.valueOf(batchId));
    }

    /**
     * How the batch step ends after an unexpected error or used-up transient retries: the batch goes to
     * settlement as a transient failure (close, re-read, merged wins; otherwise every member waits again).
     */
    public static StepOutcome onFailure(Step step, RuntimeException cause) {
        LOG.log(Level.ERROR, "batch step " + step.instanceId() + " failed unexpectedly; settling the batch", cause);
        long batchId;
        try {
            batchId = Long.parseLong(step.ref());
        } catch (NumberFormatException e) {
            return StepOutcome.done();
        }
        return StepOutcome.next(SettleBatchStep.first(batchId, FailureKind.TRANSIENT,
                "the batch step stopped on an unexpected error"));
    }

    /** The batch's status and merge request: it moves when the merge request is opened, or the batch blocked or ended. */
    @Override
    public Optional<String> progress(Step step) {
        try {
            return batches.find(Long.parseLong(step.ref()))
                    .map(b -> b.status().name() + "/" + b.mergeRequest().map(mr -> "!" + mr.iid()).orElse("-"));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public StepOutcome run(Step step) {
        Optional<Batch> found;
        try {
            found = batches.find(Long.parseLong(step.ref()));
        } catch (NumberFormatException e) {
            found = Optional.empty();
        }
        if (found.isEmpty()) {
            LOG.log(Level.WARNING, () -> "no batch " + step.ref() + " for the batch step");
            return StepOutcome.done();
        }
        var batch = found.get();
        if (batch.status().isTerminal()) {
            closeLeftover(batch);
            return StepOutcome.done();
        }
        var subject = new BatchMerge(batch);
        var phase = step.value(ApproveAndMerge.PHASE).orElse(CREATE);
        if (phase.equals(CHECKS)) {
            return awaitChecks(batch, mergeRequestOf(batch), step, subject);
        }
        var shared = ApproveAndMerge.phaseOf(step);
        if (shared.isPresent()) {
            return choreography.resume(shared.get(), mergeRequestOf(batch), step, subject);
        }
        return create(batch, step, subject);
    }

    /** Branch, one commit with every member's grant, merge request; then its pipeline. */
    private StepOutcome create(Batch batch, Step step, BatchMerge subject) {
        var content = BatchContent.toWrite(batch, operations, targets, clock.instant());
        if (content instanceof BatchContent.Unmergeable unmergeable) {
            LOG.log(Level.WARNING, () -> "batch " + batch.id() + " cannot be merged: " + unmergeable.reason());
            return settle(batch, FailureKind.DETERMINISTIC, unmergeable.reason());
        }
        var ready = (BatchContent.Ready) content;
        var found = batchMergeRequests.find(batch, ready.project());
        MergeRequestRef mr;
        if (found.isPresent()) {
            mr = found.get();
        } else {
            var onBranch = branch(batch, ready);
            var edited = ready.files().stream().flatMap(file -> file.handEdited(onBranch.get(file)).stream()).findFirst();
            if (edited.isPresent()) {
                // issue 36: a removal never claims a line removed that main still holds edited; bisection isolates it
                LOG.log(Level.WARNING, () -> "batch " + batch.id() + " cannot be merged: " + edited.get());
                return settle(batch, FailureKind.DETERMINISTIC, edited.get());
            }
            mr = open(batch, ready, onBranch);
        }
        var remote = mergeRequests.get(mr.project(), mr.iid());
        var finished = ApproveAndMerge.finishedRemotely(remote, mr, subject, "does not exist");
        if (finished.isPresent()) {
            return finished.get();
        }
        return StepOutcome.again(PipelineWatch.start(step.nextAttempt(), clock.instant()).with(ApproveAndMerge.PHASE, CHECKS),
                checks.firstDelay());
    }

    /** The batch's branch, created from the target branch, and each of its files as the branch holds it. */
    private Map<BatchContent.FileGrants, GrantFile> branch(Batch batch, BatchContent.Ready ready) {
        var project = ready.project();
        var branch = MergeRequestTexts.batchBranchOf(batch.id());
        mergeRequests.createBranch(project, branch, mergeRequests.defaultBranch(project));
        var files = new LinkedHashMap<BatchContent.FileGrants, GrantFile>();
        ready.files().forEach(file -> files.put(file, GrantFiles.read(mergeRequests, project, branch, file.target())));
        return files;
    }

    private MergeRequestRef open(Batch batch, BatchContent.Ready ready, Map<BatchContent.FileGrants, GrantFile> onBranch) {
        var project = ready.project();
        var branch = MergeRequestTexts.batchBranchOf(batch.id());
        var base = mergeRequests.defaultBranch(project);
        var files = new ArrayList<FileChange>();
        onBranch.forEach((file, content) -> {
            if (!file.doneIn(content)) {
                // on the branch's own content: see CreateMergeRequest (a merge landing meanwhile is never undone)
                files.add(new FileChange(file.target().filePath(), content.with(file.grants()).without(file.removed()).render()));
            }
        });
        if (!files.isEmpty()) {
            mergeRequests.commit(project, branch, MergeRequestTexts.batchCommitMessageOf(batch.id(), ready.members()), files);
        }
        var remote = mergeRequests.open(project, branch, base, MergeRequestTexts.batchTitleOf(batch.id(), ready.members()),
                MergeRequestTexts.batchDescriptionOf(batch.id(), ready.members()));
        var ref = remote.ref();
        batches.recordMergeRequest(batch.id(), ref);
        LOG.log(Level.INFO, () -> "batch " + batch.id() + " of " + ready.members().size() + " opened merge request !" + ref.iid());
        return ref;
    }

    /** The merge request's pipeline; passed: approve and merge. */
    private StepOutcome awaitChecks(Batch batch, MergeRequestRef mr, Step step, BatchMerge subject) {
        var remote = mergeRequests.getWithHeadPipeline(mr.project(), mr.iid());
        var finished = ApproveAndMerge.finishedRemotely(remote, mr, subject, "disappeared");
        if (finished.isPresent()) {
            return finished.get();
        }
        // Only the head's own pipeline counts (head_pipeline, once the merge request reports its branch's real head), as
        // the strictest pipeline policy of the batch's targets reads it; one that ran for an earlier commit still waits.
        var policy = subject.pipelinePolicy();
        var look = HeadPipeline.look(mergeRequests, mr, remote, policy);
        if (look instanceof HeadPipeline.Look.NotRun notRun) {
            return subject.mergeBlocked(mr, HeadPipeline.notRun(mr, notRun.pipeline(), policy));
        }
        return switch (checks.observe(step, HeadPipeline.observation(look), clock.instant(), batch.updatedAt())) {
            case PipelineWatch.Verdict.Again again -> StepOutcome.again(again.step().nextAttempt(), again.delay());
            case PipelineWatch.Verdict.Passed passed -> choreography.approveAndMerge(mr, step, subject, remote);
            case PipelineWatch.Verdict.Failed failed -> settle(batch, FailureKind.DETERMINISTIC,
                    "the pipeline of merge request !" + mr.iid() + " failed");
            case PipelineWatch.Verdict.TimedOut timedOut -> {
                subject.pipelineTimedOut(mr);
                yield StepOutcome.again(timedOut.step().nextAttempt(), timedOut.delay());
            }
            case PipelineWatch.Verdict.GaveUp gaveUp -> subject.pipelineGaveUp(mr);
        };
    }

    private MergeRequestRef mergeRequestOf(Batch batch) {
        return batchMergeRequests.find(batch)
                .orElseThrow(() -> new IllegalStateException("batch " + batch.id() + " has no merge request recorded"));
    }

    /** The batch ended while this step was away: a merge request it opened afterwards must not stay open. */
    private void closeLeftover(Batch batch) {
        if (batch.status() != BatchStatus.FAILED) {
            return;
        }
        var mr = batchMergeRequests.find(batch);
        if (mr.isPresent() && Settlement.needsClose(mergeRequests.get(mr.get().project(), mr.get().iid()).state())) {
            LOG.log(Level.WARNING, () -> "batch " + batch.id() + " ended FAILED with merge request !" + mr.get().iid()
                    + " still open; closing it");
            mergeRequests.close(mr.get().project(), mr.get().iid());
        }
    }

    private static StepOutcome settle(Batch batch, FailureKind kind, String reason) {
        return StepOutcome.next(SettleBatchStep.first(batch.id(), kind, reason));
    }

    /** Settles {@code batch}, the kind of failure decided by its merge request's pipeline. */
    private static StepOutcome settle(Batch batch, String reason) {
        return StepOutcome.next(SettleBatchStep.first(batch.id(), reason));
    }

    /** The batch as the choreography's subject. */
    private final class BatchMerge implements ApproveAndMerge.Subject {

        private Batch current;
        private PipelinePolicy pipelinePolicy;
        /** Issue 36: a removed grant's line found edited by hand on the target branch while regenerating. */
        private Optional<String> handEdit = Optional.empty();

        BatchMerge(Batch batch) {
            this.current = batch;
        }

        @Override
        public String describe() {
            return "batch " + current.id();
        }

        @Override
        public Instant lastWrite() {
            return current.updatedAt();
        }

        @Override
        public void approved(MergeRequestRef mr) {
            LOG.log(Level.INFO, () -> "batch " + current.id() + ": merge request !" + mr.iid() + " is approved");
        }

        @Override
        public void rebaseStarting(MergeRequestRef mr) {
            LOG.log(Level.INFO, () -> "batch " + current.id() + ": rebasing merge request !" + mr.iid());
        }

        /** Merged: each member's claim read from the merged commit (issue 36) before the batch is settled. */
        @Override
        public StepOutcome merged(MergeRequestRef mr, Optional<String> mergedCommit) {
            var notBorne = batchMergeRequests.notBorne(current, mr, mergedCommit);
            if (!notBorne.isEmpty()) {
                LOG.log(Level.WARNING, () -> "batch " + current.id() + ": merged, but its merged commit does not bear "
                        + notBorne.keySet());
            }
            current = end.merged(current, mr, notBorne, "system");
            return StepOutcome.done();
        }

        @Override
        public StepOutcome closedRemotely(MergeRequestRef mr) {
            // Closed by someone on GitLab: the settlement re-reads it (merged wins) and blames no one
            // unless the merge request's own pipeline failed.
            return settle(current, "merge request !" + mr.iid() + " was closed on GitLab");
        }

        @Override
        public StepOutcome approvalFailed(MergeRequestRef mr, String bot, int attempts) {
            return settle(current, FailureKind.TRANSIENT, "the approval bot " + bot
                    + " could not approve merge request !" + mr.iid() + " after " + attempts + " attempts");
        }

        @Override
        public Optional<ApproveAndMerge.Regenerated> regenerate(MergeRequestRef mr, String onto) {
            if (!(BatchContent.toWrite(current, operations, targets, clock.instant()) instanceof BatchContent.Ready ready)) {
                return Optional.empty();
            }
            var files = new ArrayList<FileChange>();
            for (var file : ready.files()) {
                var content = GrantFiles.read(mergeRequests, mr.project(), onto, file.target());
                handEdit = file.handEdited(content);
                if (handEdit.isPresent()) {
                    return Optional.empty();
                }
                files.add(new FileChange(file.target().filePath(),
                        content.with(file.grants()).without(file.removed()).render()));
            }
            return Optional.of(new ApproveAndMerge.Regenerated(
                    MergeRequestTexts.batchCommitMessageOf(current.id(), ready.members()), files));
        }

        @Override
        public List<String> changedFiles() {
            return BatchContent.of(current, operations, targets) instanceof BatchContent.Ready ready
                    ? ready.files().stream().map(file -> file.target().filePath()).toList()
                    : List.of();
        }

        @Override
        public void regenerating(MergeRequestRef mr, String onto, boolean ownMerges) {
            LOG.log(Level.INFO, () -> "batch " + current.id() + ": rebasing merge request !" + mr.iid() + " conflicted"
                    + (ownMerges ? " with Changeflow's own merges (not counted)" : "")
                    + "; generating every member's grant again on the current " + onto);
        }

        @Override
        public StepOutcome rebaseConflict(MergeRequestRef mr, String detail) {
            if (handEdit.isPresent()) {
                return settle(current, FailureKind.DETERMINISTIC, handEdit.get());
            }
            return settle(current, FailureKind.DETERMINISTIC, "rebasing merge request !" + mr.iid()
                    + " hit a conflict that generating its change again did not resolve");
        }

        @Override
        public StepOutcome pipelineFailed(MergeRequestRef mr) {
            return settle(current, FailureKind.DETERMINISTIC, "the pipeline of merge request !" + mr.iid()
                    + " failed after the rebase");
        }

        @Override
        public void pipelineTimedOut(MergeRequestRef mr) {
            if (current.status() == BatchStatus.RUNNING) {
                current = end.blocked(current, "the pipeline of merge request !" + mr.iid() + " did not finish in time");
            }
        }

        @Override
        public StepOutcome pipelineGaveUp(MergeRequestRef mr) {
            // Past the pending deadline nobody would look at the blocked batch any more: settle it as an unknown
            // outcome (its merge request is closed, or found merged; the members go back to the waiting set).
            LOG.log(Level.WARNING, () -> "batch " + current.id() + " pipeline still pending past the pending deadline; settling");
            return settle(current, FailureKind.TRANSIENT, "the pipeline of batch merge request !" + mr.iid()
                    + " was still pending at the pending deadline");
        }

        @Override
        public StepOutcome stuck(MergeRequestRef mr, String detail) {
            return settle(current, FailureKind.TRANSIENT, detail);
        }

        /**
         * The strictest policy of the members' targets (a batch lies within one partition, whose targets may differ);
         * required when the members cannot be read as one merge request.
         */
        @Override
        public PipelinePolicy pipelinePolicy() {
            if (pipelinePolicy == null) {
                pipelinePolicy = BatchContent.of(current, operations, targets) instanceof BatchContent.Ready ready
                        ? PipelinePolicy.strictest(ready.files().stream().map(file -> file.target().pipeline()).toList())
                        : PipelinePolicy.REQUIRED;
            }
            return pipelinePolicy;
        }
    }
}
