package io.changeflow.domain.request;

import java.util.Collection;
import java.util.Optional;

/**
 * What a target's pipeline must say before its change is merged ({@code changeflow.catalog.targets[n].pipeline}).
 * Whatever the policy, a merge only ever happens on the merge request's current head (the sha is pinned) and after
 * the approvals; the policy only decides which pipeline results of that head count as "nothing left to wait for".
 * A pipeline that failed never counts, and neither does a canceled one. The fail-safe is {@link #REQUIRED}: a
 * missing or garbled setting, and a batch whose targets disagree ({@link #strictest}).
 */
public enum PipelinePolicy {

    /**
     * The default: only a passed pipeline of the current head counts. A pipeline that waits on a manual job, was
     * skipped or canceled proves nothing: the request stops in a state a person acts on (run the pipeline, re-trigger).
     */
    REQUIRED,

    /**
     * A passed pipeline counts, and so does one GitLab reports as {@code manual} (its automatic jobs are done, a job
     * waits to be started by a person, e.g. a deploy) or {@code skipped} (nothing to run for the commit). A pipeline
     * still running (including before it reaches its manual job), failed, canceled or of an unknown status does not;
     * a head without any pipeline yet is still waited for (a project with CI creates one).
     */
    MANUAL_COUNTS,

    /**
     * The target's project has no CI: no pipeline is waited for or looked at (GitLab creates none). The merge still
     * waits until the merge request reports its branch's real head and pins it, after the approvals.
     */
    NONE;

    /** The value as configured: {@code required}, {@code manual-counts}, {@code none}. */
    public String settingName() {
        return SettingNames.of(this);
    }

    /** Whether a pipeline of the head is awaited at all. */
    public boolean awaitsPipeline() {
        return this != NONE;
    }

    /**
     * The policy {@code raw} names (case and surrounding whitespace ignored, {@code _} read as {@code -}); empty for a
     * missing, blank or unknown value (the caller applies {@link #REQUIRED} and may say so).
     */
    public static Optional<PipelinePolicy> named(String raw) {
        return SettingNames.named(values(), raw);
    }

    /** The policy {@code raw} names, or {@link #REQUIRED} when it names none (missing, blank, garbled). */
    public static PipelinePolicy parse(String raw) {
        return named(raw).orElse(REQUIRED);
    }

    /**
     * The strictest of {@code policies} (required before manual-counts before none): what a merge request carrying
     * changes of several targets (a batch) must satisfy. None given: {@link #REQUIRED}.
     */
    public static PipelinePolicy strictest(Collection<PipelinePolicy> policies) {
        if (policies.isEmpty()) {
            return REQUIRED;
        }
        var strictest = NONE;
        for (var policy : policies) {
            var counted = policy == null ? REQUIRED : policy;
            if (counted.ordinal() < strictest.ordinal()) {
                strictest = counted;
            }
        }
        return strictest;
    }
}
