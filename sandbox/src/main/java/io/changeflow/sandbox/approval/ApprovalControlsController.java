package io.changeflow.sandbox.approval;

import io.changeflow.sandbox.fault.SandboxEnvelope;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Runtime controls of the approval simulator beyond the random fault rates, under the operators'
 * {@code /sandbox/faults} path: {@code GET|PUT /sandbox/faults/approval/controls}. The PUT body
 * changes only the fields it names: {@code mode} ({@code auto|manual}), {@code earlyCallbacks}
 * ({@code APPROVED|REJECTED|OFF}), and one-shot {@code loseNext}, {@code duplicateNext},
 * {@code lateNext} + {@code lateMillis}.
 */
@RestController
@RequestMapping("/sandbox/faults/approval/controls")
class ApprovalControlsController {

    private final ApprovalSimulator simulator;

    ApprovalControlsController(ApprovalSimulator simulator) {
        this.simulator = simulator;
    }

    @GetMapping
    SandboxEnvelope read(HttpServletResponse response) {
        return SandboxEnvelope.of("OK", "Approval simulator controls", view(), response);
    }

    @PutMapping
    ResponseEntity<SandboxEnvelope> change(@RequestBody Map<String, Object> body, HttpServletResponse response) {
        try {
            var mode = body.containsKey("mode") ? parseMode(body.get("mode")) : null;
            var early = body.containsKey("earlyCallbacks") ? parseEarly(body.get("earlyCallbacks")) : null;
            var loseNext = count(body, "loseNext");
            var duplicateNext = count(body, "duplicateNext");
            var lateNext = count(body, "lateNext");
            var lateMillis = count(body, "lateMillis");
            if (lateNext != null && lateMillis == null) {
                throw new IllegalArgumentException("lateNext needs lateMillis");
            }
            if (mode != null) {
                simulator.mode(mode);
            }
            if (body.containsKey("earlyCallbacks")) {
                simulator.earlyCallbacks(early.orElse(null));
            }
            if (loseNext != null) {
                simulator.callbacks().loseNext(loseNext);
            }
            if (duplicateNext != null) {
                simulator.callbacks().duplicateNext(duplicateNext);
            }
            if (lateNext != null) {
                simulator.callbacks().delayNext(lateNext, Duration.ofMillis(lateMillis));
            }
        } catch (IllegalArgumentException e) {
            return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", e.getMessage(), null, response));
        }
        return ResponseEntity.ok(SandboxEnvelope.of("OK", "Approval simulator controls updated", view(), response));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<SandboxEnvelope> unreadable(HttpServletResponse response) {
        return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", "The body must be a JSON object", null, response));
    }

    private Map<String, Object> view() {
        var view = new LinkedHashMap<String, Object>();
        view.put("mode", simulator.mode().name().toLowerCase(Locale.ROOT));
        view.put("earlyCallbacks", simulator.earlyCallbacks().map(Enum::name).orElse("OFF"));
        view.put("pending", simulator.pending().size());
        return view;
    }

    private static ApprovalSimulator.Mode parseMode(Object raw) {
        if (raw instanceof String text) {
            for (var mode : ApprovalSimulator.Mode.values()) {
                if (mode.name().equalsIgnoreCase(text.strip())) {
                    return mode;
                }
            }
        }
        throw new IllegalArgumentException("mode must be auto or manual");
    }

    private static Optional<ApprovalSimulator.Result> parseEarly(Object raw) {
        if (raw == null || (raw instanceof String text && text.strip().equalsIgnoreCase("OFF"))) {
            return Optional.empty();
        }
        if (raw instanceof String text) {
            var value = text.strip().toUpperCase(Locale.ROOT);
            if (value.equals("APPROVED") || value.equals("REJECTED")) {
                return Optional.of(ApprovalSimulator.Result.valueOf(value));
            }
        }
        throw new IllegalArgumentException("earlyCallbacks must be APPROVED, REJECTED or OFF");
    }

    private static Integer count(Map<String, Object> body, String field) {
        var raw = body.get(field);
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())
                || number.longValue() < 0 || number.longValue() > 1_000_000) {
            throw new IllegalArgumentException(field + " must be a whole number from 0 to 1000000");
        }
        return number.intValue();
    }
}
