package io.changeflow.application.reconcile;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.recovery.FairScan;
import io.changeflow.application.workflow.AuditTrail;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.reconcile.Matching;
import io.changeflow.domain.reconcile.ReconciliationDecision;
import io.changeflow.domain.reconcile.ReconciliationDecision.Evidence;
import io.changeflow.domain.reconcile.ReconciliationMatching;
import io.changeflow.domain.state.BindingStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Converges requests whose deploy callback was lost (design 3.7), without inferring what the deploy
 * pipeline did not say (unless a project's {@link Matching} mode allows it). A fair scan of the candidates,
 * one decision per record ({@link ReconciliationDecision#decide}); design: docs/workflow.md.
 */
public final class ReconcileMergedRequests {

    public static final int DEFAULT_LIMIT = 500;
    /** The scan's name in {@link ScanCursors}. */
    public static final String SCAN = "reconcile-deployments";
    /** What reconciliation looks at unless configured otherwise. */
    /**
     * Merged and waiting for the report, and merged past the deploy deadline (DEPLOY_UNCONFIRMED: a person was
     * asked, but evidence found later still advances it). A failed deploy is left to a new report or a person.
     */
    public static final Set<BindingStatus> DEFAULT_CANDIDATES = Set.of(BindingStatus.MERGED, BindingStatus.DEPLOY_UNCONFIRMED);
    public static final Duration DEFAULT_MIN_AGE = Duration.ofMinutes(10);

    /** @param operator who asked for the run; empty for the scheduled run */
    public record Command(Optional<String> operator, int limit) {
        public static Command scheduled() {
            return new Command(Optional.empty(), DEFAULT_LIMIT);
        }
    }

    /** How many candidates were looked at and how many this run advanced. */
    public record Result(int examined, int advanced) {}

    /**
     * @param minAge     a candidate's last state write is at least this old (late is not lost)
     * @param candidates the binding statuses whose requests wait for a deploy report (at least one)
     * @param matching   the matching mode of every project
     */
    public record Policy(Duration minAge, Set<BindingStatus> candidates, ReconciliationMatching matching) {
        public Policy {
            Objects.requireNonNull(minAge, "minAge");
            Objects.requireNonNull(matching, "matching");
            if (minAge.isNegative() || candidates.isEmpty()) {
                throw new IllegalArgumentException("need a non-negative minimum age and at least one candidate status");
            }
            candidates = Set.copyOf(EnumSet.copyOf(candidates));
        }

        public static Policy defaults() {
            return new Policy(DEFAULT_MIN_AGE, DEFAULT_CANDIDATES, ReconciliationMatching.exact());
        }

        public Policy withMatching(ReconciliationMatching other) {
            return new Policy(minAge, candidates, other);
        }
    }

    private static final String EXACT_NOTE = "In effect: a deploy report named it (found by reconciliation; its own callback was lost).";
    private static final String INFERRED_NOTE = "In effect: inferred by reconciliation (the deploy report of a merge request "
            + "merged after it arrived; its own report was lost).";

    private final Operations operations;
    private final CallbackInbox inbox;
    private final FairScan scan;
    private final MarkDeployed markDeployed;
    private final AuditTrail audit;
    private final Policy policy;

    public ReconcileMergedRequests(Operations operations, CallbackInbox inbox, ScanCursors cursors, MarkDeployed markDeployed,
                                   AuditLog audit, Policy policy, Clock clock) {
        this.operations = operations;
        this.inbox = inbox;
        this.scan = new FairScan(operations, cursors, SCAN);
        this.markDeployed = markDeployed;
        this.audit = new AuditTrail(audit, clock);
        this.policy = policy;
    }

    public Result reconcile(Command command) {
        var page = scan.next(policy.candidates(), policy.minAge(), Math.max(1, command.limit()));
        var advances = decide(page).stream()
                .map(decided -> new Operations.Pinned(decided.op(), new StepNote(decided.inferred() ? INFERRED_NOTE : EXACT_NOTE,
                        "reconciliation")))
                .toList();
        var advanced = advances.isEmpty() ? 0 : markDeployed.markDeployed(advances).size();
        var result = new Result(page.size(), advanced);
        command.operator().ifPresent(operator -> audit.record("reconcile", operator, "RECONCILE", "reconciliation",
                Map.of("examined", String.valueOf(result.examined()), "advanced", String.valueOf(result.advanced()))));
        return result;
    }

    private record Advance(Operation op, boolean inferred) {}

    private List<Advance> decide(List<Operation> page) {
        var merged = page.stream().filter(op -> op.mergeRequest().isPresent()).toList();
        if (merged.isEmpty()) {
            return List.of();
        }
        var named = inbox.deployedOperations(merged.stream().map(Operation::id).toList());
        var reportedOwn = inbox.reportedWithoutOperationIds(mergeRequests(merged));
        var advances = new ArrayList<Advance>();
        var undecided = new ArrayList<Operation>();
        for (var op : merged) {
            if (named.contains(op.id()) || reportedOwn.contains(op.mergeRequest().get())) {
                advances.add(new Advance(op, false));
            } else if (policy.matching().of(op.mergeRequest().get().project()).infers()) {
                undecided.add(op);
            }
        }
        if (undecided.isEmpty()) {
            return advances;
        }
        var orders = operations.mergeOrders(mergeRequests(undecided));
        var watermarks = watermarks(undecided, orders);
        for (var op : undecided) {
            var mr = op.mergeRequest().get();
            var order = Optional.ofNullable(orders.get(mr)).map(OptionalLong::of).orElse(OptionalLong.empty());
            var evidence = new Evidence(false, false, order, watermarks.getOrDefault(mr.project(), OptionalLong.empty()));
            if (ReconciliationDecision.decide(policy.matching().of(mr.project()), evidence)
                    == ReconciliationDecision.Verdict.ADVANCE) {
                advances.add(new Advance(op, true));
            }
        }
        return advances;
    }

    /** Per project: the latest reported merge order at or above the oldest merge order among its undecided records. */
    private Map<String, OptionalLong> watermarks(List<Operation> undecided, Map<MergeRequestRef, Long> orders) {
        var floors = new HashMap<String, Long>();
        for (var op : undecided) {
            var mr = op.mergeRequest().get();
            var order = orders.get(mr);
            if (order != null) {
                floors.merge(mr.project(), order, Math::min);
            }
        }
        var watermarks = new HashMap<String, OptionalLong>();
        floors.forEach((project, floor) -> watermarks.put(project, inbox.latestReportedMergeOrder(project, floor,
                policy.matching().of(project) == Matching.WATERMARK
                        ? CallbackInbox.Reports.ALL
                        : CallbackInbox.Reports.WITHOUT_OPERATION_IDS)));
        return watermarks;
    }

    private static Set<MergeRequestRef> mergeRequests(List<Operation> ops) {
        var refs = new LinkedHashSet<MergeRequestRef>();
        ops.forEach(op -> refs.add(op.mergeRequest().orElseThrow()));
        return refs;
    }
}
