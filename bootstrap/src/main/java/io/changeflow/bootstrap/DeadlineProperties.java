package io.changeflow.bootstrap;

import io.changeflow.application.recovery.RetryTransientFailures;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.TransientRetries;
import io.changeflow.application.workflow.WorkflowPolicy;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationStyle;

/**
 * The deadlines of issue 20 under {@code changeflow.workflow}: how long a pending pipeline is looked at
 * ({@code pipeline.pending-deadline}, default 24 h; the older key {@code pending-give-up-after} is still read
 * when the new one is not set) and how long transient failures are retried automatically
 * ({@code transient-deadline}, default 1 h), plus how often failed requests whose hint is KEEP_WAITING are
 * retried ({@code transient-retry.every}, default 1 min). Read as text and parsed here, so a garbled value
 * cannot stop the application: a missing, garbled, zero or negative value means the default (never "no
 * deadline", never "immediately").
 */
@ConfigurationProperties("changeflow.workflow")
record DeadlineProperties(String transientDeadline, Pipeline pipeline, TransientRetry transientRetry) {

    static final Duration DEFAULT_RETRY_EVERY = Duration.ofMinutes(1);

    /** {@code changeflow.workflow.pipeline.*}: only the deadline (the polling keys belong to {@link WorkflowProperties}). */
    record Pipeline(String pendingDeadline) {}

    /** {@code changeflow.workflow.transient-retry.*}: the job retrying failed requests. */
    record TransientRetry(String every) {}

    /** {@code policy} with the configured deadlines; the older {@code pending-give-up-after} when no new key is set. */
    WorkflowPolicy applyTo(WorkflowPolicy policy) {
        var pending = parse(pipeline == null ? null : pipeline.pendingDeadline()).orElse(policy.pendingGiveUpAfter());
        return new WorkflowPolicy(policy.approvalBackoff(), policy.pipelinePolling(), policy.rebasePolling(),
                policy.mergeabilityPolling(), policy.pendingRecheck(), pending, policy.transientRetry(),
                policy.mergeRetries(), policy.mergeRetryBackoff(), policy.maxRebases(), policy.maxRegenerations(),
                policy.closeRetries(), transientDeadlineOrDefault());
    }

    /** The transient deadline; {@link TransientRetries#DEFAULT_DEADLINE} unless a positive duration is set. */
    Duration transientDeadlineOrDefault() {
        return parse(transientDeadline).orElse(TransientRetries.DEFAULT_DEADLINE);
    }

    /** The pending deadline alone (for documentation and tests); {@link PipelineWatch#DEFAULT_PENDING_DEADLINE} by default. */
    Duration pendingDeadlineOrDefault() {
        return parse(pipeline == null ? null : pipeline.pendingDeadline()).orElse(PipelineWatch.DEFAULT_PENDING_DEADLINE);
    }

    /** How often {@link RetryTransientFailures} runs. */
    Duration retryEveryOrDefault() {
        return parse(transientRetry == null ? null : transientRetry.every()).orElse(DEFAULT_RETRY_EVERY);
    }

    /** A positive duration ({@code 90s}, {@code 1h}, {@code PT1H}, or plain milliseconds), or empty. */
    static Optional<Duration> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            var duration = DurationStyle.detectAndParse(text.strip());
            return duration.isZero() || duration.isNegative() ? Optional.empty() : Optional.of(duration);
        } catch (RuntimeException garbled) {
            return Optional.empty();
        }
    }
}
