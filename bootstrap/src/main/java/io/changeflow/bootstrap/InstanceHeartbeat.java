package io.changeflow.bootstrap;

import io.changeflow.application.instance.AnnounceInstance;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs {@link AnnounceInstance} on this instance's own thread: the row at start, a heartbeat every interval, the stop.
 * Phase 0: it starts before and stops after the web server and the scheduler, so the roster says "stopped" only once
 * the instance has finished its requests and steps. A failed write (the database unreachable) is logged and tried
 * again at the next heartbeat; it never stops the instance.
 */
final class InstanceHeartbeat implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(InstanceHeartbeat.class);

    private final AnnounceInstance announce;
    private final Duration interval;
    private ScheduledExecutorService timer;

    InstanceHeartbeat(AnnounceInstance announce, Duration interval) {
        this.announce = announce;
        this.interval = interval;
    }

    @Override
    public synchronized void start() {
        var self = announce.self();
        log.info("instance {} runs version {} (commit {})", self.name(), self.version(), self.commit());
        attempt("announce", announce::started);
        timer = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("instance-heartbeat").factory());
        timer.scheduleWithFixedDelay(() -> attempt("heartbeat", announce::beat), interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
        attempt("stop", announce::stopped);
    }

    @Override
    public synchronized boolean isRunning() {
        return timer != null;
    }

    @Override
    public int getPhase() {
        return 0;
    }

    private static void attempt(String what, Runnable write) {
        try {
            write.run();
        } catch (RuntimeException e) {
            log.warn("instance roster: the {} could not be written ({}); tried again at the next heartbeat", what,
                    e.toString());
        }
    }
}
