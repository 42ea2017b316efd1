package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.grant.ListExpiringGrants;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.grant.RemoveGrant;
import io.changeflow.application.grant.RevokeUrgently;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.FieldError;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Ending a grant before its expiry (issue 18, item 3): the subject, or the person who requested it, gives it up
 * ({@code POST /api/bindings/{targetKey}/give-up}, a VERIFIED caller); an operator revokes it
 * ({@code POST /ops/bindings/{subjectId}/{targetKey}/revoke}, authorized and audited by the interceptor, the
 * operator being the server-written identity). Both open a removal that the next removal round of the target's
 * file merges (no approval); the answer is the removal's request view, followed like any request. Operators also see
 * how many grants expire soon ({@code GET /ops/grants/expiring}).
 */
@RestController
public final class GrantsController {

    private static final Logger log = LoggerFactory.getLogger(GrantsController.class);

    /** The grants in effect expiring within a window: how many, and the soonest ({@code GET /ops/grants/expiring}). */
    record ExpiringJson(String within, long count, boolean hasMore, List<RequestJson.BindingJson> grants) {}

    private final RemoveGrant remove;
    private final ListExpiringGrants expiring;
    private final RevokeUrgently urgently;

    public GrantsController(RemoveGrant remove, ListExpiringGrants expiring, RevokeUrgently urgently) {
        this.remove = remove;
        this.expiring = expiring;
        this.urgently = urgently;
    }

    /**
     * 200 OK: how many grants in effect expire within {@code within} (ISO-8601, default {@code PT24H}, at most
     * {@code P31D}) of the database clock, and the first {@code limit} (default 50, 1 to 500) of them, soonest
     * first. 400 INVALID_REQUEST with a field error on {@code within}: INVALID_VALUE (not an ISO-8601 duration) or
     * OUT_OF_RANGE (zero, negative, longer than the maximum). Operators only, like every {@code /ops/} path.
     */
    @Answers(summary = "Grants in effect expiring within a window (default 24 hours), counted by the server",
            errors = {ErrorCode.INVALID_REQUEST})
    @GetMapping("/ops/grants/expiring")
    ApiResponse<ExpiringJson> expiring(@RequestParam(defaultValue = "PT24H") String within,
            @RequestParam(defaultValue = "" + ListExpiringGrants.DEFAULT_LIMIT) int limit) {
        var window = parseWindow(within);
        return switch (expiring.list(new ListExpiringGrants.Command(window, limit))) {
            case ListExpiringGrants.Result.Listed listed -> ApiResponse.ok(new ExpiringJson(listed.within().toString(),
                    listed.count(), listed.hasMore(), listed.first().stream().map(RequestJson.BindingJson::of).toList()));
            case ListExpiringGrants.Result.OutOfRange out -> throw invalidWindow("OUT_OF_RANGE",
                    "within is positive and at most " + ListExpiringGrants.MAX_WITHIN, "window out of range: " + out.within());
        };
    }

    private static Duration parseWindow(String within) {
        try {
            return Duration.parse(within.strip().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw invalidWindow("INVALID_VALUE", "within is an ISO-8601 duration, e.g. PT24H", "unparsable window");
        }
    }

    private static ApiException invalidWindow(String code, String message, String logDetail) {
        return new ApiException(ErrorCode.INVALID_REQUEST, "Invalid window.",
                Map.of("fieldErrors", List.of(new FieldError("within", code, message))), logDetail);
    }

    /**
     * 202 REMOVAL_ACCEPTED; 403 NOT_ALLOWED_FOR_SUBJECT (another subject than the caller: only the subject gives a grant
     * up); 404 NOT_FOUND (no such grant of yours); 409 GRANT_NOT_IN_EFFECT or GRANT_CHANGED.
     */
    @Answers(summary = "Give up a grant in effect",
            status = 202, codes = "REMOVAL_ACCEPTED",
            errors = {ErrorCode.NOT_ALLOWED_FOR_SUBJECT, ErrorCode.NOT_FOUND, ErrorCode.GRANT_NOT_IN_EFFECT, ErrorCode.GRANT_CHANGED})
    @PostMapping("/api/bindings/{targetKey}/give-up")
    ResponseEntity<ApiResponse<RequestJson>> giveUp(Identity caller, @PathVariable String targetKey,
            @RequestParam(required = false) String subjectId) {
        return answer(remove.remove(RemoveGrant.Command.giveUp(subjectId, targetKey, caller.account())),
                "You gave this access up; its line is removed by the next removal round.");
    }

    /** 202 REMOVAL_ACCEPTED; 404 NOT_FOUND; 409 GRANT_NOT_IN_EFFECT or GRANT_CHANGED. */
    @Answers(summary = "Revoke a grant in effect",
            status = 202, codes = "REMOVAL_ACCEPTED",
            errors = {ErrorCode.NOT_FOUND, ErrorCode.GRANT_NOT_IN_EFFECT, ErrorCode.GRANT_CHANGED})
    @PostMapping("/ops/bindings/{subjectId}/{targetKey}/revoke")
    ResponseEntity<ApiResponse<RequestJson>> revoke(@PathVariable String subjectId, @PathVariable String targetKey,
            @RequestParam(defaultValue = "false") String urgent, HttpServletRequest request) {
        var operator = OperatorParameters.of(request).orElseThrow(() -> {
            log.error("revocation {} without a server-written operator: is the path in changeflow.authorization.rules?",
                    request.getRequestURI());
            return ApiException.of(ErrorCode.ACCESS_DENIED, "no authenticated operator");
        });
        if (isUrgent(urgent)) {
            var result = urgently.revoke(new RevokeUrgently.Command(subjectId, targetKey, operator.operator(),
                    operator.forAudit()));
            return answer(result.removal(), result.round().map(GrantsController::urgentMessage)
                    .orElse("Revoked; it waits for the approver first, then the next removal round removes the line."));
        }
        return answer(remove.remove(RemoveGrant.Command.revoke(subjectId, targetKey, operator.operator(), operator.forAudit())),
                "Revoked; the line is removed by the next removal round.");
    }

    /** {@code urgent}: {@code true} or {@code false} (case ignored); anything else is 400 INVALID_REQUEST. */
    private static boolean isUrgent(String raw) {
        var value = raw.strip().toLowerCase(Locale.ROOT);
        if (!value.equals("true") && !value.equals("false")) {
            throw new ApiException(ErrorCode.INVALID_REQUEST, "urgent is true or false.",
                    Map.of("fieldErrors", List.of(new io.changeflow.domain.request.FieldError("urgent", "INVALID_VALUE",
                            "urgent is true or false"))), "urgent not a boolean");
        }
        return value.equals("true");
    }

    private static String urgentMessage(RunBatchRound.Result round) {
        return switch (round) {
            case RunBatchRound.Result.Claimed claimed when claimed.scheduled() ->
                    "Revoked urgently; removal round " + claimed.batchId() + " runs now.";
            case RunBatchRound.Result.Claimed claimed ->
                    "Revoked urgently; the system is overloaded, so the next removal round removes the line.";
            case RunBatchRound.Result.SlotOccupied occupied ->
                    "Revoked urgently; a removal round of this file is running, the next one removes the line.";
            case RunBatchRound.Result.NothingToClaim nothing ->
                    "Revoked urgently; the next removal round removes the line.";
        };
    }

    private static ResponseEntity<ApiResponse<RequestJson>> answer(RemoveGrant.Result result, String accepted) {
        return switch (result) {
            case RemoveGrant.Result.Accepted done -> {
                var view = RequestJson.of(done.removal());
                yield ResponseEntity.status(HttpStatus.ACCEPTED).location(URI.create("/api/requests/" + view.operationId()))
                        .body(ApiResponse.of(done.code(), accepted, view));
            }
            case RemoveGrant.Result.NotFound notFound -> throw ApiException.of(ErrorCode.NOT_FOUND, "no such grant");
            case RemoveGrant.Result.NotAllowedForSubject notAllowed -> throw ApiException.of(
                    ErrorCode.NOT_ALLOWED_FOR_SUBJECT, "give-up naming another subject");
            case RemoveGrant.Result.NotInEffect notInEffect -> throw ApiException.of(ErrorCode.GRANT_NOT_IN_EFFECT,
                    "grant is " + notInEffect.status());
            case RemoveGrant.Result.ChangedMeanwhile changed -> throw ApiException.of(ErrorCode.GRANT_CHANGED,
                    "grant changed meanwhile");
        };
    }
}
