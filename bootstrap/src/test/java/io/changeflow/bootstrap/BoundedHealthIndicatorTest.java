package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.mock.env.MockEnvironment;

class BoundedHealthIndicatorTest {

    @Test
    void aCheckThatDoesNotAnswerIsDownAtTheDeadlineAndNoSecondCheckPilesUp() throws Exception {
        var release = new CountDownLatch(1);
        var checks = new AtomicInteger();
        try (var bounded = new BoundedHealthIndicator("db", () -> {
            checks.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Health.up().build();
        }, Duration.ofMillis(200), new BoundedHealthIndicator.Group())) {
            var first = bounded.health();
            var second = bounded.health();

            assertThat(first.getStatus()).isEqualTo(Status.DOWN);
            assertThat(first.getDetails()).containsEntry("error", "no answer within 200 ms");
            assertThat(second.getStatus()).isEqualTo(Status.DOWN);
            assertThat(checks).as("the second probe waited for the check still running").hasValue(1);

            release.countDown();
            // the next probes heal it: asks closer together than SAME_PROBE are one probe (it starts nothing new), so
            // the asks are spaced out, as a platform's probes are, and bounded in time rather than in count
            var healed = bounded.health();
            var until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (healed.getStatus() != Status.UP && System.nanoTime() < until) {
                Thread.sleep(BoundedHealthIndicator.SAME_PROBE.toMillis() / 5);
                healed = bounded.health();
            }
            assertThat(healed.getStatus()).isEqualTo(Status.UP);
        }
    }

    @Test
    void aCheckThatAnswersInTimeIsPassedOnAndAFailingOneIsDown() {
        var group = new BoundedHealthIndicator.Group();
        try (var up = new BoundedHealthIndicator("scheduler", () -> Health.up().withDetail("state", "running").build(),
                Duration.ofSeconds(2), group);
             var failing = new BoundedHealthIndicator("db", () -> {
                 throw new IllegalStateException("select 1 failed: secret detail");
             }, Duration.ofSeconds(2), group)) {
            assertThat(up.health().getDetails()).containsEntry("state", "running");
            var down = failing.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsEntry("error", "IllegalStateException");
        }
    }

    @Test
    void askingOneIndicatorOfAGroupStartsTheChecksOfAllSoAGroupAskedInTurnAnswersWithinOneDeadline() throws Exception {
        var release = new CountDownLatch(1);
        var secondStarted = new CountDownLatch(1);
        var group = new BoundedHealthIndicator.Group();
        HealthIndicator hung = () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Health.up().build();
        };
        try (var scheduler = new BoundedHealthIndicator("scheduler", hung, Duration.ofMillis(300), group);
             var db = new BoundedHealthIndicator("db", () -> {
                 secondStarted.countDown();
                 return hung.health();
             }, Duration.ofMillis(300), group)) {
            assertThat(scheduler.health().getStatus()).isEqualTo(Status.DOWN);
            assertThat(secondStarted.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the database check started unasked").isTrue();
            assertThat(db.health().getStatus()).isEqualTo(Status.DOWN);
        } finally {
            release.countDown();
        }
    }

    /**
     * Run 8 of docs/reliability.md: the database's answer was fresh when a probe began (reused), the probe then waited
     * its deadline for the scheduler's check, and asking the database next started the group again, a second wait
     * (4 s). One probe starts its group once: here the second member's check runs once, not again for the same probe.
     */
    @Test
    void oneProbeStartsItsGroupOnceSoAnAnswerThatAgesWhileItWaitsIsNotCheckedAgain() throws Exception {
        var deadline = Duration.ofSeconds(2);
        var dbChecks = new AtomicInteger();
        var schedulerChecks = new AtomicInteger();
        var release = new CountDownLatch(1);
        var group = new BoundedHealthIndicator.Group();
        try (var scheduler = new BoundedHealthIndicator("scheduler", () -> {
                 if (schedulerChecks.incrementAndGet() > 1) {
                     try {
                         release.await();
                     } catch (InterruptedException e) {
                         Thread.currentThread().interrupt();
                     }
                 }
                 return Health.up().build();
             }, deadline, group);
             var db = new BoundedHealthIndicator("db", () -> {
                 dbChecks.incrementAndGet();
                 try {
                     Thread.sleep(1_200);
                 } catch (InterruptedException e) {
                     Thread.currentThread().interrupt();
                 }
                 return Health.up().build();
             }, deadline, group)) {
            var firstProbe = java.util.concurrent.Executors.newSingleThreadExecutor();
            var secondProbe = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                var began = System.nanoTime();
                // probe 1: the scheduler answers at once, the database after 1.2 s
                firstProbe.submit(() -> {
                    scheduler.health();
                    return db.health();
                }).get(30, java.util.concurrent.TimeUnit.SECONDS);
                // probe 2, 2.4 s after probe 1 began: the scheduler's answer is older than the deadline (checked
                // again, and that check hangs), the database's is not (reused) ...
                Thread.sleep(Math.max(0, Duration.ofMillis(2_400).minusNanos(System.nanoTime() - began).toMillis()));
                var second = secondProbe.submit(() -> {
                    var schedulerAnswer = scheduler.health();
                    return java.util.List.of(schedulerAnswer, db.health());
                }).get(30, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(second.get(0).getStatus()).isEqualTo(Status.DOWN);
                // ... and asking the database after the 2 s wait, its answer now older than the deadline, is the same
                // probe: not checked again
                assertThat(second.get(1).getStatus()).isEqualTo(Status.UP);
                assertThat(dbChecks).as("the database checked once for both probes").hasValue(1);
                assertThat(schedulerChecks).hasValue(2);
            } finally {
                release.countDown();
                firstProbe.shutdownNow();
                secondProbe.shutdownNow();
            }
        }
    }

    @Test
    void anAnswerIsReusedWithinTheDeadlineAfterItsCheckEndedSoOneProbeAsksEachCheckOnce() {
        var checks = new AtomicInteger();
        try (var bounded = new BoundedHealthIndicator("db", () -> Health.up().withDetail("check", checks.incrementAndGet()).build(),
                Duration.ofMinutes(1), new BoundedHealthIndicator.Group())) {
            assertThat(bounded.health().getDetails()).containsEntry("check", 1);
            assertThat(bounded.health().getDetails()).containsEntry("check", 1);
            assertThat(checks).hasValue(1);
        }
    }

    @Test
    void theDeadlineIsTwoSecondsUnlessAPositiveDurationIsConfigured() {
        assertThat(BoundedHealthIndicator.deadline(new MockEnvironment())).isEqualTo(Duration.ofSeconds(2));
        assertThat(BoundedHealthIndicator.deadline(new MockEnvironment().withProperty(BoundedHealthIndicator.TIMEOUT, "1500ms")))
                .isEqualTo(Duration.ofMillis(1500));
        for (var garbled : new String[] {"soon", "0", "-1s", ""}) {
            assertThat(BoundedHealthIndicator.deadline(new MockEnvironment().withProperty(BoundedHealthIndicator.TIMEOUT, garbled)))
                    .as(garbled).isEqualTo(Duration.ofSeconds(2));
        }
    }
}
