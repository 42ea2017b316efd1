package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.domain.request.FieldError;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Callbacks of the external systems, signed per Standard Webhooks ({@code webhook-id},
 * {@code webhook-timestamp}, {@code webhook-signature}). The raw body bytes are verified through
 * {@link CallbackAuthenticity} <em>before</em> anything is parsed or stored:
 * <ul>
 *   <li>a missing, malformed, wrong or expired signature: 401 INVALID_SIGNATURE, nothing processed;</li>
 *   <li>no signing secret configured for the source: 503 UNAVAILABLE, nothing processed (fail
 *       closed: never accepted unsigned; 503 rather than 401 because the sender is not at fault and
 *       should retry once the secret is configured; health is DOWN meanwhile);</li>
 *   <li>a valid signature on a body that is not the expected JSON: 400 INVALID_REQUEST.</li>
 * </ul>
 * Then the use case answers 200 PROCESSED, DUPLICATE or IGNORED_STALE. A processing failure
 * propagates (500, or 503 for a transient external failure) so the sender retries; the use case
 * has forgotten the delivery's deduplication record by then.
 */
@RestController
public final class CallbacksController {

    /** The signature headers (names in lower case, as the port expects). */
    static final List<String> SIGNATURE_HEADERS = List.of("webhook-id", "webhook-timestamp", "webhook-signature");

    /**
     * What the approval system sends ({@code result} APPROVED, REJECTED or WITHDRAWN; {@code decidedBy} the approver's
     * account, optional); read field by field below.
     */
    record ApprovalCallbackJson(String requestId, String operationId, String result, Map<String, String> ext,
                                @org.jspecify.annotations.Nullable String decidedBy) {}

    /**
     * What the deploy pipeline sends ({@code status} success or failed; {@code operationIds} optional): a report of a
     * merge request ({@code mrIid}) or, issue 37, of the default branch at a commit ({@code sha}, full, with the
     * branch name in {@code ref} for the record), never both.
     */
    record DeployCallbackJson(String projectId, Long mrIid, String ref, String sha, String status, List<String> operationIds) {}

    /**
     * How many requests a deploy report moved to VALIDATED, and how many listed operation IDs were ignored
     * (not operations of the reported merge request).
     */
    record DeployAnswerJson(int advanced, int ignored) {}

    private static final Logger log = LoggerFactory.getLogger(CallbacksController.class);
    private static final int MAX_TEXT = 256;
    private static final Pattern FULL_SHA = Pattern.compile("[0-9a-fA-F]{40}|[0-9a-fA-F]{64}");
    private static final Pattern BRANCH = Pattern.compile("[A-Za-z0-9._/-]{1,255}");

    private final CallbackAuthenticity authenticity;
    private final HandleApprovalCallback approvals;
    private final HandleDeployCallback deploys;
    private final JsonMapper json;
    private final SafeMeters meters;

    public CallbacksController(CallbackAuthenticity authenticity, HandleApprovalCallback approvals, HandleDeployCallback deploys,
            JsonMapper json, SafeMeters meters) {
        this.meters = meters;
        this.authenticity = authenticity;
        this.approvals = approvals;
        this.deploys = deploys;
        this.json = json;
    }

    /**
     * Body {@code {requestId, operationId, result: APPROVED|REJECTED|WITHDRAWN, ext: {mrId?}, decidedBy?}}; deduplicated
     * by requestId. {@code decidedBy}, the approver's account: an approval by the requester or the subject does not
     * count (issue 32, separation of duties).
     */
    @Answers(summary = "The approval system reports a decision", codes = {"PROCESSED", "DUPLICATE", "IGNORED_STALE"})
    @PostMapping("/callbacks/approval")
    ApiResponse<Void> approval(HttpServletRequest request, @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = ApprovalCallbackJson.class))) @RequestBody(required = false) byte[] body) {
        var raw = verified(Source.APPROVAL, request, body);
        var errors = new ArrayList<FieldError>();
        var requestId = text(raw, "requestId", true, errors);
        var operationId = text(raw, "operationId", false, errors);
        var result = text(raw, "result", true, errors);
        HandleApprovalCallback.Decision decision = null;
        if (result != null) {
            try {
                decision = HandleApprovalCallback.Decision.valueOf(result.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError("result", "INVALID_VALUE", "result is APPROVED, REJECTED or WITHDRAWN"));
            }
        }
        var ext = ext(raw, errors);
        var decidedBy = text(raw, "decidedBy", false, errors);
        requireNoErrors(Source.APPROVAL, errors);
        var answer = approvals.handle(new HandleApprovalCallback.Command(requestId, operationId, decision, ext)
                .withApprover(decidedBy));
        return answered(answer);
    }

    /** Body {@code {projectId, mrIid | (sha, ref?), status, operationIds?}}; deduplicated by {@code webhook-id}. */
    @Answers(summary = "The deploy pipeline reports a rollout", codes = {"PROCESSED", "DUPLICATE"})
    @PostMapping("/callbacks/deploy")
    ApiResponse<DeployAnswerJson> deploy(HttpServletRequest request, @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = DeployCallbackJson.class))) @RequestBody(required = false) byte[] body) {
        var raw = verified(Source.DEPLOY, request, body);
        var errors = new ArrayList<FieldError>();
        var projectId = text(raw, "projectId", true, errors);
        var status = text(raw, "status", false, errors);
        var mrIid = raw.get("mrIid");
        var sha = text(raw, "sha", false, errors);
        var ref = text(raw, "ref", false, errors);
        long iid = 0;
        var byIid = mrIid != null && !mrIid.isNull();
        var byCommit = raw.hasNonNull("sha");
        if (byCommit && (sha == null || !FULL_SHA.matcher(sha).matches())
                && errors.stream().noneMatch(error -> error.field().equals("sha"))) {
            errors.add(new FieldError("sha", "INVALID_FORMAT", "sha is a full commit sha (40 or 64 hexadecimal characters)"));
        }
        if (ref != null && !BRANCH.matcher(ref).matches()) {
            errors.add(new FieldError("ref", "INVALID_FORMAT", "ref is a branch name (letters, digits, . _ - /)"));
        }
        if (byIid && byCommit) {
            errors.add(new FieldError("sha", "INVALID_VALUE", "a report names a merge request (mrIid) or a commit (sha), not both"));
        } else if (!byIid && !byCommit) {
            errors.add(new FieldError("mrIid", "REQUIRED", "mrIid (or sha for a deploy of the default branch at a commit) is required"));
        } else if (byIid) {
            if (!mrIid.isIntegralNumber() || !mrIid.canConvertToLong() || mrIid.longValue() <= 0) {
                errors.add(new FieldError("mrIid", "INVALID_FORMAT", "mrIid is a positive integer"));
            } else {
                iid = mrIid.longValue();
            }
        }
        var operationIds = new ArrayList<String>();
        var ids = raw.get("operationIds");
        if (ids != null && !ids.isNull()) {
            if (!ids.isArray() || ids.size() > 1000) {
                errors.add(new FieldError("operationIds", "INVALID_FORMAT", "operationIds is a list of operation IDs"));
            } else {
                ids.forEach(id -> operationIds.add(id.isString() ? id.stringValue() : ""));
            }
        }
        requireNoErrors(Source.DEPLOY, errors);
        var deliveryId = header(request, "webhook-id");
        var command = sha != null
                ? HandleDeployCallback.Command.atCommit(deliveryId, projectId, Optional.ofNullable(ref),
                        sha.toLowerCase(Locale.ROOT), status, operationIds)
                : new HandleDeployCallback.Command(deliveryId, projectId, iid, status, operationIds);
        var result = deploys.handle(command);
        if (result.ignored() > 0) {
            log.warn("deploy report {} listed {} operation ID(s) that are not operations of what it reports: ignored",
                    clip(deliveryId), result.ignored());
            meters.increment(MeterNames.DEPLOY_IDS_IGNORED, Map.of(), result.ignored());
        }
        var answered = answered(result.answer());
        return new ApiResponse<>(answered.code(), answered.message(), new DeployAnswerJson(result.advanced(), result.ignored()),
                answered.traceId());
    }

    private void refused(Source source, String reason) {
        meters.increment(MeterNames.CALLBACKS_REFUSED, Map.of("source", source.name().toLowerCase(Locale.ROOT), "reason", reason));
    }

    /** Verifies the raw bytes and only then parses them; refuses with 401 or 503 before anything else happens. */
    private JsonNode verified(Source source, HttpServletRequest request, byte[] body) {
        var bytes = body == null ? new byte[0] : body;
        var verdict = authenticity.verify(source, signatureHeaders(request), bytes);
        switch (verdict) {
            case VALID -> {
                // parsed below
            }
            case INVALID -> {
                refused(source, "invalid_signature");
                throw ApiException.of(ErrorCode.INVALID_SIGNATURE, source + " callback with a missing or invalid "
                        + "signature (webhook-id " + clip(header(request, "webhook-id")) + ")");
            }
            case NOT_CONFIGURED -> {
                refused(source, "not_configured");
                log.error("{} callback refused: no signing secret is configured (fail closed; health is DOWN)", source);
                throw ApiException.of(ErrorCode.UNAVAILABLE, source + " callback while no secret is configured");
            }
        }
        try {
            var tree = json.readTree(bytes);
            if (tree == null || !tree.isObject()) {
                throw invalid(source, List.of(new FieldError("body", "INVALID_FORMAT", "the body is a JSON object")));
            }
            return tree;
        } catch (JacksonException e) {
            throw invalid(source, List.of(new FieldError("body", "INVALID_FORMAT", "the body is a JSON object")));
        }
    }

    /** The signature headers, lower-case names; a header sent twice is dropped (ambiguous), except signatures, which join. */
    private static Map<String, String> signatureHeaders(HttpServletRequest request) {
        var headers = new LinkedHashMap<String, String>();
        for (var name : SIGNATURE_HEADERS) {
            var values = request.getHeaders(name) == null ? List.<String>of() : Collections.list(request.getHeaders(name));
            if (values.size() == 1) {
                headers.put(name, values.getFirst());
            } else if (values.size() > 1 && name.equals("webhook-signature")) {
                headers.put(name, String.join(" ", values));
            }
        }
        return headers;
    }

    private static String header(HttpServletRequest request, String name) {
        var value = request.getHeader(name);
        return value == null ? "" : value.strip();
    }

    private static String text(JsonNode body, String field, boolean required, List<FieldError> errors) {
        var node = body.get(field);
        if (node == null || node.isNull() || (node.isString() && node.stringValue().isBlank())) {
            if (required) {
                errors.add(new FieldError(field, "REQUIRED", field + " is required"));
            }
            return null;
        }
        if (!node.isString() && !node.isNumber()) {
            errors.add(new FieldError(field, "INVALID_FORMAT", field + " is text"));
            return null;
        }
        var value = node.isString() ? node.stringValue() : node.asString();
        if (value.length() > MAX_TEXT) {
            errors.add(new FieldError(field, "TOO_LONG", field + " is at most " + MAX_TEXT + " characters"));
            return null;
        }
        return value;
    }

    /** The extension fields as text; nested objects and arrays are not extension values. */
    private static Map<String, String> ext(JsonNode body, List<FieldError> errors) {
        var node = body.get("ext");
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            errors.add(new FieldError("ext", "INVALID_FORMAT", "ext is an object of text values"));
            return Map.of();
        }
        var ext = new LinkedHashMap<String, String>();
        for (var entry : node.properties()) {
            var value = entry.getValue();
            if (value.isString() || value.isNumber() || value.isBoolean()) {
                ext.put(entry.getKey(), value.isString() ? value.stringValue() : value.asString());
            }
        }
        return ext;
    }

    private static void requireNoErrors(Source source, List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw invalid(source, errors);
        }
    }

    private static ApiException invalid(Source source, List<FieldError> errors) {
        return new ApiException(ErrorCode.INVALID_REQUEST, "The callback body is not valid.", Map.of("fieldErrors", errors),
                "signed " + source + " callback with an invalid body: " + errors.stream().map(FieldError::field).toList());
    }

    private static ApiResponse<Void> answered(CallbackAnswer answer) {
        var message = switch (answer) {
            case PROCESSED -> "The callback was processed.";
            case DUPLICATE -> "This delivery was seen before; nothing was done again.";
            case IGNORED_STALE -> "The callback no longer applies to the request; it was ignored.";
        };
        return ApiResponse.of(answer.name(), message, null);
    }

    private static String clip(String value) {
        var clean = value.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }
}
