package io.changeflow.sandbox.gitlab;

import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test control of the simulator's rate limit ({@link GitLabRateLimit}) over HTTP, under
 * {@value GitLabControlController#PREFIX}{@code /rate_limit}: the limit, whether every answer carries the
 * {@code RateLimit-*} headers, and how much of an account's budget is left.
 */
@RestController
@RequestMapping(GitLabControlController.PREFIX + "/rate_limit")
class GitLabRateLimitControlController extends GitLabControlErrors {

    private final GitLabRateLimit limit;
    private final GitLabSimulator gitlab;

    GitLabRateLimitControlController(GitLabRateLimit limit, GitLabSimulator gitlab) {
        this.limit = limit;
        this.gitlab = gitlab;
    }

    /**
     * Body {@code {"per_minute": 120, "headers_on_every_answer": true}}: each field changes its setting, an absent one
     * leaves it; a limit of 0 turns it off.
     */
    @PutMapping
    ResponseEntity<Void> settings(@RequestBody Map<String, Object> body) {
        if (body.containsKey("per_minute")) {
            if (!(body.get("per_minute") instanceof Number perMinute)) {
                throw new IllegalArgumentException("per_minute is a number of calls");
            }
            limit.setPerMinute(perMinute.intValue());
        }
        if (body.containsKey("headers_on_every_answer")) {
            limit.setHeadersOnEveryAnswer(Boolean.TRUE.equals(body.get("headers_on_every_answer")));
        }
        return ResponseEntity.noContent().build();
    }

    /** Body {@code {"remaining": 3}}: the account's calls this period are counted up until that many are left. */
    @PutMapping("/accounts/{account}")
    ResponseEntity<Void> remaining(@PathVariable String account, @RequestBody Map<String, Object> body) {
        if (!(body.get("remaining") instanceof Number remaining)) {
            throw new IllegalArgumentException("remaining is a number of calls");
        }
        var token = gitlab.tokenOf(account).orElseThrow(() -> new IllegalArgumentException("unknown account " + account));
        try {
            limit.setRemaining(token, remaining.intValue());
        } catch (IllegalStateException noLimit) {
            throw new IllegalArgumentException("set per_minute first: " + noLimit.getMessage());
        }
        return ResponseEntity.noContent().build();
    }
}
