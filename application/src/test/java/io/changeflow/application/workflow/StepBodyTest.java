package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.operation.Operation;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;

/** The shared opening of the steps that work on one operation ({@link StepBody#onOperation}). */
class StepBodyTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final RecordingLogger log = new RecordingLogger();
    private final List<Operation> seen = new ArrayList<>();

    @Test
    void runsTheBodyOnTheOperationTheRefNamesAndReturnsItsOutcome() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "iris");
        var step = Step.first(StepKind.CREATE, id.value());
        var again = StepOutcome.again(step, Duration.ofSeconds(5));

        var outcome = StepBody.onOperation(step, app.operations, log, "create step", op -> {
            seen.add(op);
            return again;
        });

        assertThat(outcome).isEqualTo(again);
        assertThat(seen).extracting(Operation::id).containsExactly(id);
        assertThat(log.lines).isEmpty();
    }

    @Test
    void isDoneWithAWarningAndWithoutTheBodyWhenNoOperationHasTheRef() {
        var unknown = "9a1b2c3d-0000-4000-8000-000000000001";

        var outcome = StepBody.onOperation(Step.first(StepKind.HANDLE, unknown), app.operations, log, "handle step", op -> {
            seen.add(op);
            return StepOutcome.next(Step.first(StepKind.HANDLE, unknown));
        });

        assertThat(outcome).isEqualTo(StepOutcome.done());
        assertThat(seen).isEmpty();
        assertThat(log.lines).containsExactly("WARNING no operation " + unknown + " for the handle step");
    }

    @Test
    void isDoneWithAWarningWhenTheRefIsNoOperationId() {
        var outcome = StepBody.onOperation(Step.first(StepKind.SUBMIT_APPROVAL, "batch-7"), app.operations, log,
                "approval step", op -> {
                    seen.add(op);
                    return StepOutcome.next(Step.first(StepKind.SUBMIT_APPROVAL, "batch-7"));
                });

        assertThat(outcome).isEqualTo(StepOutcome.done());
        assertThat(seen).isEmpty();
        assertThat(log.lines).containsExactly("WARNING no operation batch-7 for the approval step");
    }

    /** Keeps each line logged as "LEVEL message". */
    private static final class RecordingLogger implements System.Logger {

        final List<String> lines = new ArrayList<>();

        @Override
        public String getName() {
            return "recording";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
            lines.add(level + " " + msg);
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            lines.add(level + " " + (params == null || params.length == 0 ? format : MessageFormat.format(format, params)));
        }
    }
}
