package io.changeflow.adapter.scheduler;

import io.changeflow.application.port.out.DatabaseBudgets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.workflow.RunDueStep;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The scheduler adapter: durable workflow steps and cluster-wide recurring jobs on db-scheduler, in
 * the application's database ({@code scheduled_tasks}, created by the persistence adapter's Flyway
 * migrations).
 *
 * <p>Needs a {@link DataSource} and a {@link RunDueStep} bean (looked up on the first step
 * run, so the workflow's beans may depend on the {@link WorkQueue}); registers every
 * {@link RecurringJob} bean, zero included. Provides the {@link WorkQueue}, the scheduler's
 * lifecycle (starts after the context is refreshed, stops first, letting running steps finish) and
 * the health indicator {@code scheduler}; with tracing, steps join the trace of what scheduled them. Settings: {@code changeflow.scheduler.*} and
 * {@code changeflow.workflow.backlog-capacity}.
 *
 * <p>Do not also put db-scheduler's Spring Boot starter on the classpath: it would build a second
 * scheduler on the same table that knows none of these tasks.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({SchedulerSettings.class, BacklogSettings.class})
public class SchedulerConfiguration {

    /** Rows deleted per statement by the purge job. */
    static final int PURGE_CHUNK = 1000;

    /**
     * With a Micrometer {@link Tracer} and {@link Propagator} (Boot's tracing), every step row stores the trace
     * context of what scheduled it and every run continues that trace ({@link StepTraces}); without, steps run
     * untraced.
     */
    @Bean
    WorkflowStepTask workflowStepTask(ObjectProvider<RunDueStep> runDueStep, SchedulerSettings settings,
                                      ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator,
                                      ObjectProvider<DatabaseBudgets> budgets) {
        var traces = new StepTraces(tracer.getIfAvailable(() -> Tracer.NOOP),
                propagator.getIfAvailable(() -> Propagator.NOOP));
        return new WorkflowStepTask(runDueStep::getObject, traces, settings.retryBackoff(), settings.name(),
                budgets.getIfAvailable(() -> DatabaseBudgets.NONE));
    }

    @Bean
    DbSchedulerWorkQueue workQueue(DataSource dataSource, WorkflowStepTask workflowStepTask, BacklogSettings backlog) {
        return new DbSchedulerWorkQueue(dataSource, workflowStepTask, backlog.backlogCapacity(), Clock.systemUTC());
    }

    /** The step gauges and the recurring jobs' runs and results, on the meter registry when there is one. */
    @Bean
    SchedulerMetrics schedulerMetrics(ObjectProvider<MeterRegistry> registry, DataSource dataSource,
                                      DbSchedulerWorkQueue workQueue, WorkflowStepTask workflowStepTask) {
        var metrics = new SchedulerMetrics(registry.getIfAvailable(), dataSource);
        metrics.bindSteps(workQueue);
        metrics.bindLeft(workflowStepTask);
        return metrics;
    }

    /** The request traces kept past their retention, deleted in bounded chunks every hour (not on the write path). */
    @Bean
    RecurringJob purgeStepTracesJob(DbSchedulerWorkQueue workQueue) {
        return new RecurringJob("purge-step-traces", Duration.ofHours(1), () -> {
            while (workQueue.forgetOldTraces(PURGE_CHUNK) == PURGE_CHUNK) {
                // keep deleting in bounded chunks until a chunk comes back short
            }
        });
    }

    @Bean
    ManagedScheduler managedScheduler(DataSource dataSource, SchedulerSettings settings,
                                      WorkflowStepTask workflowStepTask, DbSchedulerWorkQueue workQueue,
                                      ObjectProvider<RecurringJob> recurringJobs, SchedulerMetrics metrics,
                                      ObjectProvider<DatabaseBudgets> budgets, Environment environment) {
        var budget = budgets.getIfAvailable(() -> DatabaseBudgets.NONE);
        return new ManagedScheduler(dataSource, settings, workflowStepTask, workQueue,
                recurringJobs.orderedStream().map(job -> asLongJob(job, budget)).map(metrics::measured).toList(),
                Clock.systemUTC(), settings.shutdownWaitWithin(shutdownPhase(environment)));
    }

    /** {@code spring.lifecycle.timeout-per-shutdown-phase}, Spring's default 30 s when absent or garbled. */
    static Duration shutdownPhase(Environment environment) {
        try {
            var phase = environment.getProperty("spring.lifecycle.timeout-per-shutdown-phase", Duration.class);
            return phase == null || phase.isZero() || phase.isNegative() ? Duration.ofSeconds(30) : phase;
        } catch (RuntimeException garbled) {
            return Duration.ofSeconds(30);
        }
    }

    /** {@code job} with its runs inside a long job's database budget (its own pool wait; issue 34). */
    static RecurringJob asLongJob(RecurringJob job, DatabaseBudgets budgets) {
        return new RecurringJob(job.name(), job.interval(), () -> {
            try (var budget = budgets.longJob()) {
                return job.work().get();
            }
        });
    }

    /** Shown as {@code scheduler} in {@code /actuator/health}. */
    @Bean
    HealthIndicator schedulerHealthIndicator(ManagedScheduler managedScheduler, DataSource dataSource) {
        return new SchedulerHealthIndicator(managedScheduler, dataSource);
    }
}
