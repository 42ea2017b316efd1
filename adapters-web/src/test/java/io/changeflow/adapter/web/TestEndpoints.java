package io.changeflow.adapter.web;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.guard.RateLimit;
import io.changeflow.adapter.web.identity.AccessGate;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.settings.Settings;
import jakarta.servlet.http.HttpServletRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test-only endpoints standing in for the real ones of the endpoint round, including legacy ones
 * that return a raw Map: the cross-cutting concerns must work whatever a handler returns.
 */
@RestController
class TestEndpoints {

    private final AccessGate accessGate;

    TestEndpoints(AccessGate accessGate) {
        this.accessGate = accessGate;
    }

    /** A legacy endpoint: a raw Map, no envelope, shape frozen. */
    @GetMapping("/legacy/stats")
    Map<String, Object> legacyStats() {
        var stats = new LinkedHashMap<String, Object>();
        stats.put("requests", 3);
        stats.put("inProgress", 1);
        return stats;
    }

    /** A legacy endpoint behind the operations authorization. */
    @GetMapping("/ops/legacy-stats")
    Map<String, Object> opsLegacyStats() {
        return Map.of("requests", 3);
    }

    /** A legacy write with a rate limit: the limiter must answer without touching the return type. */
    @PostMapping("/legacy/apply")
    @RateLimit(bucket = "legacy", limitKey = "LEGACY_RATE_LIMIT", defaultLimit = 2)
    Map<String, Object> legacyApply() {
        return Map.of("accepted", true);
    }

    // Rate limiting runs before the idempotency check: a duplicate submission over quota gets 429
    // RATE_LIMITED rather than DUPLICATE_SUBMIT. By design (a retry storm must not reach the database).
    @PostMapping(path = "/test/submit", consumes = MediaType.APPLICATION_JSON_VALUE)
    @RateLimit(bucket = "apply", limitKey = Settings.APPLY_RATE_LIMIT, defaultLimit = 3,
            message = "Too many submissions, please try again later")
    ResponseEntity<ApiResponse<Map<String, Object>>> submit(@RequestBody Map<String, Object> body) {
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(ApiResponse.of("ACCEPTED", "Accepted.", body));
    }

    @GetMapping("/test/requests/{id}")
    ApiResponse<Map<String, String>> request(@PathVariable String id) {
        return ApiResponse.ok(Map.of("operationId", id));
    }

    @GetMapping("/test/missing/{id}")
    ApiResponse<Void> missing(@PathVariable String id) {
        throw ApiException.of(ErrorCode.NOT_FOUND, "no request " + id);
    }

    @GetMapping("/test/count")
    ApiResponse<Integer> count(@RequestParam int limit) {
        return ApiResponse.ok(limit);
    }

    @PostMapping(path = "/test/json", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiResponse<Integer> json(@RequestBody Map<String, Object> body) {
        return ApiResponse.ok(body.size());
    }

    @PostMapping("/test/raw")
    ApiResponse<Integer> raw(@RequestBody String body) {
        return ApiResponse.ok(body.length());
    }

    @PostMapping("/test/form")
    ApiResponse<Integer> form(@RequestParam Map<String, String> form) {
        return ApiResponse.ok(form.size());
    }

    @GetMapping("/test/boom")
    ApiResponse<Void> boom() {
        throw new IllegalStateException("SELECT secret FROM users WHERE id = 1; java.sql.SQLException at io.changeflow.Secret");
    }

    @GetMapping("/test/denied")
    ApiResponse<Void> denied() {
        throw new SecurityException("caller lacks ops.admin for batch 12");
    }

    @GetMapping("/test/upstream")
    ApiResponse<Void> upstream() {
        throw ExternalCallException.status("gitlab", 502, "<html>Bad Gateway nginx/1.25 upstream stack</html>");
    }

    /** A statement cancelled by its query timeout, wrapped as a data-access library wraps it. */
    @GetMapping("/test/database-deadline")
    ApiResponse<Void> databaseDeadline() {
        throw new IllegalStateException("SQL [select * from operation where id = ?]",
                new java.sql.SQLTimeoutException("Statement cancelled due to timeout or client request"));
    }

    /** No pooled connection within the pool's wait. */
    @GetMapping("/test/database-pool")
    ApiResponse<Void> databasePool() {
        throw new IllegalStateException(new java.sql.SQLTransientConnectionException(
                "HikariPool-1 - Connection is not available, request timed out after 30000ms"));
    }

    /** A connection whose answer did not come within the socket timeout (a partition), wrapped twice (issue 34). */
    @GetMapping("/test/database-lost")
    ApiResponse<Void> databaseLost() {
        throw new IllegalStateException("SQL [insert into operation values (?)]; Communications link failure",
                new IllegalStateException(new java.sql.SQLRecoverableException(
                        "Communications link failure: the last packet successfully received from the server was 7,001 "
                                + "milliseconds ago", "08S01")));
    }

    @PostMapping("/test/gated")
    ResponseEntity<ApiResponse<Void>> gated() {
        if (!accessGate.isOpen()) {
            throw ApiException.of(ErrorCode.SERVICE_CLOSED, "access closed");
        }
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(ApiResponse.of("ACCEPTED", "Accepted.", null));
    }

    @GetMapping("/ops/test-read")
    ApiResponse<String> opsRead() {
        return ApiResponse.ok("read");
    }

    /** An operations write: reports what the handler sees as the operator, both ways it can ask. */
    @PostMapping(path = "/ops/test-actions/{operationId}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiResponse<Map<String, Object>> opsAction(@PathVariable String operationId,
            @RequestParam(name = OperatorParameters.RESERVED, required = false) String operatorParameter,
            @RequestBody Map<String, Object> body, HttpServletRequest request) {
        var seen = new LinkedHashMap<String, Object>();
        seen.put("operationId", operationId);
        seen.put("operatorParameter", operatorParameter);
        seen.put("operatorAttribute", OperatorParameters.of(request).map(OperatorParameters::operator).orElse(null));
        seen.put("bodyKeys", body.keySet());
        return ApiResponse.ok(seen);
    }

    @PutMapping(path = "/sandbox/faults", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiResponse<Map<String, Object>> faults(@RequestBody Map<String, Object> body) {
        return ApiResponse.ok(body);
    }

    /** Stands in for the sandbox's per-system fault switch ({@code /sandbox/faults/**}). */
    @PutMapping(path = "/sandbox/faults/{system}", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiResponse<String> systemFaults(@PathVariable String system, @RequestBody Map<String, Object> body) {
        return ApiResponse.ok(system);
    }

    /** Stands in for the sandbox approver inbox (approvers and operators only). */
    @GetMapping("/sim/approval/inbox")
    ApiResponse<String> approverInbox() {
        return ApiResponse.ok("inbox");
    }

    @PostMapping(path = "/sim/approval/inbox/{ticket}/decision", consumes = MediaType.APPLICATION_JSON_VALUE)
    ApiResponse<String> approverDecision(@PathVariable String ticket, @RequestBody Map<String, Object> body) {
        return ApiResponse.ok(ticket);
    }

    /** Stands in for the approval simulator's machine API (open: the approval client calls it unauthenticated). */
    @PostMapping("/sim/approval/api/approvals")
    ApiResponse<String> approvalSystemApi() {
        return ApiResponse.ok("ticket");
    }

    /** Stands in for the GitLab simulator's API (open: the GitLab client authenticates with a token of its own). */
    @GetMapping("/sim/gitlab/api/v4/projects/{id}")
    ApiResponse<String> gitlabApi(@PathVariable String id) {
        return ApiResponse.ok(id);
    }
}
