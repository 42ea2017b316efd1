package io.changeflow.bootstrap;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.core.env.Environment;

/**
 * A health indicator that answers within its deadline ({@code changeflow.health.timeout}, 2 s), counted from the
 * start of its check: the check runs on the indicator's own thread, and one that has not answered by then is DOWN
 * ("no answer within 2000 ms"), so a database that does not answer makes readiness DOWN in seconds instead of
 * holding the probe (issue 34). The indicators of one {@link Group} start their checks together when any of them is
 * asked first by a probe (not again by the same probe's next asks, {@link #SAME_PROBE}), so a group that asks them one
 * after the other (readiness: the database, then the scheduler) still answers within one deadline, not the sum; an
 * answer is reused for as long as the deadline after its check ended. At most
 * one check of an indicator runs at a time: a probe while one is still running waits for that one (within what is
 * left of its deadline), so a hung dependency never piles up threads.
 * The check that overran is not interrupted; it ends by the database's own client deadlines. docs/operations.md
 * "Probe settings".
 */
final class BoundedHealthIndicator implements HealthIndicator, AutoCloseable {

    static final String TIMEOUT = "changeflow.health.timeout";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger log = LoggerFactory.getLogger(BoundedHealthIndicator.class);

    /**
     * How soon after this thread's last ask of a group the next ask is the same probe (Spring Boot asks a group's
     * members one after the other on the probe's thread): it starts nothing, so a probe never waits for a check started
     * after it began (run 8 of docs/reliability.md waited twice, 4 s: the second member's ask started the group again).
     */
    static final Duration SAME_PROBE = Duration.ofMillis(500);

    /** Indicators whose checks start together, once per probe. */
    static final class Group {

        private final List<BoundedHealthIndicator> members = new CopyOnWriteArrayList<>();
        /** This thread's probe of the group: when it began and when its last ask ended ({@link System#nanoTime()}). */
        private final ThreadLocal<long[]> probe = new ThreadLocal<>();

        /** Starts the group's checks unless this ask belongs to the probe that already started them. */
        private void startAll(Duration deadline) {
            var now = System.nanoTime();
            var current = probe.get();
            if (current != null && now - current[1] < SAME_PROBE.toNanos()
                    && now - current[0] < deadline.plus(SAME_PROBE).toNanos()) {
                return;
            }
            probe.set(new long[] {now, now});
            members.forEach(BoundedHealthIndicator::start);
        }

        private void asked() {
            var current = probe.get();
            if (current != null) {
                current[1] = System.nanoTime();
            }
        }
    }

    private final String name;
    private final HealthIndicator check;
    private final Duration deadline;
    private final Group group;
    private final ExecutorService thread;
    private Future<Health> running;
    private long startedAt;
    private long endedAt;

    BoundedHealthIndicator(String name, HealthIndicator check, Duration deadline, Group group) {
        this.name = name;
        this.check = check;
        this.deadline = deadline;
        this.group = group;
        this.thread = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().name("health-" + name).factory());
        group.members.add(this);
    }

    /** {@code changeflow.health.timeout}; missing, garbled, zero or negative: {@link #DEFAULT_TIMEOUT}. */
    static Duration deadline(Environment environment) {
        String configured;
        try {
            configured = environment.getProperty(TIMEOUT);
        } catch (RuntimeException unreadable) {
            configured = "";
        }
        var deadline = DeadlineProperties.parse(configured);
        if (deadline.isEmpty() && configured != null) {
            log.warn("{} must be a positive duration; using {}", TIMEOUT, DEFAULT_TIMEOUT);
        }
        return deadline.orElse(DEFAULT_TIMEOUT);
    }

    /**
     * Starts a check unless one is running or the last one ended within the deadline (its answer is that fresh: the
     * members of a group asked in turn by one probe reuse the answers their group's checks gave meanwhile).
     */
    private synchronized Future<Health> start() {
        if (running == null || running.isDone() && System.nanoTime() - endedAt >= deadline.toNanos()) {
            startedAt = System.nanoTime();
            running = thread.submit((Callable<Health>) () -> {
                try {
                    return check.health();
                } finally {
                    ended(System.nanoTime());
                }
            });
        }
        return running;
    }

    private synchronized void ended(long at) {
        endedAt = at;
    }

    /** A check and when it started ({@link System#nanoTime()}). */
    private record Check(Future<Health> answer, long startedAt) {}

    /** The check this probe waits for: the one {@link Group#startAll()} just started, found running or reused. */
    private synchronized Check current() {
        return new Check(running == null ? start() : running, startedAt);
    }

    @Override
    public Health health() {
        group.startAll(deadline);
        try {
            return answer();
        } finally {
            group.asked();
        }
    }

    private Health answer() {
        var check = current();
        var answer = check.answer();
        var left = deadline.toNanos() - (System.nanoTime() - check.startedAt());
        try {
            return answer.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
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
        group.members.remove(this);
        thread.shutdownNow();
    }
}
