package io.changeflow.sandbox.gitlab;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The GitLab REST v4 endpoints Changeflow uses, under {@value #PREFIX}, so that a GitLab client pointed at
 * {@code http://host:port/sim/gitlab} talks to the simulator. Projects are addressed by numeric id or by
 * URL-encoded path ({@code platform%2Faccess-config}); the caller is the account of the {@code PRIVATE-TOKEN}
 * header. Parameters are read from the query, a form body or a JSON body, as GitLab accepts all three.
 */
@RestController
@RequestMapping(GitLabApiController.PREFIX)
class GitLabApiController {

    static final String PREFIX = "/sim/gitlab/api/v4";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final GitLabSimulator gitlab;

    GitLabApiController(GitLabSimulator gitlab) {
        this.gitlab = gitlab;
    }

    @GetMapping("/user")
    Map<String, Object> currentUser(HttpServletRequest request) {
        return gitlab.userJson(caller(request));
    }

    @GetMapping("/projects/{id}")
    Map<String, Object> project(@PathVariable String id, HttpServletRequest request) {
        caller(request);
        return gitlab.projectJson(id);
    }

    @GetMapping("/projects/{id}/protected_branches/{branch}")
    Map<String, Object> protectedBranch(@PathVariable String id, @PathVariable String branch, HttpServletRequest request) {
        caller(request);
        return gitlab.protectedBranchJson(id, branch).orElseThrow(() -> GitLabError.notFound("Protected Branch"));
    }

    @GetMapping("/projects/{id}/members/all/{userId}")
    Map<String, Object> member(@PathVariable String id, @PathVariable long userId, HttpServletRequest request) {
        caller(request);
        return gitlab.memberJson(id, userId).orElseThrow(() -> GitLabError.of(404, "404 Not found"));
    }

    @GetMapping("/projects/{id}/approvals")
    Map<String, Object> approvalSettings(@PathVariable String id, HttpServletRequest request) {
        return gitlab.approvalSettingsJson(id, caller(request));
    }

    /** 200 with the rule, or with the body {@code null} where the project has none (doc/api/project_push_rules.md). */
    @GetMapping("/projects/{id}/push_rule")
    ResponseEntity<Object> pushRule(@PathVariable String id, HttpServletRequest request) {
        var rule = gitlab.pushRuleJson(id, caller(request));
        return rule.<ResponseEntity<Object>>map(ResponseEntity::ok).orElseGet(() -> ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON).body("null"));
    }

    @GetMapping("/projects/{id}/hooks")
    List<Map<String, Object>> hooks(@PathVariable String id, HttpServletRequest request) {
        return gitlab.hooksJson(id, caller(request));
    }

    @GetMapping("/projects/{id}/approval_rules")
    List<Map<String, Object>> approvalRules(@PathVariable String id, HttpServletRequest request) {
        caller(request);
        return gitlab.approvalRulesJson(id);
    }

    @GetMapping("/projects/{id}/repository/files/{path}")
    ResponseEntity<Map<String, Object>> file(@PathVariable String id, @PathVariable String path,
                                             HttpServletRequest request) {
        caller(request);
        var json = gitlab.fileJson(id, path, request.getParameter("ref"));
        var headers = new HttpHeaders();
        headers.add("X-Gitlab-Blob-Id", String.valueOf(json.get("blob_id")));
        headers.add("X-Gitlab-Commit-Id", String.valueOf(json.get("commit_id")));
        headers.add("X-Gitlab-Content-Sha256", String.valueOf(json.get("content_sha256")));
        headers.add("X-Gitlab-Encoding", "base64");
        headers.add("X-Gitlab-File-Name", String.valueOf(json.get("file_name")));
        headers.add("X-Gitlab-File-Path", path);
        headers.add("X-Gitlab-Last-Commit-Id", String.valueOf(json.get("last_commit_id")));
        headers.add("X-Gitlab-Ref", String.valueOf(json.get("ref")));
        headers.add("X-Gitlab-Size", String.valueOf(json.get("size")));
        headers.add("X-Gitlab-Execute-Filemode", "false");
        return ResponseEntity.ok().headers(headers).body(json);
    }

    @GetMapping("/projects/{id}/repository/files/{path}/blame")
    List<Map<String, Object>> blame(@PathVariable String id, @PathVariable String path, HttpServletRequest request) {
        caller(request);
        return gitlab.blameJson(id, path, request.getParameter("ref"));
    }

    @GetMapping("/projects/{id}/repository/files/{path}/raw")
    ResponseEntity<String> rawFile(@PathVariable String id, @PathVariable String path, HttpServletRequest request) {
        caller(request);
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN)
                .body(gitlab.rawFile(id, path, request.getParameter("ref")));
    }

    @GetMapping("/projects/{id}/repository/branches/{branch}")
    Map<String, Object> branch(@PathVariable String id, @PathVariable String branch, HttpServletRequest request) {
        caller(request);
        return gitlab.branchJson(id, branch);
    }

    @GetMapping("/projects/{id}/repository/commits")
    ResponseEntity<List<Map<String, Object>>> commits(@PathVariable String id, HttpServletRequest request) {
        caller(request);
        return page(gitlab.listCommits(id, request.getParameter("ref_name"), request.getParameter("path")), request);
    }

    @GetMapping("/projects/{id}/repository/commits/{sha}")
    Map<String, Object> commit(@PathVariable String id, @PathVariable String sha, HttpServletRequest request) {
        caller(request);
        return gitlab.commitJson(id, sha);
    }

    /** {@code refs[]} repeated, or {@code refs} comma-separated (GitLab's {@code CommaSeparatedToArray}). */
    @GetMapping("/projects/{id}/repository/merge_base")
    Map<String, Object> mergeBase(@PathVariable String id, HttpServletRequest request) {
        caller(request);
        var refs = new ArrayList<String>();
        for (var name : List.of("refs[]", "refs")) {
            var values = request.getParameterValues(name);
            if (values != null) {
                for (var value : values) {
                    java.util.Arrays.stream(value.split(",")).map(String::strip).filter(v -> !v.isEmpty()).forEach(refs::add);
                }
            }
        }
        return gitlab.mergeBaseJson(id, refs);
    }

    @PostMapping("/projects/{id}/repository/branches")
    ResponseEntity<Map<String, Object>> createBranch(@PathVariable String id, HttpServletRequest request) {
        var caller = caller(request);
        var params = params(request);
        return created(gitlab.createBranch(id, text(params, "branch"), text(params, "ref"), caller));
    }

    @PostMapping("/projects/{id}/repository/commits")
    ResponseEntity<Map<String, Object>> commit(@PathVariable String id, HttpServletRequest request) {
        var caller = caller(request);
        var params = params(request);
        return created(gitlab.commit(id, text(params, "branch"), text(params, "commit_message"),
                text(params, "start_branch"), "true".equalsIgnoreCase(text(params, "force")), actions(params.get("actions")),
                caller));
    }

    @GetMapping("/projects/{id}/merge_requests")
    ResponseEntity<List<Map<String, Object>>> mergeRequests(@PathVariable String id, HttpServletRequest request) {
        caller(request);
        var state = request.getParameter("state");
        var source = request.getParameter("source_branch");
        var target = request.getParameter("target_branch");
        Predicate<Map<String, Object>> filter = mr ->
                (state == null || state.isBlank() || state.equals("all") || state.equals(mr.get("state")))
                        && (source == null || source.equals(mr.get("source_branch")))
                        && (target == null || target.equals(mr.get("target_branch")));
        return page(gitlab.listMergeRequests(id, filter), request);
    }

    @PostMapping("/projects/{id}/merge_requests")
    ResponseEntity<Map<String, Object>> createMergeRequest(@PathVariable String id, HttpServletRequest request) {
        var caller = caller(request);
        var params = params(request);
        return created(gitlab.createMergeRequest(id, text(params, "source_branch"), text(params, "target_branch"),
                text(params, "title"), text(params, "description"), caller));
    }

    @GetMapping("/projects/{id}/merge_requests/{iid}")
    Map<String, Object> mergeRequest(@PathVariable String id, @PathVariable long iid, HttpServletRequest request) {
        caller(request);
        return gitlab.getMergeRequest(id, iid, "true".equals(request.getParameter("include_rebase_in_progress")),
                "true".equals(request.getParameter("include_diverged_commits_count")));
    }

    @PutMapping("/projects/{id}/merge_requests/{iid}")
    Map<String, Object> updateMergeRequest(@PathVariable String id, @PathVariable long iid,
                                           HttpServletRequest request) {
        var caller = caller(request);
        var params = params(request);
        return gitlab.updateMergeRequest(id, iid, text(params, "state_event"), text(params, "title"),
                text(params, "description"), caller);
    }

    @GetMapping("/projects/{id}/merge_requests/{iid}/pipelines")
    ResponseEntity<List<Map<String, Object>>> mergeRequestPipelines(@PathVariable String id, @PathVariable long iid,
                                                                    HttpServletRequest request) {
        caller(request);
        return page(gitlab.mergeRequestPipelines(id, iid), request);
    }

    @GetMapping("/projects/{id}/pipelines/{pipelineId}")
    Map<String, Object> pipeline(@PathVariable String id, @PathVariable long pipelineId, HttpServletRequest request) {
        caller(request);
        return gitlab.pipelineJson(id, pipelineId);
    }

    @GetMapping("/projects/{id}/merge_requests/{iid}/approvals")
    Map<String, Object> approvals(@PathVariable String id, @PathVariable long iid, HttpServletRequest request) {
        return gitlab.approvalsJson(id, iid, caller(request));
    }

    /** The client library sends a form (optionally {@code sha}); the direct call a JSON body with {@code check_items}. */
    @PostMapping("/projects/{id}/merge_requests/{iid}/approve")
    ResponseEntity<Map<String, Object>> approve(@PathVariable String id, @PathVariable long iid,
                                                HttpServletRequest request) {
        var caller = caller(request);
        var params = params(request);
        List<String> checkItems = null;
        if (params.containsKey("check_items")) {
            checkItems = strings(params.get("check_items"));
        }
        return created(gitlab.approve(id, iid, text(params, "sha"), checkItems, caller));
    }

    @PutMapping("/projects/{id}/merge_requests/{iid}/merge")
    Map<String, Object> merge(@PathVariable String id, @PathVariable long iid, HttpServletRequest request) {
        var caller = caller(request);
        var params = params(request);
        // ee/lib/ee/api/merge_requests.rb: skip_merge_train, a Grape Boolean
        var skipMergeTrain = "true".equalsIgnoreCase(String.valueOf(params.get("skip_merge_train")));
        return gitlab.merge(id, iid, text(params, "sha"), skipMergeTrain, caller);
    }

    /** The project's merge train (doc/api/merge_trains.md), unpaginated: a train here is short. */
    @GetMapping("/projects/{id}/merge_trains")
    List<Map<String, Object>> mergeTrains(@PathVariable String id) {
        return gitlab.mergeTrainJson(id);
    }

    @PutMapping("/projects/{id}/merge_requests/{iid}/rebase")
    ResponseEntity<Map<String, Object>> rebase(@PathVariable String id, @PathVariable long iid,
                                               HttpServletRequest request) {
        var caller = caller(request);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(gitlab.rebase(id, iid, caller));
    }

    /** The upstream configuration API: the approval check items in effect for a project. */
    @GetMapping("/projects/{id}/approval_check_items")
    Map<String, Object> checkItems(@PathVariable String id, HttpServletRequest request) {
        caller(request);
        return gitlab.checkItemsJson(id);
    }

    @ExceptionHandler(GitLabError.class)
    ResponseEntity<Map<String, Object>> error(GitLabError error) {
        return ResponseEntity.status(error.status()).contentType(MediaType.APPLICATION_JSON).body(error.body());
    }

    private GitLabSimulator.User caller(HttpServletRequest request) {
        var token = request.getHeader("PRIVATE-TOKEN");
        if (token == null) {
            var authorization = request.getHeader(HttpHeaders.AUTHORIZATION);
            if (authorization != null && authorization.startsWith("Bearer ")) {
                token = authorization.substring("Bearer ".length());
            }
        }
        return gitlab.authenticate(token);
    }

    private static ResponseEntity<Map<String, Object>> created(Map<String, Object> body) {
        return ResponseEntity.status(HttpStatus.CREATED).body(body);
    }

    /** GitLab's offset pagination: {@code page}, {@code per_page} (default 20, at most 100) and the X-* headers. */
    private static <T> ResponseEntity<List<T>> page(List<T> all, HttpServletRequest request) {
        var page = Math.max(1, intParam(request, "page", 1));
        var perPage = Math.min(100, Math.max(1, intParam(request, "per_page", 20)));
        var totalPages = Math.max(1, (all.size() + perPage - 1) / perPage);
        var from = Math.min(all.size(), (page - 1) * perPage);
        var to = Math.min(all.size(), from + perPage);
        var headers = new HttpHeaders();
        headers.add("X-Page", String.valueOf(page));
        headers.add("X-Per-Page", String.valueOf(perPage));
        headers.add("X-Total", String.valueOf(all.size()));
        headers.add("X-Total-Pages", String.valueOf(totalPages));
        headers.add("X-Next-Page", page < totalPages ? String.valueOf(page + 1) : "");
        headers.add("X-Prev-Page", page > 1 ? String.valueOf(page - 1) : "");
        return ResponseEntity.ok().headers(headers).body(new ArrayList<>(all.subList(from, to)));
    }

    private static int intParam(HttpServletRequest request, String name, int fallback) {
        try {
            var value = request.getParameter(name);
            return value == null ? fallback : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** Query and form parameters, overlaid with the fields of a JSON body when there is one. */
    private static Map<String, Object> params(HttpServletRequest request) {
        var params = new LinkedHashMap<String, Object>();
        request.getParameterMap().forEach((name, values) -> {
            var key = name.endsWith("[]") ? name.substring(0, name.length() - 2) : name;
            params.put(key, name.endsWith("[]") ? List.of(values) : values.length == 1 ? values[0] : List.of(values));
        });
        var contentType = request.getContentType();
        if (contentType != null && contentType.toLowerCase().startsWith(MediaType.APPLICATION_JSON_VALUE)) {
            try (var body = request.getInputStream()) {
                var bytes = body.readAllBytes();
                if (bytes.length > 0) {
                    Map<?, ?> json = JSON.readValue(bytes, Map.class);
                    json.forEach((k, v) -> params.put(String.valueOf(k), v));
                }
            } catch (IOException | JacksonException e) {
                throw GitLabError.of(400, "400 Bad request - the JSON body could not be read");
            }
        }
        return params;
    }

    private static String text(Map<String, Object> params, String name) {
        var value = params.get(name);
        return value == null ? null : String.valueOf(value);
    }

    private static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        if (value instanceof Collection<?> many) {
            return many.stream().filter(Objects::nonNull).map(String::valueOf).toList();
        }
        var single = String.valueOf(value);
        return single.isBlank() ? List.of() : List.of(single.split(","));
    }

    private static List<Map<String, Object>> actions(Object value) {
        if (!(value instanceof Collection<?> many)) {
            return List.of();
        }
        var actions = new ArrayList<Map<String, Object>>();
        for (var item : many) {
            if (item instanceof Map<?, ?> map) {
                var action = new LinkedHashMap<String, Object>();
                map.forEach((k, v) -> action.put(String.valueOf(k), v));
                actions.add(action);
            }
        }
        return actions;
    }
}
