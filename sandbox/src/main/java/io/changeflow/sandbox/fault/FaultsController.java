package io.changeflow.sandbox.fault;

import jakarta.servlet.http.HttpServletResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Switches fault injection at runtime: {@code GET /sandbox/faults} (every system's settings),
 * {@code PUT /sandbox/faults/{system}} (replace one system's settings; a missing field is 0),
 * {@code DELETE /sandbox/faults} (no faults anywhere), {@code POST /sandbox/faults/seed}
 * (reproducible random decisions), {@code GET /sandbox/faults/traces/{traceId}} (the calls the simulated systems
 * received in that W3C trace, oldest first, of the last {@value ReceivedTraces#KEPT}). Operators only: the web layer's authorization interceptor
 * protects {@code /sandbox/faults/**} by path.
 */
@RestController
@RequestMapping("/sandbox/faults")
class FaultsController {

    static final List<String> SYSTEMS = List.of(Faults.GITLAB, Faults.APPROVAL, Faults.DEPLOY);
    private static final Set<String> LONG_FIELDS = Set.of("latencyMillis", "lateMillis");
    private static final Set<String> RATE_FIELDS =
            Set.of("errorRate", "lostResponseRate", "duplicateRate", "lateRate", "lostCallbackRate");

    private final Faults faults;
    private final ReceivedTraces receivedTraces;

    FaultsController(Faults faults, ReceivedTraces receivedTraces) {
        this.faults = faults;
        this.receivedTraces = receivedTraces;
    }

    @GetMapping
    SandboxEnvelope all(HttpServletResponse response) {
        return SandboxEnvelope.of("OK", "Fault injection settings per system", snapshot(), response);
    }

    @PutMapping("/{system}")
    ResponseEntity<SandboxEnvelope> configure(@PathVariable String system, @RequestBody Map<String, Object> body,
                                              HttpServletResponse response) {
        if (!SYSTEMS.contains(system)) {
            return invalid("Unknown system '" + system + "'; one of " + SYSTEMS, response);
        }
        var unknown = new TreeSet<>(body.keySet());
        unknown.removeAll(LONG_FIELDS);
        unknown.removeAll(RATE_FIELDS);
        if (!unknown.isEmpty()) {
            return invalid("Unknown fields " + unknown, response);
        }
        FaultSettings settings;
        try {
            settings = new FaultSettings(
                    wholeNumber(body, "latencyMillis"), rate(body, "errorRate"), rate(body, "lostResponseRate"),
                    rate(body, "duplicateRate"), rate(body, "lateRate"), rate(body, "lostCallbackRate"),
                    wholeNumber(body, "lateMillis"));
        } catch (IllegalArgumentException e) {
            return invalid(e.getMessage(), response);
        }
        faults.configure(system, settings);
        return ResponseEntity.ok(SandboxEnvelope.of("OK", "Fault injection of " + system + " updated", settings, response));
    }

    @GetMapping("/traces/{traceId}")
    SandboxEnvelope received(@PathVariable String traceId, HttpServletResponse response) {
        return SandboxEnvelope.of("OK", "Calls the simulated systems received in the trace, oldest first",
                receivedTraces.inTrace(traceId), response);
    }

    @DeleteMapping
    SandboxEnvelope clear(HttpServletResponse response) {
        faults.clear();
        return SandboxEnvelope.of("OK", "Fault injection switched off for every system", snapshot(), response);
    }

    @PostMapping("/seed")
    ResponseEntity<SandboxEnvelope> reseed(@RequestBody Map<String, Object> body, HttpServletResponse response) {
        if (!(body.get("seed") instanceof Number seed) || seed.doubleValue() != Math.rint(seed.doubleValue())) {
            return invalid("seed must be a whole number", response);
        }
        faults.reseed(seed.longValue());
        return ResponseEntity.ok(SandboxEnvelope.of("OK", "Random fault decisions reseeded", Map.of("seed", seed.longValue()), response));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<SandboxEnvelope> unreadable(HttpServletResponse response) {
        return invalid("The body must be a JSON object", response);
    }

    private Map<String, FaultSettings> snapshot() {
        var all = new LinkedHashMap<String, FaultSettings>();
        for (var system : SYSTEMS) {
            all.put(system, faults.settings(system));
        }
        return all;
    }

    private static long wholeNumber(Map<String, Object> body, String field) {
        var value = body.get(field);
        if (value == null) {
            return 0;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw new IllegalArgumentException(field + " must be a whole number of milliseconds");
        }
        return number.longValue();
    }

    private static double rate(Map<String, Object> body, String field) {
        var value = body.get(field);
        if (value == null) {
            return 0;
        }
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException(field + " must be a number in [0, 1]");
        }
        var rate = number.doubleValue();
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException(field + " must be a number in [0, 1]");
        }
        return rate;
    }

    private static ResponseEntity<SandboxEnvelope> invalid(String message, HttpServletResponse response) {
        return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", message, null, response));
    }
}
