package io.changeflow.bootstrap;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.env.Environment;

/**
 * A health indicator that answers within its deadline ({@code changeflow.health.timeout}, 2 s): the check runs on
 * the indicator's own thread, and a check that has not answered by then is DOWN ("no answer within 2s"), so a
 * database that does not answer makes readiness DOWN in seconds instead of holding the probe (issue 34). At most one
 * check of an indicator runs at a time: a probe while one is still running waits for that one (within its own
 * deadline), so a hung dependency never piles up threads. The check that overran is not interrupted; it ends by the
 * database's own client deadlines. docs/operations.md "Health and metrics".
 */
final class BoundedHealthIndicator implements HealthIndicator, AutoCloseable {

    static final String TIMEOUT = "changeflow.health.timeout";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(BoundedHealthIndicator.class);

    private final String name;
    private final HealthIndicator check;
    private final Duration deadline;
    private final ExecutorService thread;
    private Future<Health> running;

    BoundedHealthIndicator(String name, HealthIndicator check, Duration deadline) {
        this.name = name;
        this.check = check;
        this.deadline = deadline;
        this.thread = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("health-" + name).factory());
    }

    /** {@code changeflow.health.timeout}; missing, garbled, zero or negative: {@link #DEFAULT_TIMEOUT}. */
    static Duration deadline(Environment environment) {
        try {
            var configured = Binder.get(environment).bind(TIMEOUT, Duration.class);
            if (!configured.isBound()) {
                return DEFAULT_TIMEOUT;
            }
            if (!configured.get().isNegative() && !configured.get().isZero()) {
                return configured.get();
            }
            log.warn("{} must be positive; using {}", TIMEOUT, DEFAULT_TIMEOUT);
        } catch (RuntimeException garbled) {
            log.warn("{} is not a duration; using {}", TIMEOUT, DEFAULT_TIMEOUT);
        }
        return DEFAULT_TIMEOUT;
    }

    @Override
    public Health health() {
        Future<Health> answer;
        synchronized (this) {
            if (running == null || running.isDone()) {
                running = thread.submit((Callable<Health>) check::health);
            }
            answer = running;
        }
        try {
            return answer.get(deadline.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException late) {
            log.warn("health check {} gave no answer within {}: DOWN", name, deadline);
            return Health.down().withDetail("error", "no answer within " + deadline.toMillis() + " ms").build();
        } catch (ExecutionException failed) {
            return Health.down().withDetail("error", failed.getCause().getClass().getSimpleName()).build();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Health.down().withDetail("error", "interrupted").build();
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
