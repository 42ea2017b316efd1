package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What durable execution costs per step with zero work, on one instance with the production
 * defaults (polling every 2 s): work due at once is started through db-scheduler's immediate
 * execution, work due later is found by the next poll. Printed, not asserted: timings depend on the
 * machine.
 */
class StepOverheadTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private static final int WARM_UP = 10;
    private static final int MEASURED = 100;

    private Node node;

    @Test
    void measuresTheDelayFromDueToRunOfANewStep() throws InterruptedException {
        var started = new ConcurrentLinkedQueue<Long>();
        var ran = new Semaphore(0);
        node = measuringLateness(started, ran);

        for (var i = 0; i < WARM_UP + MEASURED; i++) {
            node.queue().schedule(Step.first(StepKind.HANDLE, "op-" + i).with("due", Instant.now().toString()), Duration.ZERO);
            assertThat(ran.tryAcquire(10, TimeUnit.SECONDS)).as("step %d ran", i).isTrue();
        }

        print("new step, scheduled due now -> handler entered", started.stream().skip(WARM_UP).toList());
    }

    @Test
    void measuresTheDelayFromDueToRunOfAStepDueLater() throws InterruptedException {
        var late = new ConcurrentLinkedQueue<Long>();
        var ran = new Semaphore(0);
        node = measuringLateness(late, ran);

        // due times spread over one polling cycle, so the lateness samples the whole interval
        var steps = 10;
        for (var i = 0; i < steps; i++) {
            var delay = Duration.ofMillis(100 + 200L * i);
            var due = Instant.now().plus(delay);
            node.queue().schedule(Step.first(StepKind.HANDLE, "op-" + i).with("due", due.toString()), delay);
        }
        assertThat(ran.tryAcquire(steps, 10, TimeUnit.SECONDS)).isTrue();

        print("step due later (0.1 to 1.9 s), found by the next poll -> handler entered", List.copyOf(late));
    }

    @Test
    void measuresTheGapBetweenChainedSteps() {
        var entered = new ConcurrentLinkedQueue<Long>();
        var hops = WARM_UP + MEASURED;
        node = production(Map.of(
                StepKind.CREATE, step -> hop(step, StepKind.HANDLE, hops, entered),
                StepKind.HANDLE, step -> hop(step, StepKind.CREATE, hops, entered))).start();

        node.queue().schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO);

        await().atMost(Duration.ofSeconds(60)).until(() -> entered.size() == hops + 1 && schema.workflowRows().isEmpty());
        print("Next(other kind, 0): one step returns -> the next step entered", gaps(entered));
    }

    @Test
    void measuresTheGapBetweenRunsOfARescheduledStep() {
        var entered = new ConcurrentLinkedQueue<Long>();
        var runs = WARM_UP + MEASURED;
        node = production(Map.of(StepKind.HANDLE, step -> {
            entered.add(System.nanoTime());
            var n = step.intValue("n", 0);
            return n < runs ? StepOutcome.again(step.with("n", n + 1), Duration.ZERO) : StepOutcome.done();
        })).start();

        node.queue().schedule(Step.first(StepKind.HANDLE, "op-1"), Duration.ZERO);

        await().atMost(Duration.ofSeconds(60)).until(() -> entered.size() == runs + 1 && schema.workflowRows().isEmpty());
        print("Reschedule(same step, 0): one run returns -> the next run entered", gaps(entered));
    }

    private static StepOutcome hop(Step step, StepKind next, int hops, ConcurrentLinkedQueue<Long> entered) {
        entered.add(System.nanoTime());
        var hop = step.intValue("hop", 0);
        return hop < hops ? StepOutcome.next(new Step(next, step.ref(), 1, Map.of("hop", String.valueOf(hop + 1))))
                : StepOutcome.done();
    }

    /** A started instance whose HANDLE steps record how long after their {@code due} they were entered, then release {@code ran}. */
    private Node measuringLateness(ConcurrentLinkedQueue<Long> lateness, Semaphore ran) {
        return production(Map.of(StepKind.HANDLE, step -> {
            var due = Instant.parse(step.value("due").orElseThrow());
            lateness.add(Duration.between(due, Instant.now()).toNanos());
            ran.release();
            return StepOutcome.done();
        })).start();
    }

    private Node production(Map<StepKind, StepBody> handlers) {
        var defaults = SchedulerSettings.defaults();
        var settings = new SchedulerSettings(defaults.pollingInterval(), defaults.threads(), defaults.heartbeatInterval(),
                defaults.deadExecutionTimeout(), Duration.ofSeconds(5), defaults.retryInitialDelay(),
                defaults.retryMaxDelay(), "overhead");
        return Node.of(schema, settings, 10_000, Steps.runner(handlers), List.of());
    }

    private static List<Long> gaps(ConcurrentLinkedQueue<Long> entered) {
        var times = new ArrayList<>(entered);
        var gaps = new ArrayList<Long>();
        for (var i = WARM_UP + 1; i < times.size(); i++) {
            gaps.add(times.get(i) - times.get(i - 1));
        }
        return gaps;
    }

    private static void print(String what, List<Long> nanos) {
        var sorted = nanos.stream().sorted().toList();
        var mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0);
        System.out.printf("per-step overhead, %s (n=%d, polling %s): mean %.2f ms, p50 %.2f ms, p95 %.2f ms, max %.2f ms%n",
                what, sorted.size(), SchedulerSettings.defaults().pollingInterval(), mean / 1e6,
                percentile(sorted, 50) / 1e6, percentile(sorted, 95) / 1e6, sorted.getLast() / 1e6);
    }

    private static double percentile(List<Long> sorted, int p) {
        var index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, index));
    }
}
