package io.changeflow.sandbox.deploy;

import io.changeflow.sandbox.fault.SandboxEnvelope;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Runtime controls of the deploy pipeline simulator under the operators' {@code /sandbox/faults}
 * path: {@code GET|PUT /sandbox/faults/deploy/controls}. The PUT body changes only the fields it
 * names: {@code lostShare} (in [0, 1]), {@code includeOperationIds}, and one-shot
 * {@code loseNext}, {@code duplicateNext}, {@code lateNext} + {@code lateMillis}.
 */
@RestController
@RequestMapping("/sandbox/faults/deploy/controls")
class DeployControlsController {

    private final DeployPipelineSimulator simulator;

    DeployControlsController(DeployPipelineSimulator simulator) {
        this.simulator = simulator;
    }

    @GetMapping
    SandboxEnvelope read(HttpServletResponse response) {
        return SandboxEnvelope.of("OK", "Deploy pipeline simulator controls", view(), response);
    }

    @PutMapping
    ResponseEntity<SandboxEnvelope> change(@RequestBody Map<String, Object> body, HttpServletResponse response) {
        try {
            Double lostShare = null;
            if (body.containsKey("lostShare")) {
                if (!(body.get("lostShare") instanceof Number share) || !(share.doubleValue() >= 0 && share.doubleValue() <= 1)) {
                    throw new IllegalArgumentException("lostShare must be a number in [0, 1]");
                }
                lostShare = share.doubleValue();
            }
            Boolean include = null;
            if (body.containsKey("includeOperationIds")) {
                if (!(body.get("includeOperationIds") instanceof Boolean flag)) {
                    throw new IllegalArgumentException("includeOperationIds must be true or false");
                }
                include = flag;
            }
            var loseNext = count(body, "loseNext");
            var duplicateNext = count(body, "duplicateNext");
            var lateNext = count(body, "lateNext");
            var lateMillis = count(body, "lateMillis");
            if (lateNext != null && lateMillis == null) {
                throw new IllegalArgumentException("lateNext needs lateMillis");
            }
            if (lostShare != null) {
                simulator.lostShare(lostShare);
            }
            if (include != null) {
                simulator.includeOperationIds(include);
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
        return ResponseEntity.ok(SandboxEnvelope.of("OK", "Deploy pipeline simulator controls updated", view(), response));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<SandboxEnvelope> unreadable(HttpServletResponse response) {
        return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", "The body must be a JSON object", null, response));
    }

    private Map<String, Object> view() {
        var view = new LinkedHashMap<String, Object>();
        view.put("lostShare", simulator.lostShare());
        view.put("includeOperationIds", simulator.includeOperationIds());
        view.put("lostCallbacks", simulator.lostCallbacks().size());
        return view;
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
