package io.changeflow.sandbox.approval;

import io.changeflow.sandbox.fault.FaultPlan;
import io.changeflow.sandbox.fault.Faults;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The approval system's machine API, as the Changeflow service calls it (no Changeflow envelope:
 * this is the other system's API). Every call first goes through the {@code approval} fault
 * settings: added latency, an error without applying the call, or the call applied and the
 * answer lost (504).
 * <ul>
 *   <li>{@code POST /sim/approval/api/approvals}: submit; 201 with a new ticket, 200 with the
 *       existing ticket when the operationId is known (idempotent), 400 on a missing field</li>
 *   <li>{@code GET /sim/approval/api/approvals/{operationId}}: the ticket, or 404</li>
 *   <li>{@code POST /sim/approval/api/approvals/{operationId}/withdraw}: 200 with the ticket
 *       (a decided ticket stays decided), or 404</li>
 * </ul>
 */
@RestController
@RequestMapping("/sim/approval/api/approvals")
class ApprovalApiController {

    /** The submitted form as JSON. */
    record SubmitBody(String operationId, String requester, String subject, String target, String reason,
                      String expiresAt, Map<String, String> ext) {}

    private final ApprovalSimulator simulator;
    private final Faults faults;

    ApprovalApiController(ApprovalSimulator simulator, Faults faults) {
        this.simulator = simulator;
        this.faults = faults;
    }

    @PostMapping
    ResponseEntity<Map<String, Object>> submit(@RequestBody SubmitBody body) {
        var missing = missingField(body);
        if (missing != null) {
            return ResponseEntity.badRequest().body(error("INVALID_FORM", missing + " is required"));
        }
        return withFaults(() -> {
            var submitted = simulator.submit(new ApprovalSimulator.Form(body.operationId().strip(), body.requester(),
                    body.subject(), body.target(), body.reason(), body.expiresAt(), body.ext()));
            var status = submitted.created() ? HttpStatus.CREATED : HttpStatus.OK;
            return ResponseEntity.status(status).body(TicketViews.of(submitted.ticket()));
        });
    }

    @GetMapping("/{operationId}")
    ResponseEntity<Map<String, Object>> read(@PathVariable String operationId) {
        return withFaults(() -> simulator.byOperationId(operationId)
                .map(ticket -> ResponseEntity.ok(TicketViews.of(ticket)))
                .orElseGet(ApprovalApiController::notFound));
    }

    @PostMapping("/{operationId}/withdraw")
    ResponseEntity<Map<String, Object>> withdraw(@PathVariable String operationId) {
        return withFaults(() -> simulator.withdraw(operationId)
                .map(ticket -> ResponseEntity.ok(TicketViews.of(ticket)))
                .orElseGet(ApprovalApiController::notFound));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<Map<String, Object>> unreadable() {
        return ResponseEntity.badRequest().body(error("INVALID_FORM", "the body must be a JSON approval form"));
    }

    private ResponseEntity<Map<String, Object>> withFaults(Supplier<ResponseEntity<Map<String, Object>>> call) {
        FaultPlan plan = faults.planIncoming(Faults.APPROVAL);
        if (!plan.awaitDelay()) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(error("UNAVAILABLE", "interrupted"));
        }
        if (plan.fails()) {
            return ResponseEntity.status(plan.failStatus()).body(error("UNAVAILABLE", "injected failure, nothing applied"));
        }
        var answer = call.get();
        if (plan.loseResponse()) {
            return ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).body(error("GATEWAY_TIMEOUT", "upstream timed out"));
        }
        return answer;
    }

    private static String missingField(SubmitBody body) {
        if (blank(body.operationId())) {
            return "operationId";
        }
        if (blank(body.requester())) {
            return "requester";
        }
        if (blank(body.target())) {
            return "target";
        }
        return null;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static ResponseEntity<Map<String, Object>> notFound() {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(error("NOT_FOUND", "no approval for this operationId"));
    }

    private static Map<String, Object> error(String error, String message) {
        return Map.of("error", error, "message", message);
    }
}
