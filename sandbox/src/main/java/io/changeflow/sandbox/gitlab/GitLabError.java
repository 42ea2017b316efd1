package io.changeflow.sandbox.gitlab;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An answer the simulated GitLab gives instead of the resource: an HTTP status with GitLab's error body. */
final class GitLabError extends RuntimeException {

    private final int status;
    private final transient Map<String, Object> body;

    private GitLabError(int status, Map<String, Object> body) {
        super(status + " " + body);
        this.status = status;
        this.body = body;
    }

    /** GitLab's usual shape: {@code {"message": "..."}}. */
    static GitLabError of(int status, String message) {
        var body = new LinkedHashMap<String, Object>();
        body.put("message", message);
        return new GitLabError(status, body);
    }

    /** Model validation failures come as a list of messages: {@code {"message": ["..."]}}. */
    static GitLabError validation(int status, String message) {
        var body = new LinkedHashMap<String, Object>();
        body.put("message", List.of(message));
        return new GitLabError(status, body);
    }

    static GitLabError withBody(int status, Map<String, Object> body) {
        return new GitLabError(status, body);
    }

    static GitLabError unauthorized() {
        return of(401, "401 Unauthorized");
    }

    static GitLabError notFound(String what) {
        return of(404, "404 " + what + " Not Found");
    }

    static GitLabError methodNotAllowed() {
        return of(405, "405 Method Not Allowed");
    }

    int status() {
        return status;
    }

    Map<String, Object> body() {
        return body;
    }
}
