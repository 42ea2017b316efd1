package io.changeflow.sandbox.gitlab;

/** How the simulator's pipelines of a branch (or of a merge request's source branch) end. */
public enum PipelineOutcome {
    /**
     * The default: pending, then running for the configured pipeline duration, then {@code failed} when the
     * change (the files that differ from the branch's base) contains the marker {@code FAIL_PIPELINE} in any
     * case (e.g. the subject {@code svc-fail_pipeline} in a grant line), otherwise {@code success}.
     */
    AUTO,
    /** Succeeds now, whatever the duration. */
    SUCCESS,
    /** Fails now, whatever the duration. */
    FAILED,
    /** Never finishes: stays {@code running}, so callers hit their own timeout. */
    HANG,
    /** Waits for a manual job: {@code manual}. */
    MANUAL,
    /** {@code skipped}. */
    SKIPPED,
    /** {@code canceled}. */
    CANCELED,
    /** {@code canceling}. */
    CANCELING,
    /** {@code created}. */
    CREATED,
    /** {@code scheduled}. */
    SCHEDULED,
    /** {@code preparing}. */
    PREPARING,
    /** {@code waiting_for_resource}. */
    WAITING_FOR_RESOURCE,
    /** {@code waiting_for_callback} (a status gitlab4j does not know). */
    WAITING_FOR_CALLBACK,
    /** {@code pending}. */
    PENDING,
    /** {@code running}. */
    RUNNING;

    /** GitLab's name of a fixed status ({@code manual}, ...); null for AUTO, SUCCESS, FAILED and HANG. */
    String fixedStatus() {
        return switch (this) {
            case AUTO, SUCCESS, FAILED, HANG -> null;
            default -> name().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
