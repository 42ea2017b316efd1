package io.changeflow.application.simulation;

import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.drift.ActOnDrift;
import io.changeflow.application.drift.RemoveDriftLine;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The moves of the full world (issue 30, docs/reliability.md "Not simulated yet" as it was): an operator acting on drift
 * items, a recurring job run by both instances at once, deploy reports about merge requests that are not this
 * service's (or not merged, or naming other requests), batch rounds an operator starts, and a person reopening a closed
 * merge request. Each drives the real use case, with IDs from this world's counters so a seed replays exactly.
 */
final class SimOperations {

    static final String OPERATOR = "otto";

    private final SimWorld world;
    /** The operator's drift actions, removals and adoptions through the normal workflow (bootstrap wires the same). */
    private final ActOnDrift actOnDrift;
    /** The merge requests a person reopened. */
    final Set<Long> reopened = new LinkedHashSet<>();
    private int adoptions;
    private int deliveries;

    SimOperations(SimWorld world) {
        this.world = world;
        var app = world.app;
        var removals = new RemoveDriftLine(app.operations, app.targets, app.batches, world.drifts, app.clock,
                () -> OperationId.of(String.format("0d0d0000-0000-4000-8000-%012d", ++adoptions)));
        this.actOnDrift = new ActOnDrift(world.drifts, removals::open, app.submit, app.audit, app.clock,
                () -> OperationId.of(String.format("0a0a0000-0000-4000-8000-%012d", ++adoptions)));
    }

    /**
     * An operator acts on one of the active drift items (docs/workflow.md, "Drift: what an operator does"): removes its
     * line through the workflow, adopts it as a grant (no expiry, or until a day or a week from now; an approver decides
     * the adopting request), or acknowledges it. A move the item's table refuses answers as the API would.
     */
    String driftAction(SimAction action) {
        var items = world.drifts.list(Drifts.Query.in(DriftStatus.ACTIVE, 1000)).stream()
                .sorted(Comparator.comparingLong(DriftItem::id)).toList();
        if (items.isEmpty()) {
            return "no drift item to act on";
        }
        var item = items.get(action.pick() % items.size());
        ActOnDrift.Action what = switch (action.arg() % 3) {
            case 0 -> new ActOnDrift.Action.Remove();
            case 1 -> new ActOnDrift.Action.Adopt(switch ((action.arg() >> 2) % 3) {
                case 0 -> "";
                case 1 -> world.app.clock.instant().plus(Duration.ofDays(1)).toString();
                default -> world.app.clock.instant().plus(Duration.ofDays(7)).atZone(ZoneOffset.UTC).toLocalDate().toString();
            });
            default -> new ActOnDrift.Action.Acknowledge("known: the simulation's operator leaves it");
        };
        world.stats.fault("operator's drift action " + what.getClass().getSimpleName());
        var result = actOnDrift.act(new ActOnDrift.Command(String.valueOf(item.id()), what, OPERATOR, Map.of()));
        return "operator " + what.getClass().getSimpleName() + " on drift item " + item.id() + " (" + item.kind() + " "
                + item.status() + "): " + result.code();
    }

    /**
     * Two instances run one recurring job at once (db-scheduler runs a recurring task on one instance at a time; a
     * job's run that outlives the dead-execution timeout, or a scheduler of another release during a rolling deploy,
     * runs it twice): the first instance's run is interrupted at its first GitLab call (or, outside the batch jobs, its
     * first state write), the second instance runs the whole job there, then the first carries on with what it read.
     */
    String jobTwice(SimAction action) {
        var which = action.arg() % SimWorld.JOBS;
        var batchJob = which == 5 || which == 6;
        var second = new String[1];
        Runnable interleave = () -> {
            world.app.gitlab.beforeEveryCall(null);
            world.app.operations.beforeNextWrite(null);
            if (second[0] == null) {
                second[0] = "";
                second[0] = world.wider.asSecond(() -> world.quietJob(which));
            }
        };
        world.app.gitlab.beforeEveryCall(interleave);
        if (!batchJob) {
            world.app.operations.beforeNextWrite(interleave);
        }
        try {
            var first = world.quietJob(which);
            if (second[0] == null) {
                second[0] = world.wider.asSecond(() -> world.quietJob(which)) + " (after the first ended)";
            } else {
                world.stats.fault("recurring job run by two instances at once");
            }
            return "job " + which + " on two instances: 1: " + first + "; 2: " + second[0];
        } finally {
            world.app.gitlab.beforeEveryCall(null);
            world.app.operations.beforeNextWrite(null);
        }
    }

    /**
     * The deploy pipeline reports what is not one of this service's merged merge requests: a merge request GitLab does
     * not have, one still open, a merged one naming requests that are not its own, or the default branch at its current
     * commit naming none (docs/api.md, the deploy callback).
     */
    String otherDeployReport(SimAction action) {
        var app = world.app;
        var id = "dl-other-" + (++deliveries);
        var status = action.arg() % 5 == 1 ? HandleDeployCallback.FAILED : HandleDeployCallback.SUCCESS;
        world.stats.fault("deploy report for another merge request");
        return switch ((action.arg() >> 3) % 4) {
            case 0 -> {
                var iid = 9000L + action.pick() % 100;
                yield "deploy report " + status + " for !" + iid + ", unknown to GitLab: "
                        + app.deployCallback.handle(new HandleDeployCallback.Command(id, FakeTargets.PROJECT, iid, status,
                        List.of())).answer();
            }
            case 1 -> pickIid(world.openMergeRequests(), action, iid -> "deploy report " + status + " for !" + iid
                    + ", still open: " + app.deployCallback.handle(new HandleDeployCallback.Command(id, FakeTargets.PROJECT,
                    iid, status, List.of())).answer());
            case 2 -> pickIid(world.mergeRequestsIn(MergeRequestState.MERGED), action, iid -> {
                var others = app.operations.all().stream().map(op -> op.id().value()).sorted()
                        .skip(action.pick() % 3).limit(2).toList();
                return "deploy report " + status + " for !" + iid + " naming " + others + ": "
                        + app.deployCallback.handle(new HandleDeployCallback.Command(id, FakeTargets.PROJECT, iid, status,
                        others)).answer();
            });
            default -> {
                // a person's commit on main that touches no grant file, which the deploy pipeline then rolls out
                var sha = app.gitlab.commitOnMain(FakeTargets.PROJECT);
                yield "deploy report " + status + " for a person's commit on main " + sha + ": " + app.deployCallback.handle(
                        HandleDeployCallback.Command.atCommit(id, FakeTargets.PROJECT, Optional.of("main"), sha, status,
                                List.of())).answer();
            }
        };
    }

    /** An operator starts a batch round of a partition now (the ops console's button), besides the scheduled ones. */
    String operatorBatchRound(SimAction action) {
        var partitions = SimWorld.TARGETS.stream().map(world.app.targets::find).flatMap(Optional::stream)
                .filter(t -> t.batchable()).map(t -> t.partition()).distinct().sorted().toList();
        if (partitions.isEmpty()) {
            return "no batchable partition";
        }
        var partition = partitions.get(action.pick() % partitions.size());
        var result = world.app.batchRound.round(RunBatchRound.Command.byOperator(partition, OPERATOR, Map.of()));
        return "operator's batch round of " + partition + ": " + result.getClass().getSimpleName();
    }

    /**
     * A person reopens a closed merge request on GitLab, as GitLab allows while its source branch exists
     * ({@code MergeRequest#reopenable?}: {@code closed? && !source_project_missing? && source_branch_exists?},
     * {@code app/models/merge_request.rb} of gitlabhq/gitlabhq; its state machine's {@code reopen: closed => opened})
     * and no other merge request from that branch is open (GitLab refuses that reopen: {@code validate_branches}, see
     * {@code FakeMergeRequests#reopenExternally}; finding S10 was a person reopening one next to an open one, which the
     * fake allowed and GitLab does not).
     */
    String personReopens(SimAction action) {
        var app = world.app;
        var open = world.mergeRequestsIn(MergeRequestState.OPENED).stream()
                .map(iid -> app.gitlab.find(FakeTargets.PROJECT, iid).orElseThrow().sourceBranch()).collect(Collectors.toSet());
        var reopenable = world.mergeRequestsIn(MergeRequestState.CLOSED).stream().filter(iid -> {
            var branch = app.gitlab.find(FakeTargets.PROJECT, iid).orElseThrow().sourceBranch();
            return app.gitlab.hasBranch(FakeTargets.PROJECT, branch) && !open.contains(branch);
        }).toList();
        return pickIid(reopenable, action, iid -> {
            app.gitlab.reopenExternally(FakeTargets.PROJECT, iid);
            reopened.add(iid);
            world.stats.fault("merge request reopened by a person");
            return "a person reopened !" + iid;
        });
    }

    private static String pickIid(List<Long> iids, SimAction action, java.util.function.Function<Long, String> act) {
        return iids.isEmpty() ? "nothing to act on" : act.apply(iids.get(action.pick() % iids.size()));
    }
}
