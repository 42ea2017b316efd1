package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.drift.ActOnDrift;
import io.changeflow.application.drift.ListDrift;
import io.changeflow.application.drift.ListMyDrift;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.identity.Identity;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Drift (issue 36, item 2): where a target's grant file on main and the service's records disagree. Operators list
 * the items with their evidence ({@code GET /ops/drift}) and act on one: remove its line through the workflow, adopt it
 * as a grant request with an until, or acknowledge it with a reason (authorized and audited like every {@code /ops/}
 * write; the operator is the server-written identity). People see the drift that concerns them
 * ({@code GET /api/drift}).
 */
@RestController
public final class DriftController {

    private static final Logger log = LoggerFactory.getLogger(DriftController.class);

    /** Where a line on main came from, as GitLab said (each part absent where it did not). */
    record EvidenceJson(@Nullable String commitSha, @Nullable String author, @Nullable String committedAt) {}

    /** One drift item, with the actions its status allows. */
    record DriftJson(long id, String targetKey, String kind, @Nullable String subjectId, String line,
                     @Nullable String operationId, String note, EvidenceJson evidence, @Nullable String commitSeen,
                     String firstSeen, String lastSeen, String status, String statusActor, String statusNote,
                     String statusAt, @Nullable String removalOperationId, List<String> allowedActions) {
        static DriftJson of(DriftItem i) {
            var e = i.evidence();
            return new DriftJson(i.id(), i.target().value(), i.kind().name(), i.subject().map(Object::toString).orElse(null),
                    i.line(), i.operation().map(Object::toString).orElse(null), i.note(),
                    new EvidenceJson(e.commitSha().orElse(null), e.author().orElse(null),
                            e.committedAt().map(Object::toString).orElse(null)),
                    i.commitSeen().orElse(null), i.firstSeen().toString(), i.lastSeen().toString(), i.status().name(),
                    i.statusActor(), i.statusNote(), i.statusAt().toString(),
                    // an ADOPTED item names its adopting request there (in its status note too): not a removal
                    i.removal().filter(r -> i.status() != DriftStatus.ADOPTED).map(Object::toString).orElse(null),
                    ActOnDrift.allowedActions(i));
        }
    }

    /** An item that concerns the caller, and whether they are its subject (false: a subject they asked for). */
    record MyDriftJson(DriftJson item, boolean asSubject) {}

    /** What an action did: the item as it is now, and the removal or adopting request it opened. */
    record ActedJson(DriftJson item, @Nullable String operationId) {}

    /** The body of an adoption: the grant's until (ISO date or instant; absent or blank: no expiry). */
    record AdoptForm(@Nullable String until) {}

    /** The body of an acknowledgement: why the line stays (required). */
    record AcknowledgeForm(@Nullable String reason) {}

    private final ListDrift list;
    private final ListMyDrift mine;
    private final ActOnDrift act;

    public DriftController(ListDrift list, ListMyDrift mine, ActOnDrift act) {
        this.list = list;
        this.mine = mine;
        this.act = act;
    }

    /**
     * The items in {@code status} (every item still about main when absent) on {@code targetKey} of {@code kind}, newest
     * sighting first, at most {@code limit} (1 to 1,000). 400 INVALID_REQUEST with a field error for a filter that
     * cannot be one.
     */
    @Answers(summary = "Drift between the grant files on main and the records", errors = ErrorCode.INVALID_REQUEST)
    @GetMapping("/ops/drift")
    ApiResponse<List<DriftJson>> list(@RequestParam(required = false) String status,
            @RequestParam(required = false) String targetKey, @RequestParam(required = false) String kind,
            @RequestParam(defaultValue = "200") int limit) {
        var items = list.list(new ListDrift.Command(ListFilters.driftStatus(status), ListFilters.target(targetKey),
                ListFilters.driftKind(kind), limit));
        return ApiResponse.ok(items.stream().map(DriftJson::of).toList());
    }

    /** The drift that concerns the caller: as the subject, or as the requester of the subjects they asked for. */
    @Answers(summary = "Drift that concerns me")
    @GetMapping("/api/drift")
    ApiResponse<List<MyDriftJson>> mine(Identity caller) {
        return ApiResponse.ok(mine.list(new ListMyDrift.Command(caller.account())).stream()
                .map(m -> new MyDriftJson(DriftJson.of(m.item()), m.asSubject())).toList());
    }

    /** 200 REMOVING; 404; 409 DRIFT_ALREADY_HANDLED or DRIFT_ACTION_NOT_POSSIBLE. */
    @Answers(summary = "Remove a drift item's line through the workflow", codes = "REMOVING",
            errors = {ErrorCode.NOT_FOUND, ErrorCode.DRIFT_ALREADY_HANDLED, ErrorCode.DRIFT_ACTION_NOT_POSSIBLE})
    @PostMapping("/ops/drift/{id}/remove")
    ApiResponse<ActedJson> remove(@PathVariable String id, HttpServletRequest request) {
        return answer(id, new ActOnDrift.Action.Remove(), request,
                "The line is removed through the workflow; follow the removal's request.");
    }

    /**
     * 200 ADOPTED (a grant request for the subject with this until is open; an approver decides); 400 INVALID_REQUEST
     * (an until that is no date, in the past or too far); 404; 409 DRIFT_ALREADY_HANDLED, DRIFT_ACTION_NOT_POSSIBLE,
     * REQUEST_IN_PROGRESS, ALREADY_IN_EFFECT; 403 NOT_ALLOWED_FOR_SUBJECT or SERVICE_CLOSED.
     */
    @Answers(summary = "Adopt a drift item's line as a grant with an until", codes = "ADOPTED",
            errors = {ErrorCode.INVALID_REQUEST, ErrorCode.NOT_FOUND, ErrorCode.DRIFT_ALREADY_HANDLED,
                    ErrorCode.DRIFT_ACTION_NOT_POSSIBLE, ErrorCode.REQUEST_IN_PROGRESS, ErrorCode.ALREADY_IN_EFFECT,
                    ErrorCode.NOT_ALLOWED_FOR_SUBJECT, ErrorCode.SERVICE_CLOSED})
    @PostMapping("/ops/drift/{id}/adopt")
    ApiResponse<ActedJson> adopt(@PathVariable String id, @RequestBody(required = false) @Nullable AdoptForm form,
            HttpServletRequest request) {
        return answer(id, new ActOnDrift.Action.Adopt(form == null ? null : form.until()), request,
                "A grant request for this line is open; an approver decides, and its merge writes the line.");
    }

    /** 200 ACKNOWLEDGED; 400 INVALID_REQUEST (reason missing, too long); 404; 409 DRIFT_ALREADY_HANDLED. */
    @Answers(summary = "Acknowledge a drift item with a reason", codes = "ACKNOWLEDGED",
            errors = {ErrorCode.INVALID_REQUEST, ErrorCode.NOT_FOUND, ErrorCode.DRIFT_ALREADY_HANDLED})
    @PostMapping("/ops/drift/{id}/acknowledge")
    ApiResponse<ActedJson> acknowledge(@PathVariable String id,
            @RequestBody(required = false) @Nullable AcknowledgeForm form, HttpServletRequest request) {
        return answer(id, new ActOnDrift.Action.Acknowledge(form == null ? null : form.reason()), request,
                "Acknowledged: the line stays as it is.");
    }

    private ApiResponse<ActedJson> answer(String id, ActOnDrift.Action action, HttpServletRequest request, String done) {
        var operator = OperatorParameters.of(request).orElseThrow(() -> {
            log.error("drift action {} without a server-written operator: is the path in changeflow.authorization.rules?",
                    request.getRequestURI());
            return ApiException.of(ErrorCode.ACCESS_DENIED, "no authenticated operator");
        });
        var result = act.act(new ActOnDrift.Command(id, action, operator.operator(), operator.forAudit()));
        return switch (result) {
            case ActOnDrift.Result.Done acted -> ApiResponse.of(result.code(), done,
                    new ActedJson(DriftJson.of(acted.item()), acted.request().map(Object::toString).orElse(null)));
            case ActOnDrift.Result.NotFound notFound -> throw ApiException.of(ErrorCode.NOT_FOUND, "no drift item " + clip(id));
            case ActOnDrift.Result.Invalid invalid -> throw new ApiException(ErrorCode.INVALID_REQUEST,
                    "Please correct the fields listed.", Map.of("fieldErrors", invalid.fieldErrors()),
                    "invalid drift action: " + invalid.fieldErrors().stream().map(e -> e.field() + "/" + e.code()).toList());
            case ActOnDrift.Result.AlreadyHandled handled -> throw ApiException.of(ErrorCode.DRIFT_ALREADY_HANDLED,
                    "drift item is " + handled.status());
            case ActOnDrift.Result.NotPossible notPossible -> throw new ApiException(ErrorCode.DRIFT_ACTION_NOT_POSSIBLE,
                    notPossible.reason(), null, notPossible.reason());
            case ActOnDrift.Result.Refused refused -> throw ApiException.of(refusal(refused.code()),
                    "adopting request refused: " + refused.code());
        };
    }

    /** The submission's refusal as its error code (the submission's codes are the API's). */
    private static ErrorCode refusal(String code) {
        try {
            return ErrorCode.valueOf(code);
        } catch (IllegalArgumentException e) {
            return ErrorCode.REQUEST_IN_PROGRESS;
        }
    }

    private static String clip(String value) {
        var clean = value.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }
}
