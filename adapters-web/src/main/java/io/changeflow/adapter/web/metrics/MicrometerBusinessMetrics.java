package io.changeflow.adapter.web.metrics;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's business outcome metrics on Micrometer, through {@link SafeMeters}: tag values
 * normalized and truncated to 128 characters, an emission with a missing or invalid tag skipped,
 * and nothing ever thrown back into the business code (a throwing registry, a null argument,
 * anything else is logged and dropped).
 *
 * <ul>
 *   <li>{@value #SUBMITTED} {@code {target}}: a request was accepted;</li>
 *   <li>{@value #VALIDATED} {@code {target}}: a request reached "in effect" (once per operation);</li>
 *   <li>{@value #FAILED} {@code {step}}: a request stopped at a failure step;</li>
 *   <li>{@value #BATCH_DURATION} {@code {outcome}} (timer) and {@value #BATCH_SIZE} {@code {outcome}}
 *       (summary): a batch hand-off completed, {@code outcome} {@code merged} or {@code not_merged};</li>
 *   <li>{@value #NOTIFICATIONS} {@code {channel, outcome}}: a notification was delivered ({@code sent}) or an attempt
 *       failed and is retried ({@code failed}), {@code channel} {@code MAIL} or {@code WEBHOOK} (issue 32).</li>
 * </ul>
 */
public final class MicrometerBusinessMetrics implements BusinessMetrics {

    static final String SUBMITTED = "changeflow.requests.submitted";
    static final String VALIDATED = "changeflow.requests.validated";
    static final String FAILED = "changeflow.requests.failed";
    static final String BATCH_DURATION = "changeflow.batches.duration";
    static final String BATCH_SIZE = "changeflow.batches.size";
    static final String NOTIFICATIONS = "changeflow.notifications";

    private static final Logger log = LoggerFactory.getLogger(MicrometerBusinessMetrics.class);

    private final SafeMeters meters;

    public MicrometerBusinessMetrics(SafeMeters meters) {
        this.meters = meters;
    }

    @Override
    public void submitted(String target) {
        quietly(SUBMITTED, () -> meters.increment(SUBMITTED, Map.of("target", target)));
    }

    @Override
    public void validated(String target) {
        quietly(VALIDATED, () -> meters.increment(VALIDATED, Map.of("target", target)));
    }

    @Override
    public void failed(StepStatus step) {
        quietly(FAILED, () -> meters.increment(FAILED, Map.of("step", step.name())));
    }

    @Override
    public void batchCompleted(int size, Duration duration, boolean merged) {
        var tags = Map.of("outcome", merged ? "merged" : "not_merged");
        quietly(BATCH_DURATION, () -> meters.record(BATCH_DURATION, tags, Math.max(0, duration.toNanos())));
        quietly(BATCH_SIZE, () -> meters.summary(BATCH_SIZE, tags, Math.max(0, size)));
    }

    @Override
    public void notificationSent(String channel) {
        quietly(NOTIFICATIONS, () -> meters.increment(NOTIFICATIONS, Map.of("channel", channel, "outcome", "sent")));
    }

    @Override
    public void notificationFailed(String channel) {
        quietly(NOTIFICATIONS, () -> meters.increment(NOTIFICATIONS, Map.of("channel", channel, "outcome", "failed")));
    }

    /** SafeMeters swallows registry failures; this also covers building the tags (e.g. a null argument). */
    private static void quietly(String metric, Runnable emission) {
        try {
            emission.run();
        } catch (RuntimeException e) {
            log.debug("business metric {} skipped; the business outcome stands", metric, e);
        }
    }
}
