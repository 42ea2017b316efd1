package io.changeflow.systemtest.harness;

import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * A request as the requester sees it ({@code GET /api/requests/{operationId}}, docs/api.md), with the
 * one classification every system test relies on: is it still moving, or has it come to rest in an
 * explicit, explainable state?
 */
public record RequestView(JsonNode json) {

    /** End states: nothing more happens on its own. */
    public static final Set<String> TERMINAL = Set.of("VALIDATED", "REJECTED", "CLOSED", "EXPIRED", "REVOKED");

    /** Stopped at a failure that waits for an operator or the maintainers. */
    public static final Set<String> FAILED = Set.of("APPROVAL_FAILED", "CREATE_FAILED", "HANDLE_FAILED",
            "DEPLOY_UNCONFIRMED", "DEPLOY_FAILED");

    public String operationId() {
        return json.path("operationId").asString(null);
    }

    /** The external status; null when a re-application replaced this request. */
    public String status() {
        var status = json.path("status");
        return status.isNull() || status.isMissingNode() ? null : status.asString();
    }

    public String step() {
        return json.path("step").asString(null);
    }

    public String stepOrder() {
        return json.path("stepOrder").asString(null);
    }

    /** {@code NONE}, {@code KEEP_WAITING}, {@code CONTACT_MAINTAINERS} or {@code CAN_REAPPLY}. */
    public String hint() {
        return json.path("hint").path("code").asString(null);
    }

    public String subjectId() {
        return json.path("subjectId").asString(null);
    }

    public String targetKey() {
        return json.path("targetKey").asString(null);
    }

    public String detail() {
        return json.path("detail").asString(null);
    }

    /** The merge request's number, or -1 when it has none (yet). */
    public long mergeRequestIid() {
        var mr = json.path("mergeRequest");
        return mr.isObject() ? mr.path("iid").asLong(-1) : -1;
    }

    public String mergeRequestProject() {
        return json.path("mergeRequest").path("project").asString(null);
    }

    public String mergeRequestWebUrl() {
        return json.path("mergeRequest").path("webUrl").asString(null);
    }

    /** The batch it travels in (or travelled in last), or -1. */
    public long batchId() {
        var batch = json.path("batchId");
        return batch.isNumber() ? batch.asLong() : -1;
    }

    public String updatedAt() {
        return json.path("updatedAt").asString(null);
    }

    public boolean isTerminal() {
        return status() == null || TERMINAL.contains(status());
    }

    /**
     * Terminal, or explicitly waiting: a failed state with a hint telling the person what to do
     * ({@code KEEP_WAITING} or {@code CONTACT_MAINTAINERS}), or a pending step with {@code KEEP_WAITING}.
     * Anything else is still "processing".
     */
    public boolean isAtRest() {
        if (isTerminal()) {
            return true;
        }
        var hint = hint();
        if (FAILED.contains(status())) {
            return "KEEP_WAITING".equals(hint) || "CONTACT_MAINTAINERS".equals(hint);
        }
        return "KEEP_WAITING".equals(hint);
    }

    /**
     * Converged: terminal, or in an explicit state whose hint asks a person to act
     * ({@code CONTACT_MAINTAINERS}). {@code KEEP_WAITING} is not converged: something is still working on it.
     */
    public boolean hasConverged() {
        return isTerminal() || "CONTACT_MAINTAINERS".equals(hint());
    }

    /** One line for tables and failure messages: status / step / hint. */
    public String outcome() {
        return status() + " / " + step() + " / " + hint();
    }

    @Override
    public String toString() {
        return operationId() + " " + outcome() + " (subject " + subjectId() + ", MR " + mergeRequestIid() + ")";
    }
}
