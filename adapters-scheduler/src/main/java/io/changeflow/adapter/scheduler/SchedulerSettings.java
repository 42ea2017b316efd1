package io.changeflow.adapter.scheduler;

import io.changeflow.domain.polling.ExponentialBackoff;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Start-up settings of the scheduler ({@code changeflow.scheduler.*}). A missing, zero or negative
 * value falls back to its default; a dead-execution timeout shorter than four heartbeats stops
 * start-up (db-scheduler's minimum: fewer would let one late heartbeat hand a running step to a
 * second instance).
 *
 * @param pollingInterval      how often an instance looks for due tasks (default 2 s); work scheduled
 *                             on this instance and due at once starts without waiting for the poll
 * @param threads              steps and jobs one instance runs at the same time (default 10): the
 *                             bounded concurrency of the workflow. Size the DataSource pool for it
 * @param heartbeatInterval    how often a running task's row is stamped as alive (default 10 s)
 * @param deadExecutionTimeout how long a picked task may go without a heartbeat before any instance
 *                             takes it over and runs it again (default 60 s); rounded up to whole
 *                             heartbeats, at least four
 * @param shutdownMaxWait      how long a stopping instance lets running tasks finish (default 15 s), kept
 *                             2 s inside {@code spring.lifecycle.timeout-per-shutdown-phase}
 *                             ({@link #shutdownWaitWithin}); the rows of tasks still running then are
 *                             released, and another instance runs them at its next poll
 * @param retryInitialDelay    the delay before re-running a step that threw (default 30 s), doubling
 *                             with every consecutive failure
 * @param retryMaxDelay        the longest such delay (default 10 min); a step keeps being retried at
 *                             this pace until it succeeds or is replaced
 * @param name                 this instance in {@code scheduled_tasks.picked_by} (default host name and
 *                             process id; at most 50 characters are stored)
 */
@ConfigurationProperties("changeflow.scheduler")
record SchedulerSettings(Duration pollingInterval, Integer threads, Duration heartbeatInterval,
                         Duration deadExecutionTimeout, Duration shutdownMaxWait, Duration retryInitialDelay,
                         Duration retryMaxDelay, String name) {

    /** db-scheduler's lower bound for the heartbeats a running task may miss. */
    static final int MIN_MISSED_HEARTBEATS = 4;

    SchedulerSettings {
        pollingInterval = positive(pollingInterval, Duration.ofSeconds(2));
        threads = threads == null || threads < 1 ? 10 : threads;
        heartbeatInterval = positive(heartbeatInterval, Duration.ofSeconds(10));
        deadExecutionTimeout = positive(deadExecutionTimeout, Duration.ofSeconds(60));
        shutdownMaxWait = positive(shutdownMaxWait, Duration.ofSeconds(15));
        retryInitialDelay = positive(retryInitialDelay, Duration.ofSeconds(30));
        retryMaxDelay = positive(retryMaxDelay, Duration.ofMinutes(10));
        name = SchedulerInstanceName.of(name);
        if (deadExecutionTimeout.compareTo(heartbeatInterval.multipliedBy(MIN_MISSED_HEARTBEATS)) < 0) {
            throw new IllegalArgumentException("changeflow.scheduler.dead-execution-timeout (" + deadExecutionTimeout
                    + ") must be at least " + MIN_MISSED_HEARTBEATS + " heartbeat intervals ("
                    + heartbeatInterval.multipliedBy(MIN_MISSED_HEARTBEATS)
                    + "): a late heartbeat must never hand a running step to a second instance");
        }
        if (retryMaxDelay.compareTo(retryInitialDelay) < 0) {
            retryMaxDelay = retryInitialDelay;
        }
    }

    static SchedulerSettings defaults() {
        return new SchedulerSettings(null, null, null, null, null, null, null, null);
    }

    /** Heartbeats a task may miss before it counts as dead: the timeout in whole heartbeats, rounded up. */
    int missedHeartbeatsLimit() {
        var beats = deadExecutionTimeout.toNanos() / heartbeatInterval.toNanos();
        if (deadExecutionTimeout.toNanos() % heartbeatInterval.toNanos() != 0) {
            beats++;
        }
        return (int) Math.min(Integer.MAX_VALUE, beats);
    }

    /** The dead-execution timeout in effect (whole heartbeats). */
    Duration effectiveDeadExecutionTimeout() {
        return heartbeatInterval.multipliedBy(missedHeartbeatsLimit());
    }

    /** What a stop leaves of a shutdown phase for the release and the rest of the stop. */
    static final Duration RELEASE_MARGIN = Duration.ofSeconds(2);

    /**
     * The wait a stop gives running tasks within a shutdown phase of {@code phaseTimeout}: the shutdown wait, at most
     * the phase less {@link #RELEASE_MARGIN} (half the phase when it is shorter than twice the margin), so the
     * release happens before Spring gives up on the phase and closes the connection pool.
     */
    Duration shutdownWaitWithin(Duration phaseTimeout) {
        if (phaseTimeout == null || phaseTimeout.isZero() || phaseTimeout.isNegative()) {
            return shutdownMaxWait;
        }
        var room = phaseTimeout.compareTo(RELEASE_MARGIN.multipliedBy(2)) < 0
                ? phaseTimeout.dividedBy(2) : phaseTimeout.minus(RELEASE_MARGIN);
        return shutdownMaxWait.compareTo(room) < 0 ? shutdownMaxWait : room;
    }

    ExponentialBackoff retryBackoff() {
        return new ExponentialBackoff(retryInitialDelay, retryMaxDelay);
    }

    private static Duration positive(Duration value, Duration fallback) {
        return value == null || value.isZero() || value.isNegative() ? fallback : value;
    }
}
