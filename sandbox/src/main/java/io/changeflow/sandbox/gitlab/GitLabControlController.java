package io.changeflow.sandbox.gitlab;

import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test control of the GitLab simulator over HTTP, under {@value #PREFIX} (never fault-injected). The same
 * operations exist as Java methods on {@link GitLabSimulator}. Project ids are numeric or URL-encoded paths.
 */
@RestController
@RequestMapping(GitLabControlController.PREFIX)
class GitLabControlController extends GitLabControlErrors {

    static final String PREFIX = "/sim/gitlab/_control";

    private final GitLabSimulator gitlab;

    GitLabControlController(GitLabSimulator gitlab) {
        this.gitlab = gitlab;
    }

    /** Forgets all state; seeded projects are created again. */
    @PostMapping("/reset")
    ResponseEntity<Void> reset() {
        gitlab.reset();
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"path": "group/project", "files": {"path": "content"}}}; idempotent. */
    @PostMapping("/projects")
    ResponseEntity<Map<String, Object>> createProject(@RequestBody Map<String, Object> body) {
        var path = String.valueOf(body.get("path"));
        var id = gitlab.ensureProject(path, files(body.get("files")));
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id, "path", path));
    }

    /** Body {@code {"branch": "main", "files": {...}, "message": "..."}}: a person pushing to a branch. */
    @PostMapping("/projects/{id}/push")
    Map<String, Object> push(@PathVariable String id, @RequestBody Map<String, Object> body) {
        var branch = body.get("branch") == null ? "main" : String.valueOf(body.get("branch"));
        var message = body.get("message") == null ? "Change from the sandbox" : String.valueOf(body.get("message"));
        var sha = gitlab.push(id, branch, files(body.get("files")), message);
        return Map.of("branch", branch, "sha", sha);
    }

    /** Body {@code {"check_items": ["..."], "enforce": false}}. */
    @PutMapping("/projects/{id}/check_items")
    Map<String, Object> checkItems(@PathVariable String id, @RequestBody Map<String, Object> body) {
        var items = body.get("check_items") instanceof Collection<?> many
                ? many.stream().filter(Objects::nonNull).map(String::valueOf).toList() : List.<String>of();
        gitlab.setCheckItems(id, items, Boolean.TRUE.equals(body.get("enforce")));
        return Map.of("check_items", gitlab.checkItems(id));
    }

    /** Body {@code {"outcome": "success|failed|hang|auto"}} for the pipelines of a merge request. */
    @PutMapping("/projects/{id}/merge_requests/{iid}/pipeline_outcome")
    ResponseEntity<Void> mergeRequestPipeline(@PathVariable String id, @PathVariable long iid,
                                              @RequestBody Map<String, Object> body) {
        gitlab.forcePipeline(id, iid, outcome(body));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"outcome": "success|failed|hang|auto"}} for the pipelines of a branch. */
    @PutMapping("/projects/{id}/branches/{branch}/pipeline_outcome")
    ResponseEntity<Void> branchPipeline(@PathVariable String id, @PathVariable String branch,
                                        @RequestBody Map<String, Object> body) {
        gitlab.forceBranchPipeline(id, branch, outcome(body));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"required": true}}: GitLab's "Pipelines must succeed". */
    @PutMapping("/projects/{id}/require_pipeline_success")
    ResponseEntity<Void> requirePipeline(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.requirePipelineSuccess(id, Boolean.TRUE.equals(body.get("required")));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"merge_method": "merge|ff|rebase_merge"}} (GitLab's project setting; anything else: merge). */
    @PutMapping("/projects/{id}/merge_method")
    ResponseEntity<Void> mergeMethod(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.setMergeMethod(id, GitLabProjectDefaults.MergeMethod.parse(String.valueOf(body.get("merge_method"))));
        return ResponseEntity.noContent().build();
    }

    /**
     * Body {@code {"enabled": true}}: the project answers {@code merge_trains_enabled} and {@code merge_pipelines_enabled};
     * with {@code "skip_train_allowed": true} also {@code merge_trains_skip_train_allowed} (left as it is when absent).
     */
    @PutMapping("/projects/{id}/merge_trains")
    ResponseEntity<Void> mergeTrains(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.setMergeTrains(id, Boolean.TRUE.equals(body.get("enabled")));
        if (body.containsKey("skip_train_allowed")) {
            gitlab.setMergeTrainsSkipTrainAllowed(id, Boolean.TRUE.equals(body.get("skip_train_allowed")));
        }
        return ResponseEntity.noContent().build();
    }

    /** Puts the merge request on the project's merge train, as a person's "Set to auto-merge" does. */
    @PostMapping("/projects/{id}/merge_trains/merge_requests/{iid}")
    ResponseEntity<Void> addToMergeTrain(@PathVariable String id, @PathVariable long iid) {
        gitlab.addToMergeTrain(id, iid);
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"access_level": 30}}: the account's role in the project (0: not a member; default 40, Maintainer). */
    @PutMapping("/projects/{id}/roles/{account}")
    ResponseEntity<Void> role(@PathVariable String id, @PathVariable String account, @RequestBody Map<String, Object> body) {
        gitlab.setRole(id, account, body.get("access_level") instanceof Number level ? level.intValue() : 40);
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"enabled": false}}: the project has no CI (no pipelines, {@code head_pipeline} null); true again. */
    @PutMapping("/projects/{id}/ci")
    ResponseEntity<Void> ci(@PathVariable String id, @RequestBody Map<String, Object> body) {
        gitlab.setCi(id, !Boolean.FALSE.equals(body.get("enabled")));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"millis": 5000}}: the merge request reads {@code locked} and refuses merging (409). */
    @PostMapping("/projects/{id}/merge_requests/{iid}/lock")
    ResponseEntity<Void> lock(@PathVariable String id, @PathVariable long iid, @RequestBody Map<String, Object> body) {
        gitlab.lock(id, iid, Duration.ofMillis(number(body.get("millis"), 5000)));
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"checking_millis": .., "pipeline_millis": .., "rebase_millis": ..}}; missing ones unchanged. */
    @PutMapping("/timings")
    Map<String, Object> timings(@RequestBody Map<String, Object> body) {
        var current = gitlab.properties();
        gitlab.setTimings(
                Duration.ofMillis(number(body.get("checking_millis"), current.checkingDuration().toMillis())),
                Duration.ofMillis(number(body.get("pipeline_millis"), current.pipelineDuration().toMillis())),
                Duration.ofMillis(number(body.get("rebase_millis"), current.rebaseDuration().toMillis())));
        return timings();
    }

    @GetMapping("/timings")
    Map<String, Object> timings() {
        var current = gitlab.properties();
        var json = new LinkedHashMap<String, Object>();
        json.put("checking_millis", current.checkingDuration().toMillis());
        json.put("pipeline_millis", current.pipelineDuration().toMillis());
        json.put("rebase_millis", current.rebaseDuration().toMillis());
        return json;
    }

    /** A short view of one merge request, for people looking at the sandbox. */
    @GetMapping("/projects/{id}/merge_requests/{iid}")
    Map<String, Object> mergeRequest(@PathVariable String id, @PathVariable long iid) {
        var json = new LinkedHashMap<String, Object>();
        json.put("state", gitlab.mergeRequestState(id, iid));
        json.put("detailed_merge_status", gitlab.detailedMergeStatus(id, iid));
        json.put("sha", gitlab.mergeRequestSha(id, iid));
        json.put("approved_by", gitlab.approvedBy(id, iid));
        return json;
    }

    private static Map<String, String> files(Object value) {
        var files = new LinkedHashMap<String, String>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> files.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
        }
        return files;
    }

    private static PipelineOutcome outcome(Map<String, Object> body) {
        var raw = body.get("outcome") == null ? "auto" : String.valueOf(body.get("outcome"));
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "success" -> PipelineOutcome.SUCCESS;
            case "failed", "failure" -> PipelineOutcome.FAILED;
            case "hang" -> PipelineOutcome.HANG;
            case "auto" -> PipelineOutcome.AUTO;
            default -> {
                for (var fixed : PipelineOutcome.values()) {
                    if (raw.trim().equalsIgnoreCase(fixed.name())) {
                        yield fixed;
                    }
                }
                throw new IllegalArgumentException("outcome is one of success, failed, hang, auto or a GitLab pipeline "
                        + "status (manual, skipped, canceled, canceling, created, scheduled, preparing, "
                        + "waiting_for_resource, waiting_for_callback, pending, running)");
            }
        };
    }

    private static long number(Object value, long fallback) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        try {
            return value == null ? fallback : Long.parseLong(String.valueOf(value).trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
