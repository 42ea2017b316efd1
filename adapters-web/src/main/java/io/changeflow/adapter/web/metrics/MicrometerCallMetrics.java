package io.changeflow.adapter.web.metrics;

import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.CallOutcome;
import java.time.Duration;
import java.util.Map;

/**
 * The calls of the GitLab and approval adapters on Micrometer, through {@link SafeMeters} (never throws into the
 * call): {@value #NAME}, a timer tagged {@code system}, {@code operation} (fixed names of the adapters' code) and
 * {@code outcome} ({@link CallOutcome#tag()}). The error count is the count of the outcomes other than
 * {@code success}.
 */
public final class MicrometerCallMetrics implements CallMetrics {

    static final String NAME = "changeflow.external.calls";

    private final SafeMeters meters;

    public MicrometerCallMetrics(SafeMeters meters) {
        this.meters = meters;
    }

    @Override
    public void called(String system, String operation, CallOutcome outcome, Duration took) {
        try {
            meters.record(NAME, Map.of("system", system, "operation", operation, "outcome", outcome.tag()),
                    Math.max(0, took.toNanos()));
        } catch (RuntimeException e) {
            // SafeMeters swallows registry failures; this covers building the tags (e.g. a null argument)
        }
    }
}
