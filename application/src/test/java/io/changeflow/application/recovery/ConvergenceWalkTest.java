package io.changeflow.application.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.batch.SweepStuckBatches;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.state.WorkflowState;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 36, item 5: the convergence walk. For every wait of {@link Convergence} that this service or an outside
 * party owns, a request is brought into that state on the in-memory fakes, every scheduled step of it (and of its
 * batch) is lost, the clock passes the wait's deadline, and the recurring jobs run once: the request has moved (a
 * later state, or an explicit one a person was told about). {@link #everyWaitOfTheTableHasAScenario} fails when the
 * table gains a wait this walk does not cover.
 */
class ConvergenceWalkTest {

    /** One scenario per wait of the table: how a request gets there (returns its id, in that state). */
    enum Waiting {
        APPROVAL_SENDING(BindingStatus.APPROVAL_SENDING, null, app -> app.approvalSubmissionLost("sending")),
        APPROVAL_SENT(BindingStatus.APPROVAL_SENT, null, app -> {
            var id = app.submittedApprovingFirst("sent");
            app.queue.runUntilIdle();
            return id;
        }),
        APPROVAL_FAILED(BindingStatus.APPROVAL_FAILED, null, app -> {
            var id = app.approvalSubmissionLost("failed-send");
            app.changes.apply(app.op(id), WorkflowEvent.APPROVAL_SUBMIT_FAILED, "the approval system timed out");
            return id;
        }),
        MR_CREATING(BindingStatus.MR_CREATING, null, app -> {
            app.config.set(Settings.APPROVE_FIRST, "false");
            return app.submitAccepted(FakeTargets.SINGLE, "creating");
        }),
        CREATE_FAILED(BindingStatus.CREATE_FAILED, null, app -> {
            app.config.set(Settings.APPROVE_FIRST, "false");
            var id = app.submitAccepted(FakeTargets.SINGLE, "create-failed");
            app.changes.apply(app.op(id), WorkflowEvent.CREATE_ERROR, "GitLab answered 502");
            return id;
        }),
        CREATE_PIPELINE_PENDING(BindingStatus.MR_CREATING, StepStatus.CREATE_PIPELINE_PENDING, app -> {
            app.config.set(Settings.APPROVE_FIRST, "false");
            return app.createPipelinePending("create-pending");
        }),
        MR_CREATED(BindingStatus.MR_CREATED, null, app -> {
            app.config.set(Settings.APPROVE_FIRST, "true");
            var id = app.submitAccepted(FakeTargets.SINGLE, "created");
            app.queue.runUntilIdle();
            app.decide(id, Decision.APPROVED);
            app.runUntilStep(id, StepStatus.CREATE_SUCCEEDED);
            return id;
        }),
        MERGING(BindingStatus.MERGING, null, app -> {
            var id = MR_CREATED.reach.apply(app);
            app.changes.apply(app.op(id), WorkflowEvent.HANDLE_STARTED, "handling");
            return id;
        }),
        HANDLE_FAILED(BindingStatus.HANDLE_FAILED, null, app -> {
            var id = MERGING.reach.apply(app);
            app.changes.apply(app.op(id), WorkflowEvent.HANDLE_ERROR, "GitLab answered 502");
            return id;
        }),
        HANDLE_PIPELINE_PENDING(BindingStatus.MERGING, StepStatus.HANDLE_PIPELINE_PENDING, app -> {
            app.config.set(Settings.APPROVE_FIRST, "true");
            app.gitlab.nextNeedRebase(false, PipelineStatus.RUNNING);
            var id = app.submittedAndRun("handle-pending");
            app.decide(id, Decision.APPROVED);
            app.runUntilStep(id, StepStatus.HANDLE_PIPELINE_PENDING);
            return id;
        }),
        BATCH_WAITING(BindingStatus.BATCH_WAITING, null, app -> {
            app.config.set(Settings.APPROVE_FIRST, "true");
            var id = app.submitAccepted(FakeTargets.BATCHABLE, "waiting");
            app.queue.runUntilIdle();
            app.batches.failNextAdmit(new IllegalStateException("admission lost"));
            try {
                app.decide(id, Decision.APPROVED);
            } catch (IllegalStateException expected) {
                // the state already says BATCH_WAITING; the admission was lost
            }
            return id;
        }),
        BATCHED(BindingStatus.BATCHED, null, app -> {
            var id = approvedIntoBatch(app, "batched");
            app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
            return id;
        }),
        BATCH_PENDING(BindingStatus.BATCHED, StepStatus.BATCH_PENDING, app -> {
            var id = approvedIntoBatch(app, "batch-pending");
            app.gitlab.nextPipeline(PipelineStatus.RUNNING);
            app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
            var batch = app.op(id).batchId().orElseThrow();
            while (app.batches.find(batch).orElseThrow().status() == BatchStatus.RUNNING) {
                app.queue.runNext();
            }
            return id;
        }),
        EXPIRING(BindingStatus.EXPIRING, null, app -> removal(app, "expiring", false)),
        REVOKING(BindingStatus.REVOKING, null, app -> removal(app, "revoking", true)),
        MERGED(BindingStatus.MERGED, null, app -> {
            app.config.set(Settings.APPROVE_FIRST, "true");
            return app.merged("merged");
        }),
        /**
         * A rejected request whose close GitLab refuses for good: past the deadline the job makes one last attempt,
         * and its next run gives up (CLOSE_GAVE_UP, a person's): two runs.
         */
        CLOSE_FAILED(BindingStatus.REJECTED, StepStatus.CLOSE_FAILED, 2, app -> {
            app.gitlab.failNext("close", 10_000, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
            var id = app.rejected("close-failed");
            app.queue.runUntilIdle();
            return id;
        }),
        /**
         * Finding S3: the same close, already waiting when a re-application replaced the request, failing after it: the
         * request owns no row (detached), so the job reads it by step. Two runs, as above.
         */
        DETACHED_CLOSE_FAILED(null, StepStatus.CLOSE_FAILED, 2, app -> {
            var id = app.rejected("detached-close-failed");
            app.submitAccepted(FakeTargets.SINGLE, "detached-close-failed");
            app.gitlab.failNext("close", 10_000, () -> ExternalCallException.status("gitlab", 409, "Conflict"));
            app.queue.runUntilIdle();
            return id;
        });

        /** Empty: detached (a newer request replaced it). */
        final Optional<BindingStatus> binding;
        final Optional<StepStatus> step;
        /** How many runs of the recurring jobs past the deadline move it on: one, unless the scenario says why not. */
        final int jobRuns;
        final Function<InMemoryChangeflow, OperationId> reach;

        Waiting(BindingStatus binding, StepStatus step, Function<InMemoryChangeflow, OperationId> reach) {
            this(binding, step, 1, reach);
        }

        Waiting(BindingStatus binding, StepStatus step, int jobRuns, Function<InMemoryChangeflow, OperationId> reach) {
            this.binding = Optional.ofNullable(binding);
            this.step = Optional.ofNullable(step);
            this.jobRuns = jobRuns;
            this.reach = reach;
        }

        private static OperationId approvedIntoBatch(InMemoryChangeflow app, String subject) {
            app.config.set(Settings.APPROVE_FIRST, "true");
            var id = app.submitAccepted(FakeTargets.BATCHABLE, subject);
            app.queue.runUntilIdle();
            app.decide(id, Decision.APPROVED);
            return id;
        }

        /** A grant in effect on the batchable target, then its removal whose admission to the round was lost. */
        private static OperationId removal(InMemoryChangeflow app, String subject, boolean revoke) {
            app.config.set(Settings.APPROVE_FIRST, "true");
            var grant = OperationId.of(InMemoryChangeflow.newOperationId());
            app.submit(subject, new io.changeflow.domain.request.Submission(grant.value(), FakeTargets.SINGLE.value(),
                    subject, "for the walk", app.clock.instant().plus(Duration.ofHours(1)).toString()));
            app.approveAndRun(grant);
            app.deployed(grant);
            app.batches.failNextAdmit(new IllegalStateException("admission lost"));
            try {
                if (revoke) {
                    app.removeGrant.remove(io.changeflow.application.grant.RemoveGrant.Command.giveUp(subject,
                            FakeTargets.SINGLE.value(), subject));
                } else {
                    app.clock.advance(Duration.ofHours(2));
                    app.expireGrants.run(new ExpireGrants.Command());
                }
            } catch (IllegalStateException expected) {
                // opened; the admission was lost
            }
            return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().operationId();
        }

        /** The key of the table this scenario stands for: its step where the table has one for it, else its binding. */
        Object key() {
            return step.<Object>map(s -> s).orElseGet(binding::orElseThrow);
        }
    }

    @ParameterizedTest
    @EnumSource(Waiting.class)
    void aRequestWhoseScheduledStepIsLostIsMovedOnByAJobByItsDeadline(Waiting waiting) {
        var app = new InMemoryChangeflow();
        var id = waiting.reach.apply(app);
        var before = app.op(id).state();
        assertThat(before.binding()).as("the scenario reaches its state").isEqualTo(waiting.binding);
        waiting.step.ifPresent(step -> assertThat(before.step()).isEqualTo(step));
        var wait = Convergence.standard().of(before).orElseThrow();
        assertThat(wait.ownedByPerson()).as("a wait of this service or an outside party").isFalse();

        loseEveryStepOf(app, id);
        app.clock.advance(deadline(app, wait.deadline().orElseThrow()).plus(Duration.ofMinutes(1)));
        for (var run = 0; run < waiting.jobRuns; run++) {
            runEveryJob(app);
            app.clock.advance(Duration.ofMinutes(1));
        }

        var after = app.op(id).state();
        assertThat(after).as(waiting + ": moved on from " + before + " (" + wait.atDeadline() + ")").isNotEqualTo(before);
    }

    @Test
    void everyWaitOfTheTableHasAScenario() {
        var table = Convergence.standard();
        var covered = new HashSet<>();
        Arrays.stream(Waiting.values()).forEach(w -> covered.add(w.key()));
        var steps = EnumSet.of(StepStatus.CREATE_PIPELINE_PENDING, StepStatus.HANDLE_PIPELINE_PENDING,
                StepStatus.BATCH_PENDING, StepStatus.CLOSE_FAILED);
        var missing = new HashSet<>();
        for (WorkflowState state : Convergence.reachable()) {
            var wait = table.of(state);
            if (wait.isEmpty() || wait.get().ownedByPerson()) {
                continue;
            }
            Object key = steps.contains(state.step()) ? state.step() : state.binding().orElseThrow();
            if (!covered.contains(key)) {
                missing.add(key);
            }
        }
        assertThat(missing).as("waits of Convergence without a scenario in this walk").isEmpty();
    }

    private static void loseEveryStepOf(InMemoryChangeflow app, OperationId id) {
        var batch = app.op(id).batchId().map(String::valueOf);
        for (var pending : app.queue.pending()) {
            var ref = pending.step().ref();
            if (ref.equals(id.value()) || batch.filter(ref::equals).isPresent()) {
                app.queue.lose(pending.step().kind(), ref);
            }
        }
    }

    private static Duration deadline(InMemoryChangeflow app, Convergence.Deadline deadline) {
        return switch (deadline) {
            case STEP_SILENCE -> SweepStuckRequests.Policy.defaults().failAfter();
            case APPROVAL -> ReconcileApprovals.Policy.defaults().deadline();
            case PIPELINE_PENDING -> app.policy.pendingGiveUpAfter();
            case DEPLOY -> DeployDeadline.Policy.defaults().deadline();
            case TRANSIENT -> app.policy.transientDeadline();
        };
    }

    /** One run of every recurring job, then the steps they scheduled. */
    private static void runEveryJob(InMemoryChangeflow app) {
        app.sweepStuck();
        app.retryFailures.run(new RetryTransientFailures.Command());
        app.approvalCheck.reconcile(new ReconcileApprovals.Command());
        app.deployDeadline.run(new DeployDeadline.Command());
        app.expireGrants.run(new ExpireGrants.Command());
        app.sweepBatches.sweep(new SweepStuckBatches.Command());
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
    }
}
