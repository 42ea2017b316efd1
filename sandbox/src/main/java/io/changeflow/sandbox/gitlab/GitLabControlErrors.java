package io.changeflow.sandbox.gitlab;

import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;

/** How the control controllers answer a refusal: GitLab's own error as GitLab shapes it, a bad body as 400. */
abstract class GitLabControlErrors {

    @ExceptionHandler(GitLabError.class)
    ResponseEntity<Map<String, Object>> error(GitLabError error) {
        return ResponseEntity.status(error.status()).contentType(MediaType.APPLICATION_JSON).body(error.body());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ResponseEntity<Map<String, Object>> badRequest(IllegalArgumentException error) {
        return ResponseEntity.badRequest().body(Map.of("message", "400 Bad request - " + error.getMessage()));
    }
}
