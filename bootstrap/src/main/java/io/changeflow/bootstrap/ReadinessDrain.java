package io.changeflow.bootstrap;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the web server taking requests for a while after readiness went DOWN, so a load balancer sees the 503 and
 * takes the instance out before its connector closes (issue 31). On SIGTERM Spring Boot publishes
 * {@code REFUSING_TRAFFIC} first ({@code /actuator/health/readiness} answers 503 from then on); this lifecycle stops in
 * the first phase beside the scheduler's stop and holds that phase for {@code changeflow.shutdown.drain-delay}; only
 * the next phase shuts the web server down gracefully (requests in progress complete, new connections are refused).
 * The drain never holds the phase past {@code spring.lifecycle.timeout-per-shutdown-phase} (capped 1 s inside it).
 */
final class ReadinessDrain implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ReadinessDrain.class);

    static final String KEY = "changeflow.shutdown.drain-delay";
    static final Duration DEFAULT = Duration.ofSeconds(5);

    private final Duration delay;
    private volatile boolean running;

    ReadinessDrain(Duration delay) {
        this.delay = delay;
    }

    /**
     * The drain of the raw {@value #KEY} within a shutdown phase of {@code phaseTimeout}: missing or garbled means
     * {@link #DEFAULT}, zero means none, anything longer than the phase less 1 s is cut to that.
     */
    static ReadinessDrain of(String text, Duration phaseTimeout) {
        var delay = DEFAULT;
        if (text != null && !text.isBlank()) {
            try {
                var value = DurationStyle.detectAndParse(text.strip());
                if (value.isNegative()) {
                    log.warn("{} '{}' is negative: {} used", KEY, text, DEFAULT);
                } else {
                    delay = value;
                }
            } catch (IllegalArgumentException e) {
                log.warn("{} '{}' is not a duration: {} used", KEY, text, DEFAULT);
            }
        }
        var room = phaseTimeout.minusSeconds(1);
        if (delay.compareTo(room) > 0) {
            var cut = room.isNegative() ? Duration.ZERO : room;
            log.warn("{} {} does not fit the shutdown phase ({}): {} used", KEY, delay, phaseTimeout, cut);
            delay = cut;
        }
        return new ReadinessDrain(delay);
    }

    Duration delay() {
        return delay;
    }

    @Override
    public void start() {
        running = true;
    }

    /** Not waited for here: Spring stops a {@link SmartLifecycle} through {@link #stop(Runnable)}. */
    @Override
    public void stop() {
        running = false;
    }

    /**
     * Ends the phase after the drain delay: the callback runs on a delayed executor (no thread waits for it), and the
     * web server keeps taking requests meanwhile.
     */
    @Override
    public void stop(Runnable callback) {
        if (!running || delay.isZero()) {
            running = false;
            callback.run();
            return;
        }
        running = false;
        log.info("readiness is DOWN; still taking requests for {} so the load balancer can take this instance out", delay);
        CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS).execute(callback);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** The first phase to stop, beside the scheduler: before the web server's graceful shutdown. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }
}
