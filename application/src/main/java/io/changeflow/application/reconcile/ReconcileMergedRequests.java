package io.changeflow.application.reconcile;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.reconcile.ReconciliationDecision;
import io.changeflow.domain.reconcile.ReconciliationWindow;
import io.changeflow.domain.request.OperationId;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Converges requests whose deploy callback was lost (design 3.7). One run looks only at merged
 * requests last written inside the sliding window (older than {@code minAge}, so a callback still
 * on its way is not taken for lost; younger than {@code maxAge}, which bounds the work), with few
 * queries: the merged rows with their merge requests (one query), which of them a deploy report
 * named explicitly (one query), and the largest deployed merge request number per project (one index
 * read each). Then one comparison per row: named explicitly, or at or below its project's watermark,
 * advances to "in effect" through {@link MarkDeployed}; anything else waits for the next run.
 *
 * <p>Runs on a schedule (one instance at a time cluster-wide) and on an operator's request.
 */
public final class ReconcileMergedRequests {

    public static final int DEFAULT_LIMIT = 500;

    /** @param operator who asked for the run; empty for the scheduled run */
    public record Command(Optional<String> operator, int limit) {
        public static Command scheduled() {
            return new Command(Optional.empty(), DEFAULT_LIMIT);
        }
    }

    /** How many merged requests were looked at and how many this run advanced. */
    public record Result(int examined, int advanced) {}

    private final Operations operations;
    private final CallbackInbox inbox;
    private final MarkDeployed markDeployed;
    private final AuditLog audit;
    private final ReconciliationWindow window;
    private final Clock clock;

    public ReconcileMergedRequests(Operations operations, CallbackInbox inbox, MarkDeployed markDeployed, AuditLog audit,
                                   ReconciliationWindow window, Clock clock) {
        this.operations = operations;
        this.inbox = inbox;
        this.markDeployed = markDeployed;
        this.audit = audit;
        this.window = window;
        this.clock = clock;
    }

    public Result reconcile(Command command) {
        var merged = operations.mergedBetween(window.minAge(), window.maxAge(), Math.max(1, command.limit()));
        var named = merged.isEmpty()
                ? Set.<OperationId>of()
                : inbox.deployedOperations(merged.stream().map(Operation::id).toList());
        var watermarks = new HashMap<String, OptionalLong>();
        var advanced = 0;
        for (var op : merged) {
            if (op.mergeRequest().isEmpty()) {
                continue;
            }
            var mr = op.mergeRequest().get();
            var verdict = named.contains(op.id())
                    ? ReconciliationDecision.Verdict.ADVANCE
                    : ReconciliationDecision.byWatermark(mr.iid(), watermark(watermarks, mr.project()));
            if (verdict == ReconciliationDecision.Verdict.ADVANCE
                    && markDeployed.markDeployed(op.id(), new StepNote(
                            "In effect: inferred by reconciliation (the deploy report was lost).", "reconciliation")).isPresent()) {
                advanced++;
            }
        }
        var result = new Result(merged.size(), advanced);
        command.operator().ifPresent(operator -> audit.record(new AuditLog.Entry("reconcile:" + UUID.randomUUID(), operator,
                "RECONCILE", "reconciliation", Map.of("examined", String.valueOf(result.examined()),
                        "advanced", String.valueOf(result.advanced())), clock.instant())));
        return result;
    }

    private OptionalLong watermark(Map<String, OptionalLong> cache, String project) {
        return cache.computeIfAbsent(project, inbox::largestDeployedIid);
    }
}
