package io.changeflow.sandbox.fault;

import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;

/**
 * What the runtime controls of a simulator share ({@code GET|PUT} under the subclass's path): the GET shows
 * {@link #view()}; the PUT applies the fields its body names ({@link #apply}), and answers 400 INVALID_REQUEST
 * with the reason when a field is not valid (nothing changed) or the body is no JSON object.
 */
public abstract class SimulatorControlsController {

    private final String title;

    /** @param title what the answers call the controls, e.g. "Approval simulator controls" */
    protected SimulatorControlsController(String title) {
        this.title = title;
    }

    /** The controls as they are now. */
    protected abstract Map<String, Object> view();

    /**
     * Sets the fields {@code body} names on the simulator; IllegalArgumentException when one is not valid, thrown
     * before anything is changed (every field is read and checked first).
     */
    protected abstract void apply(Map<String, Object> body);

    @GetMapping
    public final SandboxEnvelope read(HttpServletResponse response) {
        return SandboxEnvelope.of("OK", title, view(), response);
    }

    @PutMapping
    public final ResponseEntity<SandboxEnvelope> change(@RequestBody Map<String, Object> body, HttpServletResponse response) {
        try {
            apply(body);
        } catch (IllegalArgumentException e) {
            return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", e.getMessage(), null, response));
        }
        return ResponseEntity.ok(SandboxEnvelope.of("OK", title + " updated", view(), response));
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    public final ResponseEntity<SandboxEnvelope> unreadable(HttpServletResponse response) {
        return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", "The body must be a JSON object", null, response));
    }
}
