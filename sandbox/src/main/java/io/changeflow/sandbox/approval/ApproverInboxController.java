package io.changeflow.sandbox.approval;

import io.changeflow.sandbox.fault.SandboxEnvelope;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
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
 * The approver inbox the SPA shows in the sandbox: {@code GET /sim/approval/inbox} lists pending
 * approvals, {@code POST /sim/approval/inbox/{ticket}/decision {"decision": "APPROVE|REJECT"}}
 * decides one and sends the signed callback. Answers in the service envelope. Approvers and
 * operators only: the web layer's authorization interceptor protects the path.
 */
@RestController
@RequestMapping("/sim/approval/inbox")
class ApproverInboxController {

    record DecisionBody(String decision) {}

    private final ApprovalSimulator simulator;

    ApproverInboxController(ApprovalSimulator simulator) {
        this.simulator = simulator;
    }

    @GetMapping
    SandboxEnvelope pending(HttpServletResponse response) {
        var items = simulator.pending().stream().map(TicketViews::of).toList();
        return SandboxEnvelope.of("OK", items.size() + " approval(s) waiting", items, response);
    }

    @PostMapping("/{ticket}/decision")
    ResponseEntity<SandboxEnvelope> decide(@PathVariable String ticket, @RequestBody DecisionBody body,
                                           HttpServletResponse response) {
        var decision = body.decision() == null ? "" : body.decision().strip();
        if (!decision.equals("APPROVE") && !decision.equals("REJECT")) {
            return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST",
                    "decision must be APPROVE or REJECT",
                    Map.of("fieldErrors", List.of(Map.of("field", "decision", "code", "INVALID",
                            "message", "APPROVE or REJECT"))), response));
        }
        var outcome = simulator.decide(ticket, decision.equals("APPROVE"), "inbox");
        return switch (outcome) {
            case DECIDED -> ResponseEntity.ok(SandboxEnvelope.of("DECIDED", "Decision recorded; the callback is on its way",
                    TicketViews.of(simulator.byTicket(ticket).orElseThrow()), response));
            case ALREADY_DECIDED -> ResponseEntity.status(HttpStatus.CONFLICT).body(SandboxEnvelope.of("ALREADY_DECIDED",
                    "This approval was already decided", TicketViews.of(simulator.byTicket(ticket).orElseThrow()), response));
            case UNKNOWN_TICKET -> ResponseEntity.status(HttpStatus.NOT_FOUND)
                    .body(SandboxEnvelope.of("NOT_FOUND", "No such approval", null, response));
        };
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<SandboxEnvelope> unreadable(HttpServletResponse response) {
        return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST",
                "The body must be {\"decision\": \"APPROVE|REJECT\"}", null, response));
    }
}
