package io.changeflow.sandbox.gitlab;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;

/**
 * The simulator's web pages, where its {@code web_url} fields point: for now the read-only page of a merge
 * request, {@code /sim/gitlab/<project path>/-/merge_requests/<iid>} (project paths of one to four segments,
 * e.g. {@code platform/access-config}), so the link the app shows opens something in the sandbox. Never
 * fault-injected (only the REST API is); {@code Cache-Control: no-store}, no script.
 */
@RestController
class GitLabWebController {

    /** Where the pages live, below the server's context path. */
    static final String BASE = "/sim/gitlab";
    static final String MERGE_REQUESTS = "/-/merge_requests/";

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);
    /** Nothing but the inline styles: the page shows text from merge requests, never runs anything. */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

    private final GitLabSimulator gitlab;

    GitLabWebController(GitLabSimulator gitlab) {
        this.gitlab = gitlab;
    }

    @GetMapping({
            BASE + "/{a}" + MERGE_REQUESTS + "{iid}",
            BASE + "/{a}/{b}" + MERGE_REQUESTS + "{iid}",
            BASE + "/{a}/{b}/{c}" + MERGE_REQUESTS + "{iid}",
            BASE + "/{a}/{b}/{c}/{d}" + MERGE_REQUESTS + "{iid}"})
    ResponseEntity<String> mergeRequest(@PathVariable long iid, HttpServletRequest request) {
        var view = gitlab.mergeRequestPage(projectPath(request), iid);
        return page(HttpStatus.OK, MergeRequestPage.render(view));
    }

    @ExceptionHandler(GitLabError.class)
    ResponseEntity<String> notFound(GitLabError error) {
        return page(HttpStatus.NOT_FOUND, MergeRequestPage.notFound("The simulator has no such project or merge request."));
    }

    /** The project path between {@value #BASE} and {@value #MERGE_REQUESTS}, decoded. */
    static String projectPath(HttpServletRequest request) {
        var path = request.getRequestURI().substring(request.getContextPath().length());
        var start = BASE.length() + 1;
        var end = path.lastIndexOf(MERGE_REQUESTS);
        return UriUtils.decode(path.substring(start, Math.max(start, end)), StandardCharsets.UTF_8);
    }

    private static ResponseEntity<String> page(HttpStatus status, String html) {
        return ResponseEntity.status(status).contentType(HTML).cacheControl(CacheControl.noStore())
                .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .header("X-Content-Type-Options", "nosniff")
                .body(html);
    }
}
