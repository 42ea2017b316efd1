package io.changeflow.adapter.web.api;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.deploy.ConfirmDeployed;
import io.changeflow.application.deploy.DeployActionCommand;
import io.changeflow.application.deploy.MarkDeployFailed;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.query.ShowStats;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.state.BindingStatus;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operators' API on requests: find (stuck) requests, everything about one, re-trigger the step
 * where it stopped, close it without merging, confirm a merged one in effect or mark its rollout
 * failed, run the lost-callback reconciliation now, and the legacy statistics map. Authorization ({@code ops.operator} or {@code ops.admin}) and the audit of
 * every write happen in the authorization interceptor before these handlers run; the operator
 * passed to the use cases is the server-written {@code __authenticatedOperator}
 * ({@link OperatorParameters}), never anything the client sent.
 */
@RestController
public final class OperationsController {

    /** Everything about one request: the request view's fields, then both layers, history, audit and actions. */
    record DetailsJson(@JsonUnwrapped RequestJson request, RequestJson.@Nullable BindingJson binding, List<HistoryJson> history,
                       List<AuditJson> audit, List<String> allowedActions, @Nullable String retriggerStep) {}

    /** One state write, both layers before and after. */
    record HistoryJson(String event, @Nullable String fromStep, String toStep, @Nullable String fromStatus, @Nullable String toStatus, @Nullable String detail,
                       @Nullable String actor, String at) {
        static HistoryJson of(HistoryEntry h) {
            return new HistoryJson(h.event().name(), h.fromStep().map(Enum::name).orElse(null), h.toStep().name(),
                    h.fromBinding().map(Enum::name).orElse(null), h.toBinding().map(Enum::name).orElse(null), h.detail(),
                    h.actor(), h.at().toString());
        }
    }

    /** One audit entry (its parameters were masked and truncated before they were stored). */
    record AuditJson(String actor, String action, @Nullable String subject, @Nullable Map<String, String> parameters, String at) {
        static AuditJson of(AuditLog.Entry e) {
            return new AuditJson(e.actor(), e.action(), e.subject(), e.parameters(), e.at().toString());
        }
    }

    /** What a re-trigger did. */
    record RetriggerJson(String operationId, String step, boolean scheduled) {}

    /** The request a deploy action changed. */
    record DeployActionJson(String operationId, String status) {}

    /** The console's names of the deploy actions, offered in {@code allowedActions} where the table allows them. */
    static final String CONFIRM_DEPLOYED = "CONFIRM_DEPLOYED";
    static final String MARK_DEPLOY_FAILED = "MARK_DEPLOY_FAILED";

    /** The legacy statistics: these keys in this order, integers (no envelope; the shape is frozen). */
    @JsonPropertyOrder({"requests", "inProgress", "validated", "failed", "rejected", "closed"})
    record StatsJson(long requests, long inProgress, long validated, long failed, long rejected, long closed) {}

    /** What a reconciliation run did. */
    record ReconciliationJson(int examined, int advanced) {}

    static final int DEFAULT_FIND_LIMIT = 100;
    /** {@code stuckForSeconds} above this (ten years) is read as this. */
    static final long MAX_STUCK_FOR_SECONDS = Duration.ofDays(3650).toSeconds();

    private static final Logger log = LoggerFactory.getLogger(OperationsController.class);

    private final FindStuckRequests find;
    private final ShowOperation show;
    private final RetriggerStep retrigger;
    private final CloseChangeRequest close;
    private final ReconcileMergedRequests reconcile;
    private final ShowStats stats;
    private final ConfirmDeployed confirmDeployed;
    private final MarkDeployFailed markDeployFailed;

    public OperationsController(FindStuckRequests find, ShowOperation show, RetriggerStep retrigger, CloseChangeRequest close,
            ReconcileMergedRequests reconcile, ShowStats stats, ConfirmDeployed confirmDeployed,
            MarkDeployFailed markDeployFailed) {
        this.find = find;
        this.show = show;
        this.retrigger = retrigger;
        this.close = close;
        this.reconcile = reconcile;
        this.stats = stats;
        this.confirmDeployed = confirmDeployed;
        this.markDeployFailed = markDeployFailed;
    }

    /**
     * Requests in {@code status} (any non-terminal one when absent) on {@code targetKey} (every target when absent)
     * untouched for {@code stuckForSeconds}, oldest first.
     */
    @Answers(summary = "Find requests untouched for a while")
    @GetMapping("/ops/operations")
    ApiResponse<List<RequestJson>> find(@RequestParam(required = false) String status,
            @RequestParam(required = false) String targetKey,
            @RequestParam(defaultValue = "0") long stuckForSeconds, @RequestParam(defaultValue = "100") int limit) {
        var wanted = ListFilters.status(status);
        var target = ListFilters.target(targetKey);
        var stuckFor = Duration.ofSeconds(Math.clamp(stuckForSeconds, 0, MAX_STUCK_FOR_SECONDS));
        return ApiResponse.ok(find.find(new FindStuckRequests.Command(wanted, target, stuckFor, limit)).stream()
                .map(RequestJson::summaryOf).toList());
    }

    @Answers(summary = "Everything about one request", errors = ErrorCode.NOT_FOUND)
    @GetMapping("/ops/operations/{operationId}")
    ApiResponse<DetailsJson> show(@PathVariable String operationId) {
        var details = show.show(new ShowOperation.Command(operationId))
                .orElseThrow(() -> ApiException.of(ErrorCode.NOT_FOUND, "no operation " + clip(operationId)));
        return ApiResponse.ok(new DetailsJson(RequestJson.of(details.request()),
                details.binding().map(RequestJson.BindingJson::of).orElse(null),
                details.history().stream().map(HistoryJson::of).toList(),
                details.audit().stream().map(AuditJson::of).toList(),
                allowedActions(details),
                details.retriggerStep().map(Enum::name).orElse(null)));
    }

    /** 200 RETRIGGERED (or NOT_SCHEDULED when the work queue is full); 404; 409 ACTION_NOT_ALLOWED. */
    @Answers(summary = "Re-run the step where a request stopped",
            codes = {"RETRIGGERED", "NOT_SCHEDULED"}, errors = {ErrorCode.NOT_FOUND, ErrorCode.ACTION_NOT_ALLOWED})
    @PostMapping("/ops/operations/{operationId}/retrigger")
    ApiResponse<RetriggerJson> retrigger(@PathVariable String operationId, HttpServletRequest request) {
        var operator = operator(request);
        var result = retrigger.retrigger(new RetriggerStep.Command(operationId, operator.operator(), operator.forAudit()));
        return switch (result) {
            case RetriggerStep.Result.NotFound notFound -> throw unknownOperation("retrigger", operationId);
            case RetriggerStep.Result.NothingToRetrigger nothing -> throw new ApiException(ErrorCode.ACTION_NOT_ALLOWED,
                    "Nothing to re-run: the request is not stopped at a step that can be re-triggered.", null, nothing.reason());
            case RetriggerStep.Result.Retriggered done -> done.scheduled()
                    ? ApiResponse.of("RETRIGGERED", "The step " + done.step() + " is scheduled to run again.",
                            new RetriggerJson(done.operationId().value(), done.step().name(), true))
                    : ApiResponse.of("NOT_SCHEDULED", "The work queue is full; nothing was scheduled. Try again shortly.",
                            new RetriggerJson(done.operationId().value(), done.step().name(), false));
        };
    }

    /** 200 CLOSED, MERGED_WINS or RETRY_LATER (nothing changed); 404; 409 ACTION_NOT_ALLOWED. */
    @Answers(summary = "Close a request without merging",
            codes = {"CLOSED", "MERGED_WINS", "RETRY_LATER"},
            errors = {ErrorCode.NOT_FOUND, ErrorCode.ACTION_NOT_ALLOWED})
    @PostMapping("/ops/operations/{operationId}/close")
    ApiResponse<Void> close(@PathVariable String operationId, HttpServletRequest request) {
        var operator = operator(request);
        var result = close.close(new CloseChangeRequest.Command(operationId, operator.operator(), operator.forAudit()));
        return switch (result) {
            case CloseChangeRequest.Result.NotFound notFound -> throw unknownOperation("close", operationId);
            case CloseChangeRequest.Result.NotAllowed refused -> throw new ApiException(ErrorCode.ACTION_NOT_ALLOWED,
                    "The request cannot be closed in its current state.", null, refused.reason());
            case CloseChangeRequest.Result.Closed closed ->
                    ApiResponse.of("CLOSED", "Closed without merging; its merge request (if any) is closed.", null);
            case CloseChangeRequest.Result.MergedWins merged ->
                    ApiResponse.of("MERGED_WINS", "The merge request was already merged; the request is recorded as merged.", null);
            case CloseChangeRequest.Result.RetryLater later -> ApiResponse.of("RETRY_LATER", later.reason(), null);
        };
    }

    /**
     * An operator confirms a merged request in effect: 200 CONFIRMED (now VALIDATED, counted once); 404;
     * 409 ALREADY_IN_EFFECT (nothing changed) or ACTION_NOT_ALLOWED (not merged).
     */
    @Answers(summary = "Confirm a merged change in effect",
            codes = "CONFIRMED",
            errors = {ErrorCode.NOT_FOUND, ErrorCode.ALREADY_IN_EFFECT, ErrorCode.ACTION_NOT_ALLOWED})
    @PostMapping("/ops/operations/{operationId}/confirm-deployed")
    ApiResponse<DeployActionJson> confirmDeployed(@PathVariable String operationId, HttpServletRequest request) {
        return switch (confirmDeployed.confirm(deployAction(operationId, request))) {
            case ConfirmDeployed.Result.NotFound notFound -> throw unknownOperation("confirm-deployed", operationId);
            case ConfirmDeployed.Result.AlreadyInEffect already -> throw new ApiException(ErrorCode.ALREADY_IN_EFFECT,
                    "The request is already in effect; nothing was changed.", null, "confirm-deployed of a validated request");
            case ConfirmDeployed.Result.NotAllowed refused -> throw new ApiException(ErrorCode.ACTION_NOT_ALLOWED,
                    "Only a merged request can be confirmed in effect.", null, refused.reason());
            case ConfirmDeployed.Result.Confirmed confirmed -> ApiResponse.of("CONFIRMED",
                    "Confirmed in effect: the request is " + confirmed.status().name() + ".",
                    new DeployActionJson(confirmed.operationId().value(), confirmed.status().name()));
        };
    }

    /**
     * An operator marks a merged request's rollout failed: 200 MARKED_FAILED (now DEPLOY_FAILED); 404;
     * 409 ALREADY_MARKED_FAILED (nothing changed) or ACTION_NOT_ALLOWED (not merged, or in effect).
     */
    @Answers(summary = "Mark a merged change's rollout failed",
            codes = "MARKED_FAILED",
            errors = {ErrorCode.NOT_FOUND, ErrorCode.ALREADY_MARKED_FAILED, ErrorCode.ACTION_NOT_ALLOWED})
    @PostMapping("/ops/operations/{operationId}/mark-deploy-failed")
    ApiResponse<DeployActionJson> markDeployFailed(@PathVariable String operationId, HttpServletRequest request) {
        return switch (markDeployFailed.mark(deployAction(operationId, request))) {
            case MarkDeployFailed.Result.NotFound notFound -> throw unknownOperation("mark-deploy-failed", operationId);
            case MarkDeployFailed.Result.AlreadyFailed already -> throw ApiException.of(ErrorCode.ALREADY_MARKED_FAILED,
                    "mark-deploy-failed of a request marked failed already");
            case MarkDeployFailed.Result.NotAllowed refused -> throw new ApiException(ErrorCode.ACTION_NOT_ALLOWED,
                    "Only a merged request that is not confirmed in effect can be marked failed.", null, refused.reason());
            case MarkDeployFailed.Result.Marked marked -> ApiResponse.of("MARKED_FAILED",
                    "Marked failed: the request is DEPLOY_FAILED; a later success report or a confirm still makes it VALIDATED.",
                    new DeployActionJson(marked.operationId().value(), BindingStatus.DEPLOY_FAILED.name()));
        };
    }

    /** Runs the lost-callback reconciliation now. */
    @Answers(summary = "Run the lost-callback reconciliation now", codes = "RECONCILED")
    @PostMapping("/ops/reconciliation-runs")
    ApiResponse<ReconciliationJson> reconcile(HttpServletRequest request,
            @RequestParam(defaultValue = "" + ReconcileMergedRequests.DEFAULT_LIMIT) int limit) {
        var operator = operator(request);
        var result = reconcile.reconcile(new ReconcileMergedRequests.Command(Optional.of(operator.operator()),
                Math.clamp(limit, 1, ReconcileMergedRequests.DEFAULT_LIMIT * 10)));
        return ApiResponse.of("RECONCILED", result.advanced() + " of " + result.examined() + " merged request(s) advanced.",
                new ReconciliationJson(result.examined(), result.advanced()));
    }

    /**
     * Legacy: no envelope; its shape is frozen (keys, order, number values). Counts the
     * subject-target relationships by their current status: {@code requests} all of them,
     * {@code inProgress}, {@code validated}, {@code failed}, {@code rejected}, {@code closed}
     * (the last five add up to {@code requests}).
     */
    @Answers(summary = "Legacy statistics (no envelope)", codes = {})
    @GetMapping("/ops/stats")
    StatsJson stats() {
        var shown = stats.show(new ShowStats.Command());
        // a grant whose line was removed (expired, given up, revoked) is no longer in effect: counted with the closed ones,
        // so the frozen shape keeps adding up
        return new StatsJson(shown.total(), shown.inProgress(), shown.count(BindingStatus.VALIDATED), shown.failed(),
                shown.count(BindingStatus.REJECTED), shown.count(BindingStatus.CLOSED) + shown.count(BindingStatus.EXPIRED)
                        + shown.count(BindingStatus.REVOKED));
    }

    /** The server-written operator; without it (a path the authorization table does not cover) nothing is done. */
    private static OperatorParameters operator(HttpServletRequest request) {
        return OperatorParameters.of(request).orElseThrow(() -> {
            log.error("operations write {} without a server-written operator: is the path in changeflow.authorization.rules?",
                    request.getRequestURI());
            return ApiException.of(ErrorCode.ACCESS_DENIED, "no authenticated operator");
        });
    }

    /** The deploy action on {@code operationId} as the server-written operator asks for it. */
    private static DeployActionCommand deployAction(String operationId, HttpServletRequest request) {
        var operator = operator(request);
        return new DeployActionCommand(operationId, operator.operator(), operator.forAudit());
    }

    /** 404 for an action on an operation that does not exist (or whose ID is malformed). */
    private static ApiException unknownOperation(String action, String operationId) {
        return ApiException.of(ErrorCode.NOT_FOUND, action + " of unknown operation " + clip(operationId));
    }

    /** The use case's actions plus the deploy actions the request's current state allows, sorted. */
    private static List<String> allowedActions(ShowOperation.Details details) {
        var status = details.request().status();
        var deploy = Stream.of(status.filter(ConfirmDeployed::allowedFrom).isPresent() ? CONFIRM_DEPLOYED : null,
                status.filter(MarkDeployFailed::allowedFrom).isPresent() ? MARK_DEPLOY_FAILED : null);
        return Stream.concat(details.allowedActions().stream().map(Enum::name), deploy.filter(java.util.Objects::nonNull))
                .sorted().toList();
    }

    private static String clip(String value) {
        var clean = value.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }
}
