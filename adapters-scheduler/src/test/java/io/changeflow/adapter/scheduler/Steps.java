package io.changeflow.adapter.scheduler;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepSafetyNet;
import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.domain.polling.RetryPolicy;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Workflow steps for the tests, behind the application's real {@link RunDueStep} and {@link StepSafetyNet} safety net. */
final class Steps {

    private Steps() {
    }

    /**
     * The handlers as registered steps. Refs that are no operation id make the safety net end a step
     * that threw a RuntimeException as done (it has no state to write), so tests throw what escapes it.
     */
    static RunDueStep runner(Map<StepKind, StepBody> handlers) {
        return runner(new StateChanges(null, null), handlers);
    }

    static RunDueStep runner(StateChanges changes, Map<StepKind, StepBody> handlers) {
        var noRetries = new RetryPolicy(0, new ExponentialBackoff(Duration.ZERO, Duration.ZERO));
        return new RunDueStep(handlers.entrySet().stream()
                .map(e -> new StepSafetyNet(e.getKey(), WorkflowEvent.HANDLE_ERROR, e.getValue(), changes, noRetries))
                .toList());
    }

    /** A step run as a handler saw it. */
    record Run(String node, Step step, long nanos) {}

    /** Records every run. */
    static final class Runs {

        private final ConcurrentLinkedQueue<Run> runs = new ConcurrentLinkedQueue<>();

        void add(String node, Step step) {
            runs.add(new Run(node, step, System.nanoTime()));
        }

        List<Run> all() {
            return List.copyOf(runs);
        }

        List<Run> of(StepKind kind, String ref) {
            return runs.stream().filter(r -> r.step().kind() == kind && r.step().ref().equals(ref)).toList();
        }

        int count() {
            return runs.size();
        }
    }
}
