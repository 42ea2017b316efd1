package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.callback.WakeOnGitLabEvent;
import io.changeflow.domain.request.FieldError;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * GitLab's project webhook (issue 33 item 3): pipeline and merge request events wake the step waiting on that merge
 * request ({@link WakeOnGitLabEvent}); the step then reads GitLab, the event itself decides nothing. Payload fields
 * read, from GitLab's {@code doc/user/project/integrations/webhook_events.md} (gitlabhq): {@code object_kind},
 * {@code project.id}, {@code project.path_with_namespace}; a pipeline event's {@code merge_request.iid} (null for a
 * branch pipeline) and {@code object_attributes.ref}, {@code .tag}; a merge request event's {@code object_attributes.iid}
 * , {@code .source_branch} and {@code .action} ({@code reopen}: a merge request of an ended request is closed again,
 * finding S9). In order:
 * <ul>
 *   <li>no secret configured: 404 WEBHOOKS_OFF (the feature is off; polling alone drives the waits);</li>
 *   <li>{@code X-Gitlab-Token} missing, sent twice or not the secret (compared in constant time): 401 INVALID_TOKEN;</li>
 *   <li>a body over {@code changeflow.gitlab.webhooks.max-body-size}: 413 PAYLOAD_TOO_LARGE (the body size filter);</li>
 *   <li>another event kind (push, note, job, ...), or a pipeline event whose {@code object_attributes.status} ends no
 *       wait (created, pending, running, ...): 200 IGNORED_STALE, nothing stored;</li>
 *   <li>a body that is not such an event: 400 INVALID_REQUEST;</li>
 *   <li>else 200 PROCESSED, DUPLICATE or IGNORED_STALE (a merge request or branch Changeflow does not know): GitLab
 *       disables a project hook whose deliveries keep failing ({@code app/models/concerns/web_hooks/auto_disabling.rb}),
 *       so nothing GitLab sends in good faith is answered with an error.</li>
 * </ul>
 * Deduplicated by GitLab's {@code Idempotency-Key} (the same for every retry of one event, GitLab 17.x+:
 * {@code app/services/web_hook_service.rb}), else by {@code X-Gitlab-Event-UUID} together with the body's digest: that
 * UUID is the recursion-detection UUID of the request that triggered the hook
 * ({@code lib/gitlab/web_hooks/recursion_detection/uuid.rb}), shared by every event one request fires at a hook.
 */
@RestController
public final class GitLabHooksController {

    /** The endpoint. */
    public static final String PATH = "/callbacks/gitlab";
    /** GitLab's headers ({@code lib/gitlab/web_hooks.rb}, {@code app/services/web_hook_service.rb}). */
    public static final String TOKEN = "X-Gitlab-Token";
    static final String EVENT = "X-Gitlab-Event";
    static final String EVENT_UUID = "X-Gitlab-Event-UUID";
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** What this endpoint answers with a 200: how many waiting steps the delivery brought forward. */
    record GitLabHookAnswerJson(int woken) {}

    /** The fields read of GitLab's event (the rest of its payload is ignored). */
    record GitLabEventJson(String object_kind, Map<String, Object> project, Map<String, Object> object_attributes,
                           Map<String, Object> merge_request) {}

    private static final Logger log = LoggerFactory.getLogger(GitLabHooksController.class);
    private static final String PIPELINE = "pipeline";
    private static final String MERGE_REQUEST = "merge_request";
    /** The pipeline statuses that end a wait (a finished pipeline, or one waiting for a person: {@code manual}). */
    static final java.util.Set<String> ENDS_A_WAIT = java.util.Set.of("success", "failed", "canceled", "skipped", "manual");

    private final GitLabHookSettings settings;
    private final WakeOnGitLabEvent wake;
    private final JsonMapper json;
    private final SafeMeters meters;

    public GitLabHooksController(GitLabHookSettings settings, WakeOnGitLabEvent wake, JsonMapper json, SafeMeters meters) {
        this.settings = settings;
        this.wake = wake;
        this.json = json;
        this.meters = meters;
    }

    /** A pipeline or merge request event of GitLab's project webhook; see the class comment for the answers. */
    @Answers(summary = "GitLab's project webhook: a pipeline or merge request event wakes the waiting step",
            codes = {"PROCESSED", "DUPLICATE", "IGNORED_STALE"})
    @PostMapping(PATH)
    ApiResponse<GitLabHookAnswerJson> hook(HttpServletRequest request,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(content = @io.swagger.v3.oas.annotations.media.Content(
                    mediaType = "application/json", schema = @io.swagger.v3.oas.annotations.media.Schema(
                    implementation = GitLabEventJson.class))) @RequestBody(required = false) byte[] body) {
        if (settings.secret().isEmpty()) {
            refused("not_configured");
            throw ApiException.of(ErrorCode.WEBHOOKS_OFF, "GitLab webhook while changeflow.gitlab.webhooks.secret is not set");
        }
        if (!tokenMatches(request)) {
            refused("invalid_token");
            throw ApiException.of(ErrorCode.INVALID_TOKEN, "GitLab webhook with a missing or wrong " + TOKEN);
        }
        var bytes = body == null ? new byte[0] : body;
        var kind = Optional.ofNullable(request.getHeader(EVENT)).orElse("");
        var event = parsed(bytes);
        var objectKind = text(event.get("object_kind")).orElse("");
        if (!PIPELINE.equals(objectKind) && !MERGE_REQUEST.equals(objectKind)) {
            log.debug("GitLab {} ignored: not an event a step waits for", clip(kind));
            return ApiResponse.of("IGNORED_STALE", "Changeflow does not wait for this kind of event; it was ignored.",
                    new GitLabHookAnswerJson(0));
        }
        var command = command(request, bytes, event, objectKind);
        if (PIPELINE.equals(objectKind) && !ENDS_A_WAIT.contains(text(event.path("object_attributes").get("status")).orElse(""))) {
            // a pipeline that is created, pending or running ends no wait: the woken step would only look and wait again
            return ApiResponse.of("IGNORED_STALE", "A pipeline still running ends no wait; it was ignored.",
                    new GitLabHookAnswerJson(0));
        }
        var result = wake.handle(command);
        var message = switch (result.answer()) {
            case PROCESSED -> "The steps waiting on this merge request look at GitLab now.";
            case DUPLICATE -> "This delivery was seen before; nothing was done again.";
            case IGNORED_STALE -> "No request of Changeflow waits on this merge request; it was ignored.";
        };
        return ApiResponse.of(result.answer().name(), message, new GitLabHookAnswerJson(result.woken()));
    }

    private WakeOnGitLabEvent.Command command(HttpServletRequest request, byte[] bytes, JsonNode event, String objectKind) {
        var project = event.path("project");
        var projects = new ArrayList<String>();
        number(project.get("id")).ifPresent(id -> projects.add(String.valueOf(id)));
        text(project.get("path_with_namespace")).ifPresent(projects::add);
        var attributes = event.path("object_attributes");
        Optional<Long> iid;
        Optional<String> branch;
        if (PIPELINE.equals(objectKind)) {
            iid = number(event.path("merge_request").get("iid"));
            branch = attributes.path("tag").asBoolean(false) ? Optional.empty() : text(attributes.get("ref"));
        } else {
            iid = number(attributes.get("iid"));
            branch = text(attributes.get("source_branch"));
        }
        if (projects.isEmpty() || (iid.isEmpty() && branch.isEmpty())) {
            throw new ApiException(ErrorCode.INVALID_REQUEST, "The webhook body is not a GitLab " + objectKind + " event.",
                    Map.of("fieldErrors", List.of(new FieldError("project", "REQUIRED",
                            "a GitLab event names its project and a merge request or branch"))),
                    "GitLab " + objectKind + " event without project or merge request");
        }
        var action = PIPELINE.equals(objectKind) ? Optional.<String>empty() : text(attributes.get("action"));
        return new WakeOnGitLabEvent.Command(deliveryKey(request, bytes), projects, iid, branch, action);
    }

    /**
     * The key against repeats: GitLab's {@code Idempotency-Key} when sent, else {@code X-Gitlab-Event-UUID} with the
     * body's digest, else the body's digest alone; stored as a SHA-256 so any length fits.
     */
    static String deliveryKey(HttpServletRequest request, byte[] body) {
        var idempotency = single(request, IDEMPOTENCY_KEY);
        if (idempotency.isPresent()) {
            return "k:" + sha256(idempotency.get().getBytes(StandardCharsets.UTF_8));
        }
        var uuid = single(request, EVENT_UUID).orElse("");
        return "u:" + sha256((uuid + "\n" + sha256(body)).getBytes(StandardCharsets.UTF_8));
    }

    /** The token compared in constant time: both sides hashed first, so neither length nor content leaks. */
    private boolean tokenMatches(HttpServletRequest request) {
        var values = request.getHeaders(TOKEN) == null ? List.<String>of() : Collections.list(request.getHeaders(TOKEN));
        if (values.size() != 1) {
            return false;
        }
        return MessageDigest.isEqual(digest(values.getFirst().getBytes(StandardCharsets.UTF_8)),
                digest(settings.secretBytes()));
    }

    private JsonNode parsed(byte[] bytes) {
        try {
            var tree = json.readTree(bytes);
            if (tree != null && tree.isObject()) {
                return tree;
            }
        } catch (JacksonException e) {
            // answered below
        }
        throw new ApiException(ErrorCode.INVALID_REQUEST, "The webhook body is not a JSON object.",
                Map.of("fieldErrors", List.of(new FieldError("body", "INVALID_FORMAT", "the body is a JSON object"))),
                "GitLab webhook with a body that is not a JSON object");
    }

    private void refused(String reason) {
        meters.increment(MeterNames.CALLBACKS_REFUSED, Map.of("source", WakeOnGitLabEvent.SOURCE, "reason", reason));
    }

    private static Optional<String> single(HttpServletRequest request, String name) {
        var values = request.getHeaders(name) == null ? List.<String>of() : Collections.list(request.getHeaders(name));
        return values.size() == 1 && !values.getFirst().isBlank() ? Optional.of(values.getFirst().strip()) : Optional.empty();
    }

    private static Optional<String> text(JsonNode node) {
        return node != null && node.isString() && !node.stringValue().isBlank() && node.stringValue().length() <= 255
                ? Optional.of(node.stringValue()) : Optional.empty();
    }

    private static Optional<Long> number(JsonNode node) {
        return node != null && node.isIntegralNumber() && node.canConvertToLong() && node.longValue() > 0
                ? Optional.of(node.longValue()) : Optional.empty();
    }

    private static byte[] digest(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest(bytes));
    }

    private static String clip(String value) {
        var clean = value.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 64 ? clean : clean.substring(0, 64) + "...";
    }
}
