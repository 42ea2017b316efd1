package io.changeflow.sandbox.deploy;

import io.changeflow.sandbox.fault.SandboxEnvelope;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Issue 37: makes the deploy pipeline simulator report a deploy of the default branch at a commit, under the operators'
 * {@code /sandbox/faults} path: {@code POST /sandbox/faults/deploy/commit-reports} with {@code {projectId, sha, ref?,
 * status?}} ({@code ref} default {@code main}, {@code status} default {@code success}) sends one signed
 * {@code POST /callbacks/deploy} {@code {projectId, ref, sha, status}} now; 202 when it was handed to the sender, 400
 * for a missing project or a sha that is not a full commit sha.
 */
@RestController
class DeployCommitReportsController {

    private static final Pattern FULL_SHA = Pattern.compile("[0-9a-fA-F]{40}|[0-9a-fA-F]{64}");

    private final DeployPipelineSimulator simulator;

    DeployCommitReportsController(DeployPipelineSimulator simulator) {
        this.simulator = simulator;
    }

    @PostMapping("/sandbox/faults/deploy/commit-reports")
    ResponseEntity<SandboxEnvelope> report(@RequestBody Map<String, Object> body, HttpServletResponse response) {
        if (!(body.get("projectId") instanceof String project) || project.isBlank()) {
            return invalid("projectId is required", response);
        }
        if (!(body.get("sha") instanceof String sha) || !FULL_SHA.matcher(sha).matches()) {
            return invalid("sha is a full commit sha (40 or 64 hexadecimal characters)", response);
        }
        var ref = body.get("ref") instanceof String given && !given.isBlank() ? given : "main";
        var status = body.get("status") instanceof String given && !given.isBlank() ? given : "success";
        simulator.reportCommit(project, ref, sha, status);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(SandboxEnvelope.of("SENT",
                "Deploy report of " + ref + " at " + sha + " sent", Map.of("ref", ref, "sha", sha, "status", status), response));
    }

    private static ResponseEntity<SandboxEnvelope> invalid(String message, HttpServletResponse response) {
        return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", message, null, response));
    }
}
