package io.changeflow.systemtest.harness;

import io.changeflow.sandbox.gitlab.GitLabSimulator;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Every call of the simulated GitLab REST API that reached the simulator (calls refused by fault
 * injection never do; calls whose response fault injection loses do, with their real status), and
 * hooks that run just before a matching call is applied, e.g. "merge this merge request by hand
 * right before the service's close call lands" (a merge racing a close).
 *
 * <p>Counting approvals per merge request and bot from here shows double approvals that the
 * simulator refused (401): GitLab itself never records a second approval by the same account.
 */
public final class GitLabCalls implements HandlerInterceptor {

    private static final String API = "/sim/gitlab/api/v4";
    private static final Pattern MERGE_REQUEST_PATH =
            Pattern.compile("^/projects/([^/]+)/merge_requests/(\\d+)(?:/([a-z_]+))?$");
    private static final String CALL = GitLabCalls.class.getName() + ".call";

    /**
     * One call.
     *
     * @param method  HTTP method
     * @param path    the path below {@code /api/v4}, still URL-encoded
     * @param project the project as the caller named it (decoded path or numeric id), null when none
     * @param iid     the merge request's number, -1 when the call is not about one
     * @param action  for merge request calls: {@code approve}, {@code merge}, {@code rebase},
     *                {@code approvals}, {@code pipelines}, or empty for the merge request itself
     *                ({@code GET} read, {@code PUT} update such as close); null otherwise
     * @param account the simulator account of the caller's token, or null
     * @param status  the HTTP status the simulator answered (0 while running)
     */
    public record Call(String method, String path, String project, long iid, String action, String account,
                      int status, Instant at) {

        public boolean isMergeRequestUpdate() {
            return "PUT".equals(method) && "".equals(action);
        }

        public boolean is(String httpMethod, String mergeRequestAction) {
            return httpMethod.equals(method) && mergeRequestAction.equals(action);
        }
    }

    private record Hook(Predicate<Call> matches, Consumer<Call> action) {}

    private final GitLabSimulator gitlab;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final List<Hook> hooks = new CopyOnWriteArrayList<>();

    public GitLabCalls(GitLabSimulator gitlab) {
        this.gitlab = gitlab;
    }

    /** Every call seen so far, in arrival order. */
    public List<Call> all() {
        return List.copyOf(calls);
    }

    /** Calls matching {@code filter}. */
    public List<Call> matching(Predicate<Call> filter) {
        return calls.stream().filter(filter).toList();
    }

    /**
     * Approve calls per merge request and account: {@code "project!iid" -> account -> [statuses]}.
     * A list with a 201 and a 401 is a second approval attempt the simulator refused.
     */
    public Map<String, Map<String, List<Integer>>> approveAttempts() {
        var result = new HashMap<String, Map<String, List<Integer>>>();
        for (var call : calls) {
            if (call.is("POST", "approve") && call.status() != 0) {
                result.computeIfAbsent(call.project() + "!" + call.iid(), k -> new HashMap<>())
                        .computeIfAbsent(String.valueOf(call.account()), k -> new ArrayList<>()).add(call.status());
            }
        }
        return result;
    }

    /**
     * Issue 15, the GitLab call budget: the calls of {@code all} from index {@code from} on, over {@code requests}
     * requests and by kind ({@code GET merge_requests} is the merge request itself, {@code .../approvals} and the
     * like its sub-resources; project, branch and file names folded), as the text of a figure.
     */
    public static String perRequest(List<Call> all, int from, int requests, String what) {
        var calls = all.subList(Math.min(from, all.size()), all.size());
        var byKind = new java.util.TreeMap<String, Integer>();
        for (var call : calls) {
            var kind = call.action() != null
                    ? "merge_requests" + (call.action().isEmpty() ? (call.iid() < 0 ? " (list/create)" : "") : "/" + call.action())
                    : call.path().replaceAll("\\?.*", "").replaceAll("projects/[^/]+", "projects/:id")
                            .replaceAll("/files/[^/]+", "/files/:file").replaceAll("/branches/[^/]+", "/branches/:branch");
            byKind.merge(call.method() + " " + kind, 1, Integer::sum);
        }
        var text = new StringBuilder(String.format(java.util.Locale.ROOT, "%d GitLab calls for %d %s: %.1f per request%n",
                calls.size(), requests, what, calls.size() / (double) requests));
        byKind.forEach((kind, n) -> text.append("  ").append(n).append("  ").append(kind).append('\n'));
        return text.toString();
    }

    /**
     * Runs {@code action} once, just before the first call matching {@code matches} is applied
     * (after fault injection let it through). The action may use the simulator's HTTP API.
     */
    public void beforeNext(Predicate<Call> matches, Consumer<Call> action) {
        hooks.add(new Hook(Objects.requireNonNull(matches), Objects.requireNonNull(action)));
    }

    public void clear() {
        calls.clear();
        hooks.clear();
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        var uri = request.getRequestURI().substring(request.getContextPath().length());
        if (!uri.startsWith(API + "/")) {
            return true;
        }
        var call = describe(request.getMethod(), uri.substring(API.length()), account(request), 0);
        request.setAttribute(CALL, call);
        for (var hook : hooks) {
            if (hook.matches().test(call) && hooks.remove(hook)) {
                hook.action().accept(call);
            }
        }
        return true;
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler,
                                Exception ex) {
        if (request.getAttribute(CALL) instanceof Call call) {
            calls.add(new Call(call.method(), call.path(), call.project(), call.iid(), call.action(), call.account(),
                    response.getStatus(), call.at()));
        }
    }

    private String account(HttpServletRequest request) {
        var token = request.getHeader("PRIVATE-TOKEN");
        if (token == null) {
            var authorization = request.getHeader("Authorization");
            if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                token = authorization.substring(7).strip();
            }
        }
        if (token == null) {
            return null;
        }
        if (token.equals(gitlab.author().token())) {
            return gitlab.author().username();
        }
        for (var approver : gitlab.approvers()) {
            if (token.equals(approver.token())) {
                return approver.username();
            }
        }
        return "unknown-token";
    }

    static Call describe(String method, String path, String account, int status) {
        var matcher = MERGE_REQUEST_PATH.matcher(path);
        if (matcher.matches()) {
            var project = URLDecoder.decode(matcher.group(1), StandardCharsets.UTF_8);
            var action = matcher.group(3) == null ? "" : matcher.group(3);
            return new Call(method, path, project, Long.parseLong(matcher.group(2)), action, account, status,
                    Instant.now());
        }
        String project = null;
        if (path.startsWith("/projects/")) {
            var rest = path.substring("/projects/".length());
            var slash = rest.indexOf('/');
            project = URLDecoder.decode(slash < 0 ? rest : rest.substring(0, slash), StandardCharsets.UTF_8);
        }
        return new Call(method, path, project, -1, null, account, status, Instant.now());
    }
}
