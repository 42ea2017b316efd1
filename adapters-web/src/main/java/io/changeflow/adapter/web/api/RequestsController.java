package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.guard.RateLimit;
import io.changeflow.adapter.web.identity.VerifiedCallerResolver;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.application.query.PreviewChange;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.ChangePreview;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.Submission;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The requester's side of the API: submit a request, follow it, list my records, preview the
 * change. Every endpoint needs a VERIFIED caller ({@link VerifiedCallerResolver}: 401 without an
 * identity, 403 for an unverified one), decided before any body is read.
 */
@RestController
public final class RequestsController {

    /** The submission form; every field is untrusted text, validated by the use case (all errors at once). */
    /** {@code duration} (issue 32 item 3): instead of {@code expiresAt}, ISO-8601 days, hours, minutes ({@code PT8H}). */
    record SubmitForm(String operationId, String targetKey, String subjectId, String reason, String expiresAt,
                      String duration) {}

    /** A page of my records. */
    record PageJson(List<RequestJson> items, int page, int size, boolean hasMore) {}

    /** The preview of the line the merge request would write (and the one it replaces, if any). */
    record PreviewJson(String project, String filePath, @Nullable String removedLine, String addedLine) {
        static PreviewJson of(ChangePreview preview) {
            return new PreviewJson(preview.project(), preview.filePath(), preview.removedLine().orElse(null),
                    preview.addedLine());
        }
    }

    private static final Logger log = LoggerFactory.getLogger(RequestsController.class);

    private final SubmitChangeRequest submit;
    private final ShowChangeRequest show;
    private final ListMyRequests myRequests;
    private final PreviewChange preview;

    public RequestsController(SubmitChangeRequest submit, ShowChangeRequest show, ListMyRequests myRequests, PreviewChange preview) {
        this.submit = submit;
        this.show = show;
        this.myRequests = myRequests;
        this.preview = preview;
    }

    // Rate limiting runs before the idempotency check: the rate-limit interceptor answers before this
    // handler (and so before SubmitChangeRequest looks at the operationId), so a duplicate submission
    // over quota gets 429 RATE_LIMITED, not 202 DUPLICATE_SUBMIT. This is by design, not a bug: a retry
    // storm must not reach the database. The client keeps the form locked and retries after Retry-After.
    @Answers(summary = "Submit a change request",
            status = 202, codes = {"ACCEPTED", "DUPLICATE_SUBMIT"},
            errors = {ErrorCode.SERVICE_CLOSED, ErrorCode.NOT_ALLOWED_FOR_SUBJECT, ErrorCode.REQUEST_IN_PROGRESS,
                    ErrorCode.ALREADY_IN_EFFECT, ErrorCode.IDEMPOTENCY_IN_FLIGHT, ErrorCode.IDEMPOTENCY_KEY_REUSED})
    @PostMapping(path = "/api/requests", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RateLimit(bucket = "apply", limitKey = Settings.APPLY_RATE_LIMIT, defaultLimit = Settings.DEFAULT_APPLY_RATE_LIMIT,
            message = "Too many submissions, please try again later")
    ResponseEntity<ApiResponse<RequestJson>> submit(Identity caller, @RequestBody SubmitForm form) {
        var submission = new Submission(form.operationId(), form.targetKey(), form.subjectId(), form.reason(), form.expiresAt(),
                form.duration());
        var result = submit.submit(new SubmitChangeRequest.Command(submission, caller.account()));
        return switch (result) {
            case SubmitChangeRequest.Result.Accepted accepted -> accepted(accepted.code(),
                    "Your request was accepted; follow its progress on its page.", RequestJson.of(accepted.request()));
            // The same operationId with the same payload: the original request's answer again (202, its view
            // as it is now), so the form stays locked instead of reporting a second, new request.
            case SubmitChangeRequest.Result.DuplicateSubmit duplicate -> accepted(duplicate.code(),
                    "This request was already submitted; here it is.", RequestJson.of(duplicate.request()));
            case SubmitChangeRequest.Result.Invalid invalid -> throw invalid(invalid.fieldErrors());
            case SubmitChangeRequest.Result.ServiceClosed closed ->
                    throw ApiException.of(ErrorCode.SERVICE_CLOSED, "submission while access is closed");
            case SubmitChangeRequest.Result.NotAllowedForSubject notAllowed ->
                    throw ApiException.of(ErrorCode.NOT_ALLOWED_FOR_SUBJECT, "the target's ask-for policy refuses this subject");
            case SubmitChangeRequest.Result.RequestInProgress inProgress -> throw inProgress.askedForYou()
                    // issue 37: the subject asked for themselves while a request asked for them is already merging
                    .map(other -> new ApiException(ErrorCode.REQUEST_IN_PROGRESS, "A request for you on this target,"
                            + " asked for by " + other.requester() + ", is already being merged; it is not taken back."
                            + " Follow it (it is in your requests) and apply again once it has ended if you need to.",
                            RequestJson.summaryOf(other), "the subject's own request while one asked for them is merging"))
                    .orElseGet(() -> ApiException.of(ErrorCode.REQUEST_IN_PROGRESS,
                            "an active request exists for the subject and target"));
            case SubmitChangeRequest.Result.AlreadyInEffect inEffect ->
                    throw ApiException.of(ErrorCode.ALREADY_IN_EFFECT, "already in effect");
            case SubmitChangeRequest.Result.InFlight inFlight ->
                    throw ApiException.of(ErrorCode.IDEMPOTENCY_IN_FLIGHT, "operationId still being validated");
            case SubmitChangeRequest.Result.KeyReused reused ->
                    throw ApiException.of(ErrorCode.IDEMPOTENCY_KEY_REUSED, "operationId reused with another payload");
        };
    }

    /**
     * The read-only preview. Any failure (unknown target, invalid input, GitLab down, anything thrown)
     * answers 200 PREVIEW_UNAVAILABLE with {@code data} null: a preview never blocks submitting. Rate limited
     * per person on its own quota ({@code PREVIEW_RATE_LIMIT}), apart from submissions: each preview reads GitLab.
     */
    @Answers(summary = "Preview the line a request would write", codes = {"OK", "PREVIEW_UNAVAILABLE"})
    @GetMapping("/api/requests/preview")
    @RateLimit(bucket = "preview", limitKey = Settings.PREVIEW_RATE_LIMIT, defaultLimit = Settings.DEFAULT_PREVIEW_RATE_LIMIT,
            message = "Too many previews, please try again later")
    ApiResponse<PreviewJson> preview(Identity caller, @RequestParam(required = false) String targetKey,
            @RequestParam(required = false) String subjectId, @RequestParam(required = false) String operationId,
            @RequestParam(required = false) String expiresAt) {
        try {
            var shown = preview.preview(new PreviewChange.Command(targetKey, Optional.ofNullable(subjectId), caller,
                    Optional.ofNullable(operationId), Optional.ofNullable(expiresAt)));
            if (shown.isPresent()) {
                return ApiResponse.ok(PreviewJson.of(shown.get()));
            }
        } catch (RuntimeException e) {
            log.warn("preview failed; answered as unavailable", e);
        }
        return ApiResponse.of("PREVIEW_UNAVAILABLE", "No preview right now; you can still submit.", null);
    }

    /**
     * One request, to its requester or an operator; anyone else gets 404 as if it did not exist. Conditional
     * (issue 33, {@link ConditionalReads}): an {@code If-None-Match} naming the current version is answered 304 from
     * the version alone (one read of the operation, and one of its scheduled step while the service is to act), with
     * the same visibility: an invisible request is 404 whatever the header says.
     */
    @Answers(summary = "One request, to its requester or an operator", errors = ErrorCode.NOT_FOUND, conditional = true)
    @GetMapping("/api/requests/{operationId}")
    ResponseEntity<ApiResponse<RequestJson>> show(Identity caller, @PathVariable String operationId,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String ifNoneMatch) {
        var command = new ShowChangeRequest.Command(operationId, caller);
        if (ifNoneMatch != null) {
            var version = show.version(command);
            if (version.isEmpty()) {
                throw notFound(caller);
            }
            var unchanged = ConditionalReads.<ApiResponse<RequestJson>>notModified(ifNoneMatch, version);
            if (unchanged.isPresent()) {
                return unchanged.get();
            }
        }
        return show.read(command)
                .map(shown -> ConditionalReads.ok(ApiResponse.ok(RequestJson.of(shown.view())), shown.version()))
                .orElseThrow(() -> notFound(caller));
    }

    private static ApiException notFound(Identity caller) {
        return ApiException.of(ErrorCode.NOT_FOUND, "no request visible to " + caller);
    }

    /**
     * My records, newest first. Conditional (issue 33, {@link ConditionalReads}): the page's version is read from the
     * same rows' versions alone (one narrow statement), and an {@code If-None-Match} naming it is 304.
     */
    @Answers(summary = "My requests, newest first, optionally of one status and one target", conditional = true)
    @GetMapping("/api/requests")
    ResponseEntity<ApiResponse<PageJson>> mine(Identity caller, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size, @RequestParam(required = false) String status,
            @RequestParam(required = false) String targetKey,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String ifNoneMatch) {
        var command = new ListMyRequests.Command(caller.account(), page, size, ListFilters.status(status),
                ListFilters.target(targetKey));
        if (ifNoneMatch != null) {
            var unchanged = ConditionalReads.<ApiResponse<PageJson>>notModified(ifNoneMatch,
                    Optional.of(myRequests.version(command)));
            if (unchanged.isPresent()) {
                return unchanged.get();
            }
        }
        var found = myRequests.read(command);
        var shown = found.page();
        return ConditionalReads.ok(ApiResponse.ok(new PageJson(shown.items().stream().map(RequestJson::summaryOf).toList(),
                shown.page(), shown.size(), shown.hasMore())), found.version());
    }

    private static ResponseEntity<ApiResponse<RequestJson>> accepted(String code, String message, RequestJson view) {
        return ResponseEntity.status(HttpStatus.ACCEPTED)
                .location(URI.create("/api/requests/" + view.operationId()))
                .body(ApiResponse.of(code, message, view));
    }

    private static ApiException invalid(List<FieldError> errors) {
        return new ApiException(ErrorCode.INVALID_REQUEST, "Please correct the fields listed.",
                Map.of("fieldErrors", errors),
                "invalid submission: " + errors.stream().map(e -> e.field() + "/" + e.code()).toList());
    }
}
