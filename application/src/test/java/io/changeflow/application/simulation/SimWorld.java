package io.changeflow.application.simulation;

import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.batch.ReadmitBatchMember;
import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.batch.SweepStuckBatches;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.deploy.DeployActionCommand;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.drift.DetectDrift;
import io.changeflow.application.drift.RemoveDriftLine;
import io.changeflow.application.fake.FakeDrifts;
import io.changeflow.application.fake.FakeLineOrigins;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.fake.ManualWorkQueue;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.application.grant.RemoveGrant;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The simulated world: the real use cases and domain on {@link InMemoryChangeflow}'s fakes, moved only by
 * {@link SimAction}s (people, approvers, GitLab, the deploy pipeline, the scheduler, crashes, operators). Every action
 * is read against the state at that moment and answers one line for the trace; nothing here draws randomness of its
 * own, so a script replays exactly.
 *
 * <p>The merge refusals it injects are those of GitLab's {@code PUT /projects/:id/merge_requests/:iid/merge} in
 * {@code lib/api/merge_requests.rb} (gitlabhq/gitlabhq, 12.x as indexed): 405 ({@code not_allowed!}) when the merge
 * request is neither immediately nor automatically mergeable, 406 "Branch cannot be merged" unless
 * {@code mergeable?}, 409 "SHA does not match HEAD of source branch"; the 17.x/18.x/19.x codes and the
 * {@code detailed_merge_status} values the port maps them from are in docs/external-systems-gitlab.md.
 */
final class SimWorld {

    static final List<String> SUBJECTS = List.of("alice", "bob", "carol", "dave");
    static final List<TargetKey> TARGETS = List.of(FakeTargets.SINGLE, FakeTargets.BATCHABLE);
    static final List<String> GITLAB_METHODS = List.of("commit", "open", "get", "approve", "merge", "close",
            "latestPipeline", "createBranch", "rebase", "rewriteBranch", "readFile");
    private static final List<List<PipelineStatus>> PIPELINES = List.of(List.of(PipelineStatus.PASSED),
            List.of(PipelineStatus.RUNNING, PipelineStatus.PASSED), List.of(PipelineStatus.FAILED),
            List.of(PipelineStatus.RUNNING, PipelineStatus.RUNNING, PipelineStatus.FAILED), List.of(PipelineStatus.RUNNING));
    private static final List<MergeResult> REFUSALS = List.of(MergeResult.NOT_MERGEABLE, MergeResult.SHA_MISMATCH_OR_LOCKED,
            MergeResult.CANNOT_BE_MERGED_YET, MergeResult.BLOCKED, MergeResult.PIPELINE_RUNNING);

    final InMemoryChangeflow app = new InMemoryChangeflow();
    /** Every operation this world opened a submission for, in order (removals are found through the bindings). */
    final List<Submission> submissions = new ArrayList<>();
    /** Merge requests a person merged: the pipeline invariant is about this service's merges. */
    final Set<String> mergedByPerson = new LinkedHashSet<>();
    final SimStats stats;
    /** The moves of the wider world, and the second instance. */
    final SimWiderWorld wider;
    private final List<HandleApprovalCallback.Command> callbacks = new ArrayList<>();
    private final List<HandleDeployCallback.Command> reports = new ArrayList<>();
    private int ids;
    /** The real removal use cases, with operation IDs from this world's counter instead of random UUIDs. */
    private final RemoveGrant removeGrant = new RemoveGrant(app.operations, app.batches, app.targets, app.launcher,
            app.audit, app.clock, this::nextRemovalId);
    private final ExpireGrants expireGrants = new ExpireGrants(app.operations, app.batches, app.targets, app.launcher,
            app.approvalCheck, app.closeRequest, ExpireGrants.Policy.defaults(), this::nextRemovalId);
    /** Drift items, as the jOOQ adapter keeps them ({@code DriftsContract}). */
    final FakeDrifts drifts = new FakeDrifts();
    /** Drift detection's settings: the defaults (a run every 5 min, rows written in the last 30 s left for the next). */
    final DetectDrift.Policy driftPolicy = DetectDrift.Policy.defaults();
    /** The real drift detection, its removals through the normal workflow with this world's removal IDs. */
    final DetectDrift detectDrift = new DetectDrift(app.targets, app.gitlab, new FakeLineOrigins(app.gitlab), app.operations,
            drifts, new RemoveDriftLine(app.operations, app.targets, app.batches, drifts, app.clock, this::nextRemovalId),
            app.clock, driftPolicy);
    /** The access invariant and what it remembers of the detection runs. */
    final SimAccess access = new SimAccess();
    /** The moves of the full world: operators' drift actions and batch rounds, jobs run twice, other deploy reports. */
    final SimOperations operations;
    /** How many recurring jobs the script's JOB actions choose from: the classic world's eight, or with drift detection. */
    private final int jobs;

    /**
     * @param skew  how far the second instance's clock is ahead of the first's (negative: behind)
     * @param world which world's script drives it: a classic script keeps the eight jobs it was found with, drift
     *              detection runs in its quiet phase only
     */
    SimWorld(SimStats stats, Duration skew, SimAction.World world) {
        this.stats = stats;
        this.wider = new SimWiderWorld(this, skew);
        this.operations = new SimOperations(this);
        this.jobs = world == SimAction.World.CLASSIC ? 8 : JOBS;
        app.gitlab.pipelinesNeedNotPass().conflictsOnChangedFiles().mergeAnswersCommitOnAlternateMerges();
        // drift detection ran before the first request: its baseline is main without grants, so every stray is drift
        access.detect(this);
    }

    /** The recurring jobs: stuck sweep, transient retries, approval check, deploy deadline, expiry, batch rounds, batch
     * sweep, reconciliation, drift detection. */
    static final int JOBS = 9;

    private OperationId nextRemovalId() {
        return OperationId.of(String.format("0c0c0000-0000-4000-8000-%012d", ++ids));
    }

    /** Applies {@code action}; the trace line of what happened. */
    String act(SimAction action) {
        stats.count(action.kind());
        return guarded(() -> switch (action.kind()) {
                case SUBMIT -> submit(action);
                case RESUBMIT -> pick(submissions, action.pick(), s -> result(app.submit(s.subjectId(), s)));
                case GIVE_UP -> pick(inEffect(), action.pick(), op -> result(removeGrant.remove(
                        RemoveGrant.Command.giveUp(op.subject().value(), op.target().value(), op.subject().value()))));
                case REVOKE -> pick(inEffect(), action.pick(), op -> result(removeGrant.remove(
                        RemoveGrant.Command.revoke(op.subject().value(), op.target().value(), "otto", Map.of("reason", "sim")))));
                case DECIDE -> decide(action);
                case REDELIVER_CALLBACK -> pick(callbacks, action.pick(), cb -> "redelivered " + cb.decision() + " for "
                        + cb.operationId() + ": " + app.approvalCallback.handle(cb));
                case DEPLOY_REPORT -> deployReport(action);
                case NEXT_PIPELINE -> {
                    var statuses = PIPELINES.get(action.arg() % PIPELINES.size());
                    var delay = (action.arg() >> 4) % 3;
                    app.gitlab.nextPipeline(statuses.toArray(PipelineStatus[]::new)).nextPipelineDelay(delay);
                    yield "next pipelines " + statuses + ", created after " + delay + " looks";
                }
                case FINISH_PIPELINE -> pick(openMergeRequests(), action.pick(), iid -> {
                    var status = action.arg() % 3 == 0 ? PipelineStatus.FAILED : PipelineStatus.PASSED;
                    app.gitlab.setPipeline(FakeTargets.PROJECT, iid, status);
                    return "pipeline of !" + iid + " " + status;
                });
                case PUSH -> pick(openMergeRequests().stream().filter(iid -> app.gitlab.hasBranch(FakeTargets.PROJECT,
                        app.gitlab.find(FakeTargets.PROJECT, iid).orElseThrow().sourceBranch())).toList(), action.pick(), iid -> {
                    // a push GitLab runs no pipeline for (e.g. [skip ci]) has no statuses
                    var statuses = action.arg() % (PIPELINES.size() + 1) == PIPELINES.size() ? List.<PipelineStatus>of()
                            : PIPELINES.get(action.arg() % (PIPELINES.size() + 1));
                    return "pushed to !" + iid + " with pipeline " + statuses + ", head "
                            + app.gitlab.pushExternally(FakeTargets.PROJECT, iid, statuses.toArray(PipelineStatus[]::new));
                });
                case PERSON_MERGES -> pick(openMergeRequests(), action.pick(), iid -> {
                    app.gitlab.mergeExternally(FakeTargets.PROJECT, iid);
                    if (mergeRequestsIn(MergeRequestState.MERGED).contains(iid)) {
                        mergedByPerson.add(FakeTargets.PROJECT + "!" + iid);
                        return "a person merged !" + iid;
                    }
                    return "a person could not merge !" + iid + " (conflict)";
                });
                case PERSON_CLOSES -> pick(openMergeRequests(), action.pick(), iid -> {
                    app.gitlab.closeExternally(FakeTargets.PROJECT, iid);
                    return "a person closed !" + iid;
                });
                case GITLAB_FAULT -> gitlabFault(action);
                case LOST_ANSWER -> {
                    if (action.arg() % 2 == 0) {
                        app.gitlab.loseNextMergeAnswer();
                        yield "the next merge's answer is lost";
                    }
                    app.gitlab.loseNextApproveAnswer(InMemoryChangeflow.BOTS.get(action.pick() % 2));
                    yield "the next approval's answer is lost";
                }
                case MERGE_REFUSAL -> {
                    var refusal = REFUSALS.get(action.arg() % REFUSALS.size());
                    app.gitlab.nextMergeResults(refusal);
                    yield "the next merge answers " + refusal;
                }
                case APPROVALS_FAULT -> approvalsFault(action);
                case CRASH -> crash(action);
                case RUN_STEP -> runStep(action.pick());
                case ADVANCE -> advance(Duration.ofSeconds(1L << (action.arg() % 15)));
                case JOB -> job(action.arg());
                case RETRIGGER -> pick(open(), action.pick(), op -> result(app.retrigger.retrigger(
                        new RetriggerStep.Command(op.id().value(), "otto", Map.of("reason", "sim")))));
                case CLOSE -> pick(open(), action.pick(), op -> result(app.closeRequest.close(
                        new CloseChangeRequest.Command(op.id().value(), "otto", Map.of("reason", "sim")))));
                case OPERATOR -> operator(action);
                case RATE_LIMIT -> wider.rateLimit(action);
                case DELETE_BRANCH -> wider.deleteBranch(action);
                case HAND_EDIT -> wider.handEdit(action);
                case SECOND_INSTANCE -> wider.secondInstance(action);
                case INSTANCE_CRASH -> wider.instanceCrash(action);
                case DRIFT_ACTION -> operations.driftAction(action);
                case JOB_TWICE -> operations.jobTwice(action);
                case OTHER_DEPLOY_REPORT -> operations.otherDeployReport(action);
                case OPERATOR_BATCH_ROUND -> operations.operatorBatchRound(action);
                case PERSON_REOPENS -> operations.personReopens(action);
        });
    }

    /** {@code move}'s trace line; a crash it met, or an exception that reached the harness (counted), as its line. */
    private String guarded(Supplier<String> move) {
        try {
            return move.get();
        } catch (SimulatedCrash crash) {
            return "crashed (the step stays queued)";
        } catch (RuntimeException e) {
            stats.threw(e);
            return "threw " + e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    private String submit(SimAction action) {
        var subject = SUBJECTS.get(action.pick() % SUBJECTS.size());
        var target = TARGETS.get((action.pick() >> 4) % TARGETS.size());
        var requester = (action.arg() & 1) == 0 ? subject : "rita";
        var until = (action.arg() & 2) == 0 ? null : app.clock.instant().plus(Duration.ofHours(1 + (action.arg() >> 4) % 48));
        app.config.set(Settings.APPROVE_FIRST, Boolean.toString((action.arg() & 4) == 0));
        var submission = new Submission(String.format("0b0b0000-0000-4000-8000-%012d", ++ids), target.value(), subject,
                "simulated", until == null ? null : until.toString());
        var result = app.submit(requester, submission);
        submissions.add(submission);
        return requester + " submits " + subject + " on " + target.value() + " as " + submission.operationId() + ": "
                + result.getClass().getSimpleName();
    }

    private String decide(SimAction action) {
        var waiting = app.operations.all().stream()
                .filter(op -> op.binding().filter(BindingStatus.AWAITING_APPROVAL::contains).isPresent()
                        && app.approvals.ticketOf(op.id()).isPresent())
                .toList();
        return pick(waiting, action.pick(), op -> {
            var roll = action.arg() % 10;
            var decision = roll < 7 ? Decision.APPROVED : roll < 9 ? Decision.REJECTED : Decision.WITHDRAWN;
            var requestId = app.approvals.decide(op.id(), TicketStatus.valueOf(decision.name()));
            var ext = app.approvals.formOf(op.id()).map(f -> f.ext()).orElse(Map.of());
            var callback = new HandleApprovalCallback.Command(requestId, op.id().value(), decision, ext);
            var delivery = (action.arg() >> 4) % 4;
            if (delivery == 0) {
                stats.fault("approval callback lost");
                return "approver " + decision + " " + op.id() + ", callback lost";
            }
            callbacks.add(callback);
            if (delivery == 1) {
                stats.fault("approval callback late");
                return "approver " + decision + " " + op.id() + ", callback held back";
            }
            return "approver " + decision + " " + op.id() + ": " + app.approvalCallback.handle(callback);
        });
    }

    private String deployReport(SimAction action) {
        if (action.arg() % 4 == 0 && !reports.isEmpty()) {
            stats.fault("deploy report duplicated");
            var again = reports.get(action.pick() % reports.size());
            return "deploy report again for !" + again.mrIid() + ": " + app.deployCallback.handle(again).answer();
        }
        return pick(mergeRequestsIn(MergeRequestState.MERGED), action.pick(), iid -> {
            var status = action.arg() % 7 == 1 ? "failed" : "success";
            var report = new HandleDeployCallback.Command("dl-" + (++ids), FakeTargets.PROJECT, iid, status, List.of());
            reports.add(report);
            return "deploy report " + status + " for !" + iid + ": " + app.deployCallback.handle(report).answer();
        });
    }

    private String operator(SimAction action) {
        var awaitingDeploy = app.operations.all().stream()
                .filter(op -> op.binding().filter(BindingStatus.AWAITING_DEPLOY::contains).isPresent()).toList();
        var reason = Map.of("reason", "sim");
        return switch (action.arg() % 4) {
            case 0 -> pick(awaitingDeploy, action.pick(), op -> "confirm deployed " + op.id() + ": "
                    + result(app.confirmDeployed.confirm(new DeployActionCommand(op.id().value(), "otto", reason))));
            case 1 -> pick(awaitingDeploy, action.pick(), op -> "mark deploy failed " + op.id() + ": "
                    + result(app.markDeployFailed.mark(new DeployActionCommand(op.id().value(), "otto", reason))));
            case 2 -> pick(app.operations.all().stream().filter(op -> op.binding().equals(Optional.of(BindingStatus.HANDLE_FAILED)))
                    .toList(), action.pick(), op -> "readmit " + op.id() + ": "
                    + result(app.readmit.readmit(new ReadmitBatchMember.Command(op.id().value(), "otto", reason))));
            default -> {
                var target = TARGETS.get(action.pick() % TARGETS.size());
                var removals = (action.arg() >> 4) % 2 == 0 ? RemovalPolicy.APPROVAL : RemovalPolicy.NO_APPROVAL;
                app.targets.withRemovals(target, removals);
                yield "removals of " + target.value() + " now " + removals;
            }
        };
    }

    private String gitlabFault(SimAction action) {
        var method = GITLAB_METHODS.get(action.pick() % GITLAB_METHODS.size());
        Supplier<ExternalCallException> failure = switch (action.arg() % 4) {
            case 0 -> () -> ExternalCallException.status("gitlab", 502, "Bad Gateway");
            case 1 -> () -> ExternalCallException.status("gitlab", 500, "Internal Server Error");
            case 2 -> () -> ExternalCallException.status("gitlab", 409, "Conflict");
            default -> () -> new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "read timed out", null);
        };
        var times = 1 + (action.arg() >> 4) % 3;
        app.gitlab.failNext(method, times, failure);
        var example = failure.get();
        var answer = example.kind() == ExternalCallException.Kind.HTTP_STATUS ? String.valueOf(example.status())
                : example.kind().name();
        stats.fault("gitlab " + method + " " + answer);
        return "gitlab fails the next " + times + " " + method + " with " + answer;
    }

    private String approvalsFault(SimAction action) {
        return switch (action.arg() % 4) {
            case 0 -> {
                app.approvals.down(true);
                yield "the approval system is down";
            }
            case 1 -> {
                app.approvals.down(false);
                yield "the approval system is back";
            }
            case 2 -> {
                app.approvals.loseNextAnswer();
                yield "the approval system loses its next answer";
            }
            default -> {
                app.approvals.failNextSubmit(ExternalCallException.status("approval", 503, "Service Unavailable"));
                yield "the approval system fails the next submission with 503";
            }
        };
    }

    /**
     * The service crashes in the step {@link #runStep} would run next. Even {@code arg}: after the step's effects,
     * before the queue recorded its outcome, so the same step runs again (db-scheduler's dead-execution recovery).
     * Odd: at the step's state write, which never happens; the step stays queued and runs again later. A batch step's
     * writes are one transaction of the batch adapter, which the in-memory batches do not model piecewise: those crash
     * after their effects only.
     */
    private String crash(SimAction action) {
        var next = nextStep(action.pick());
        if (next.isEmpty()) {
            return "no step waits";
        }
        var step = next.get().step();
        var batchStep = step.kind() == StepKind.BATCH || step.kind() == StepKind.SETTLE_BATCH;
        if (action.arg() % 2 == 0 || batchStep) {
            stats.fault("crash after a step's effects");
            var ran = runStep(action.pick());
            app.queue.schedule(step, Duration.ZERO);
            return ran + "; crashed before its completion was recorded: " + step.kind() + " runs again";
        }
        stats.fault("crash at a step's state write");
        app.operations.failNextWrite(new SimulatedCrash());
        try {
            return runStep(action.pick()) + " (" + step.kind() + ")";
        } finally {
            app.operations.failNextWrite(null);
        }
    }

    Optional<ManualWorkQueue.Pending> nextStep(int pick) {
        var pending = app.queue.pending();
        var due = pending.stream().filter(p -> !p.due().isAfter(app.clock.instant()))
                .sorted(Comparator.comparingLong(ManualWorkQueue.Pending::sequence)).toList();
        if (!due.isEmpty()) {
            return Optional.of(due.get(Math.floorMod(pick, due.size())));
        }
        return pending.stream().min(Comparator.comparing(ManualWorkQueue.Pending::due)
                .thenComparingLong(ManualWorkQueue.Pending::sequence));
    }

    /** One due step (seed-chosen), else the earliest (moving the clock to it). */
    String runStep(int pick) {
        var ran = app.queue.runDue(pick) || app.queue.runNext();
        return ran ? "ran a step" : "no step waits";
    }

    String advance(Duration by) {
        app.clock.advance(by);
        var runs = 0;
        while (app.queue.runDue(0)) {
            runs++;
        }
        return "time +" + by + ", " + runs + " due steps ran";
    }

    /** Runs recurring job {@code which} (modulo the number this world's script chooses from) as its schedule would. */
    String job(int which) {
        return runJob(which % jobs);
    }

    /** The quiet world runs every job: {@code which} is one of {@link #JOBS}. */
    String quietJob(int which) {
        stats.count(SimAction.Kind.JOB);
        return guarded(() -> runJob(which));
    }

    private String runJob(int which) {
        return switch (which) {
            case 0 -> "sweep stuck: " + app.sweepStuck();
            case 1 -> "retry transient: " + app.retryTransientFailures();
            case 2 -> "approval check: " + result(app.approvalCheck.reconcile(new ReconcileApprovals.Command()));
            case 3 -> "deploy deadline: " + result(app.deployDeadline.run(new DeployDeadline.Command()));
            case 4 -> "expire grants: " + result(expireGrants.run(new ExpireGrants.Command()));
            case 5 -> "batch rounds: " + app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command()).size();
            case 6 -> "sweep batches: " + app.sweepBatches.sweep(new SweepStuckBatches.Command());
            case 7 -> "reconcile merged: " + result(app.reconcileMerged());
            default -> access.detect(this);
        };
    }

    /** The world goes quiet: GitLab and the approval system stop failing, pipelines of new heads pass. */
    void quiet() {
        GITLAB_METHODS.forEach(app.gitlab::clearFailures);
        app.approvals.down(false);
        app.approvals.clearSubmitFailures();
        app.gitlab.nextPipeline(PipelineStatus.PASSED);
    }

    /** In the quiet phase the outside parties answer: approvers approve, pipelines finish, merges are deployed. */
    void partiesAnswer(Set<String> answered) {
        for (var op : app.operations.all()) {
            var ticket = app.approvals.statusOf(op.id());
            if (op.binding().filter(BindingStatus.AWAITING_APPROVAL::contains).isPresent() && ticket.isPresent()
                    && ticket.get() == TicketStatus.PENDING && answered.add("approve " + op.id())) {
                var requestId = app.approvals.decide(op.id(), TicketStatus.APPROVED);
                var ext = app.approvals.formOf(op.id()).map(f -> f.ext()).orElse(Map.of());
                app.approvalCallback.handle(new HandleApprovalCallback.Command(requestId, op.id().value(), Decision.APPROVED, ext));
            }
        }
        for (var iid : openMergeRequests()) {
            var head = app.gitlab.headSha(FakeTargets.PROJECT, iid);
            var now = app.gitlab.pipelineNow(FakeTargets.PROJECT, iid);
            if (now.map(p -> p.status() == PipelineStatus.RUNNING || !p.ranFor(head)).orElse(true)
                    && answered.add("pipeline " + head)) {
                app.gitlab.setPipeline(FakeTargets.PROJECT, iid, PipelineStatus.PASSED);
            }
        }
        for (var iid : mergeRequestsIn(MergeRequestState.MERGED)) {
            if (answered.add("deploy !" + iid)) {
                app.deployCallback.handle(new HandleDeployCallback.Command("dl-" + (++ids), FakeTargets.PROJECT, iid,
                        "success", List.of()));
            }
        }
    }

    List<Long> openMergeRequests() {
        return mergeRequestsIn(MergeRequestState.OPENED);
    }

    List<Long> mergeRequestsIn(MergeRequestState state) {
        return app.gitlab.mergeRequestsOf(FakeTargets.PROJECT).stream()
                .filter(iid -> app.gitlab.find(FakeTargets.PROJECT, iid).map(mr -> mr.state() == state).orElse(false))
                .toList();
    }

    private List<Operation> inEffect() {
        return app.operations.all().stream().filter(op -> op.binding().equals(Optional.of(BindingStatus.VALIDATED)))
                .toList();
    }

    private List<Operation> open() {
        return app.operations.all().stream().filter(op -> op.binding().filter(b -> !b.isTerminal()).isPresent()).toList();
    }

    private static <T> String pick(List<T> candidates, int pick, Function<T, String> act) {
        return candidates.isEmpty() ? "nothing to act on" : act.apply(candidates.get(pick % candidates.size()));
    }

    private static String result(Object result) {
        return result.getClass().getSimpleName();
    }

    /** What an injected crash throws: the step's state write never happened. */
    static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated crash before a state write", null, false, false);
        }
    }
}
