package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RunWorkflowStep;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.testsupport.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The adapter as bootstrap wires it: {@link SchedulerConfiguration} plus a DataSource and the workflow. */
class SchedulerConfigurationTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();

    private static Schema schema;

    @BeforeAll
    static void migrate() {
        schema = Schema.migrate(db);
    }

    @BeforeEach
    void emptyTable() {
        schema.clear();
    }

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

    /** The class's DataSource, which the context must not close (a proxy has no close method to infer). */
    private static DataSource unclosable() {
        var target = db.dataSource();
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static ApplicationContextRunner context(RunWorkflowStep workflow) {
        return new ApplicationContextRunner()
                .withUserConfiguration(SchedulerConfiguration.class)
                .withBean(DataSource.class, SchedulerConfigurationTest::unclosable)
                .withBean(RunWorkflowStep.class, () -> workflow)
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
