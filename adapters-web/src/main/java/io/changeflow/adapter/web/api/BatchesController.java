package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.port.out.Batches;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.batch.Bisection;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operators' API on merge batches: the newest batches with their members ({@link ListBatches}),
 * a batch round now ({@link RunBatchRound}, the same code path as the recurring task) and the
 * settlement of a stuck or blocked batch ({@link SettleBatch}: close, re-read, merged wins).
 * Authorization ({@code ops.operator} or {@code ops.admin}) and the audit of every write happen in
 * the authorization interceptor before these handlers run; the operator passed to the use cases is
 * the server-written {@code __authenticatedOperator} ({@link OperatorParameters}), never anything
 * the client sent.
 */
@RestController
public final class BatchesController {

    /** Longer than any partition the database can hold: such a partition cannot exist. */
    static final int MAX_PARTITION_LENGTH = 64;

    /** One batch; {@code members} are the members' request views (without timeline) in claim order. */
    record BatchJson(long id, String partition, String status, int depth, List<RequestJson> members,
                     RequestJson.@Nullable MergeRequestJson mergeRequest, @Nullable String detail, String createdAt, String updatedAt) {
        static BatchJson of(ListBatches.BatchView view) {
            var batch = view.batch();
            return new BatchJson(batch.id(), batch.partition(), batch.status().name(), batch.depth(),
                    view.members().stream().map(RequestJson::summaryOf).toList(),
                    batch.mergeRequest().map(RequestJson.MergeRequestJson::of).orElse(null), batch.detail(),
                    batch.createdAt().toString(), batch.updatedAt().toString());
        }
    }

    /**
     * What a round did: {@code batchId} and {@code members} when it claimed a batch; {@code scheduled}
     * false when the work queue was full (the batch was failed at once, its members wait again).
     */
    record RoundJson(String partition, @Nullable Long batchId, @Nullable List<String> members, @Nullable Boolean scheduled) {}

    /**
     * What a settlement did: {@code outcome} MERGED_WINS, FAILED or RETRY_LATER; {@code batchStatus}
     * the batch's status afterwards (null for RETRY_LATER: unchanged); {@code failureKind}
     * (TRANSIENT, DETERMINISTIC) and {@code plan} for FAILED: REQUEUE_ALL (every member waits again, no
     * blame), SPLIT (the members are retried in two halves), BLAME (the one member failed) or GIVE_UP
     * (the split limit is reached: every member failed).
     */
    record SettlementJson(long batchId, String outcome, @Nullable String batchStatus, @Nullable String failureKind, @Nullable String plan) {}

    private static final Logger log = LoggerFactory.getLogger(BatchesController.class);

    private final ListBatches list;
    private final RunBatchRound round;
    private final SettleBatch settle;

    public BatchesController(ListBatches list, RunBatchRound round, SettleBatch settle) {
        this.list = list;
        this.round = round;
        this.settle = settle;
    }

    /**
     * Newest first, {@code limit} 1-500, only those in {@code status} (RUNNING, SUCCEEDED, FAILED, BLOCKED, any case)
     * and of {@code partition} when given (blank: no filter); filtered before the limit.
     */
    @Answers(summary = "The newest batches with their members, by status and partition")
    @GetMapping("/ops/batches")
    ApiResponse<List<BatchJson>> recent(@RequestParam(defaultValue = "50") int limit,
            @RequestParam(required = false) @Nullable String status,
            @RequestParam(required = false) @Nullable String partition) {
        var filter = new Batches.Filter(ListFilters.batchStatus(status), ListFilters.partition(partition, MAX_PARTITION_LENGTH));
        return ApiResponse.ok(list.list(new ListBatches.Command(Math.clamp(limit, 1, ListBatches.MAX_LIMIT), filter))
                .stream().map(BatchJson::of).toList());
    }

    /** 200 CLAIMED, SLOT_OCCUPIED or NOTHING_TO_CLAIM. */
    @Answers(summary = "Run a batch round now", codes = {"CLAIMED", "SLOT_OCCUPIED", "NOTHING_TO_CLAIM"})
    @PostMapping("/ops/batch-rounds")
    ApiResponse<RoundJson> round(@RequestParam(defaultValue = Target.DEFAULT_PARTITION) String partition,
            HttpServletRequest request) {
        var operator = operator(request);
        var wanted = partition.isBlank() ? Target.DEFAULT_PARTITION : partition.strip();
        if (wanted.length() > MAX_PARTITION_LENGTH) {
            throw new ApiException(ErrorCode.INVALID_REQUEST, "Unknown partition.",
                    Map.of("fieldErrors", List.of(new FieldError("partition", "TOO_LONG",
                            "a partition has at most " + MAX_PARTITION_LENGTH + " characters"))),
                    "partition too long");
        }
        var result = round.round(RunBatchRound.Command.byOperator(wanted, operator.operator(), operator.forAudit()));
        return switch (result) {
            case RunBatchRound.Result.NothingToClaim nothing -> ApiResponse.of("NOTHING_TO_CLAIM",
                    "No approved request is waiting in partition " + wanted + ".", new RoundJson(wanted, null, null, null));
            case RunBatchRound.Result.SlotOccupied occupied -> ApiResponse.of("SLOT_OCCUPIED",
                    "Another batch of partition " + wanted + " is running or blocked; settle it or wait for it to end.",
                    new RoundJson(wanted, null, null, null));
            case RunBatchRound.Result.Claimed claimed -> ApiResponse.of("CLAIMED", claimed.scheduled()
                            ? "Batch " + claimed.batchId() + " claimed " + claimed.members().size() + " request(s)."
                            : "Batch " + claimed.batchId() + " could not start (the work queue is full); its requests wait "
                                    + "for a later round.",
                    new RoundJson(wanted, claimed.batchId(), claimed.members().stream().map(OperationId::value).toList(),
                            claimed.scheduled()));
        };
    }

    /** 200 SETTLED (outcome MERGED_WINS, FAILED or RETRY_LATER); 404 NOT_FOUND; 409 ALREADY_SETTLED. */
    @Answers(summary = "Settle a stuck or blocked batch",
            codes = "SETTLED", errors = {ErrorCode.NOT_FOUND, ErrorCode.ALREADY_SETTLED})
    @PostMapping("/ops/batches/{id}/settle")
    ApiResponse<SettlementJson> settle(@PathVariable String id, HttpServletRequest request) {
        var operator = operator(request);
        long batchId;
        try {
            batchId = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw ApiException.of(ErrorCode.NOT_FOUND, "settle of a batch id that is no number: " + clip(id));
        }
        var result = settle.settle(SettleBatch.Command.byOperator(batchId, operator.operator(), operator.forAudit()));
        return switch (result) {
            case SettleBatch.Result.NotFound notFound -> throw ApiException.of(ErrorCode.NOT_FOUND,
                    "settle of unknown batch " + batchId);
            case SettleBatch.Result.AlreadySettled settled -> throw ApiException.of(ErrorCode.ALREADY_SETTLED,
                    "batch " + batchId + " had already ended (" + settled.batch().status() + ")");
            case SettleBatch.Result.MergedWins merged -> ApiResponse.of("SETTLED",
                    "The merge request was merged: the batch and its requests are recorded as merged.",
                    new SettlementJson(batchId, "MERGED_WINS", status(merged.batch()), null, null));
            case SettleBatch.Result.Failed failed -> ApiResponse.of("SETTLED",
                    "The batch is recorded as failed; its merge request (if any) is closed.",
                    new SettlementJson(batchId, "FAILED", status(failed.batch()), failed.kind().name(),
                            plan(failed.plan())));
            case SettleBatch.Result.RetryLater later -> ApiResponse.of("SETTLED", later.reason(),
                    new SettlementJson(batchId, "RETRY_LATER", null, null, null));
        };
    }

    /** What became of the members, as a stable name. */
    private static String plan(Bisection.Plan<OperationId> plan) {
        return switch (plan) {
            case Bisection.Plan.RequeueAll<OperationId> all -> "REQUEUE_ALL";
            case Bisection.Plan.Split<OperationId> split -> "SPLIT";
            case Bisection.Plan.Blame<OperationId> blame -> "BLAME";
            case Bisection.Plan.GiveUp<OperationId> giveUp -> "GIVE_UP";
        };
    }

    private static String status(Batch batch) {
        return batch.status().name();
    }

    /** The server-written operator; without it (a path the authorization table does not cover) nothing is done. */
    private static OperatorParameters operator(HttpServletRequest request) {
        return OperatorParameters.of(request).orElseThrow(() -> {
            log.error("batch write {} without a server-written operator: is the path in changeflow.authorization.rules?",
                    request.getRequestURI());
            return ApiException.of(ErrorCode.ACCESS_DENIED, "no authenticated operator");
        });
    }

    private static String clip(String value) {
        var clean = value.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }
}
