package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.DatabaseBudgets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StepOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The adapter as bootstrap wires it: {@link SchedulerConfiguration} plus a DataSource and the workflow. */
class SchedulerConfigurationTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();


    @Test
    @SuppressWarnings("unchecked")
    void providesTheWorkQueueRunsStepsAndRecurringJobsAndReportsHealthAsScheduler() {
        var ran = new CountDownLatch(1);
        var swept = new CountDownLatch(2);
        context(Steps.runner(Map.of(StepKind.HANDLE, step -> {
            ran.countDown();
            return StepOutcome.done();
        })))
                .withBean("sweep", RecurringJob.class, () -> new RecurringJob("sweep", Duration.ofMillis(100), swept::countDown))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBeansOfType(WorkQueue.class)).hasSize(1);
                    assertThat(context.getBeansOfType(HealthIndicator.class)).containsOnlyKeys("schedulerHealthIndicator");

                    var queue = context.getBean(WorkQueue.class);
                    assertThat(queue.schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO)).isTrue();
                    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(swept.await(10, TimeUnit.SECONDS)).isTrue();

                    var health = context.getBean(HealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("name", "wired").containsEntry("threads", 3);
                    assertThat((Map<String, Object>) health.getDetails().get("workflowSteps"))
                            .containsEntry("backlogCapacity", 5);

                    context.getBean(ManagedScheduler.class).stop();
                    assertThat(context.getBean(HealthIndicator.class).health().getStatus()).isEqualTo(Status.DOWN);
                });
    }

    /** What a sweep reports: the run's result record, counted by component. */
    record SweepResult(int failed, int rescheduled, boolean systemDown) {}

    @Test
    void publishesTheStepGaugesAndEveryJobRunWithItsResultsOnTheRegistry() {
        var swept = new CountDownLatch(2);
        var registry = new SimpleMeterRegistry();
        context(Steps.runner(Map.of(StepKind.HANDLE, step -> StepOutcome.done())))
                .withBean(MeterRegistry.class, () -> registry)
                .withBean("sweep", RecurringJob.class, () -> new RecurringJob("sweep", Duration.ofMillis(100), () -> {
                    swept.countDown();
                    return new SweepResult(2, 1, true);
                }))
                .withBean("broken", RecurringJob.class, () -> new RecurringJob("broken", Duration.ofMillis(100), () -> {
                    throw new IllegalStateException("injected");
                }))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    var manager = context.getBean(ManagedScheduler.class);
                    manager.stop();
                    var queue = context.getBean(WorkQueue.class);
                    assertThat(queue.schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ofHours(1))).isTrue();
                    assertThat(queue.schedule(Step.first(StepKind.HANDLE, "op-2"), Duration.ofHours(1))).isTrue();
                    assertThat(registry.get(SchedulerMetrics.WAITING).gauge().value()).isEqualTo(2.0);
                    assertThat(registry.get(SchedulerMetrics.RUNNING).gauge().value()).isZero();
                    assertThat(registry.get(SchedulerMetrics.FAILING).gauge().value()).isZero();
                    assertThat(registry.get(SchedulerMetrics.CAPACITY).gauge().value()).isEqualTo(5.0);
                    assertThat(registry.get(SchedulerMetrics.WAITING).gauge().getId().getDescription()).isNotBlank();

                    manager.start();
                    assertThat(swept.await(10, TimeUnit.SECONDS)).isTrue();
                    awaitTrue(() -> registry.find(SchedulerMetrics.RUNS).tags("job", "broken", "outcome", "failure").timer() != null
                            && registry.find(SchedulerMetrics.RESULTS).tags("job", "sweep", "result", "system_down").counter() != null);
                    assertThat(registry.get(SchedulerMetrics.RUNS).tags("job", "sweep", "outcome", "success").timer().count())
                            .isPositive();
                    var failed = registry.get(SchedulerMetrics.RESULTS).tags("job", "sweep", "result", "failed").counter().count();
                    var rescheduled = registry.get(SchedulerMetrics.RESULTS).tags("job", "sweep", "result", "rescheduled")
                            .counter().count();
                    assertThat(failed).isPositive().isEqualTo(2 * rescheduled);
                    assertThat(registry.find(SchedulerMetrics.RESULTS).tags("job", "broken").counters()).isEmpty();
                });
    }

    @Test
    void startsWithoutAnyRecurringJob() {
        context(Steps.runner(Map.of())).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ManagedScheduler.class).isRunning()).isTrue();
        });
    }

    @Test
    void stopsStartUpWhenTheDeadExecutionTimeoutIsShorterThanFourHeartbeats() {
        context(Steps.runner(Map.of()))
                .withPropertyValues("changeflow.scheduler.heartbeat-interval=10s",
                        "changeflow.scheduler.dead-execution-timeout=20s")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("dead-execution-timeout"));
    }

    @Test
    void stopsStartUpWhenTwoRecurringJobsShareAName() {
        context(Steps.runner(Map.of()))
                .withBean("one", RecurringJob.class, () -> new RecurringJob("sweep", Duration.ofMinutes(1), () -> { }))
                .withBean("two", RecurringJob.class, () -> new RecurringJob("sweep", Duration.ofMinutes(5), () -> { }))
                .run(context -> assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("two recurring jobs are named sweep"));
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("the condition within 10 s").isNegative();
            Thread.sleep(50);
        }
    }

    /** The class's DataSource, which the context must not close (a proxy has no close method to infer). */
    private static DataSource unclosable() {
        var target = schema.db().dataSource();
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Issue 34: reconciliation chunks, batch claims and every other step or job wait for a connection as long jobs. */
    @Test
    void stepsAndRecurringJobsRunInsideALongJobsDatabaseBudget() {
        // scopes open in all (every one closed at the end) and on the running thread: the step and the job run on
        // two scheduler threads at the same time, so only the thread's own count says what the work runs inside
        var open = new java.util.concurrent.atomic.AtomicInteger();
        var onThisThread = ThreadLocal.withInitial(() -> 0);
        var budgets = new DatabaseBudgets() {
            @Override
            public Scope apiRequest() {
                throw new AssertionError("a step or job is not an API request");
            }

            @Override
            public Scope longJob() {
                open.incrementAndGet();
                onThisThread.set(onThisThread.get() + 1);
                return () -> {
                    onThisThread.set(onThisThread.get() - 1);
                    open.decrementAndGet();
                };
            }
        };
        var stepInside = new java.util.concurrent.atomic.AtomicInteger(-1);
        var jobInside = new java.util.concurrent.atomic.AtomicInteger(-1);
        var ran = new CountDownLatch(2);
        context(Steps.runner(Map.of(StepKind.HANDLE, step -> {
            stepInside.set(onThisThread.get());
            ran.countDown();
            return StepOutcome.done();
        })))
                .withBean(DatabaseBudgets.class, () -> budgets)
                .withBean("reconcile", RecurringJob.class, () -> new RecurringJob("reconcile", Duration.ofHours(1), () -> {
                    jobInside.compareAndSet(-1, onThisThread.get());
                    ran.countDown();
                }))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(WorkQueue.class).schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO))
                            .isTrue();
                    assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(stepInside.get()).as("scopes open while the step ran").isEqualTo(1);
                    assertThat(jobInside.get()).as("scopes open while the job ran").isEqualTo(1);
                    context.getBean(ManagedScheduler.class).stop();
                    assertThat(open.get()).as("every scope closed").isZero();
                });
    }

    private static ApplicationContextRunner context(RunDueStep workflow) {
        return new ApplicationContextRunner()
                .withUserConfiguration(SchedulerConfiguration.class)
                .withBean(DataSource.class, SchedulerConfigurationTest::unclosable)
                .withBean(RunDueStep.class, () -> workflow)
                .withPropertyValues(
                        "changeflow.scheduler.name=wired",
                        "changeflow.scheduler.threads=3",
                        "changeflow.scheduler.polling-interval=200ms",
                        "changeflow.scheduler.heartbeat-interval=100ms",
                        "changeflow.scheduler.dead-execution-timeout=1s",
                        "changeflow.scheduler.shutdown-max-wait=2s",
                        "changeflow.workflow.backlog-capacity=5");
    }
}
