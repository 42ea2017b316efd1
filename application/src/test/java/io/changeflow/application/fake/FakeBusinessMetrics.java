package io.changeflow.application.fake;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** {@link BusinessMetrics} as thread-safe counters; {@link #failWith} makes every emission throw. */
public final class FakeBusinessMetrics implements BusinessMetrics {

    private final Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();
    private volatile RuntimeException failure;

    @Override
    public void submitted(String target) {
        increment("submitted", target);
    }

    @Override
    public void validated(String target) {
        increment("validated", target);
    }

    @Override
    public void failed(StepStatus step) {
        increment("failed", step.name());
    }

    @Override
    public void batchCompleted(int size, Duration duration, boolean merged) {
        increment("batchCompleted", String.valueOf(merged));
    }

    @Override
    public void notificationSent(String channel) {
        increment("notificationSent", channel);
    }

    @Override
    public void notificationFailed(String channel) {
        increment("notificationFailed", channel);
    }

    /** The count of {@code metric} (submitted, validated, failed, batchCompleted) with {@code tag}. */
    public int count(String metric, String tag) {
        return counters.getOrDefault(metric + "/" + tag, new AtomicInteger()).get();
    }

    /** The count of {@code metric} over every tag. */
    public int total(String metric) {
        return counters.entrySet().stream().filter(e -> e.getKey().startsWith(metric + "/"))
                .mapToInt(e -> e.getValue().get()).sum();
    }

    public void failWith(RuntimeException failure) {
        this.failure = failure;
    }

    private void increment(String metric, String tag) {
        var f = failure;
        if (f != null) {
            throw f;
        }
        counters.computeIfAbsent(metric + "/" + tag, k -> new AtomicInteger()).incrementAndGet();
    }
}
