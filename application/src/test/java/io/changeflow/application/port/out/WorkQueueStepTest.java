package io.changeflow.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

/** The step record is what the scheduler persists as task data between runs. */
class WorkQueueStepTest {

    @Test
    void aStepSurvivesJavaSerializationWithItsData() throws Exception {
        var step = Step.first(StepKind.HANDLE, "0a0a0000-0000-4000-8000-000000000001").with("phase", "MERGE").with("rebases", 2)
                .nextAttempt();
        var bytes = new ByteArrayOutputStream();
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(step);
        }

        Object read;
        try (var in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            read = in.readObject();
        }

        assertThat(read).isEqualTo(step);
        assertThat(((Step) read).intValue("rebases", 0)).isEqualTo(2);
    }

    @Test
    void oneInstancePerKindAndRefAndDataIsCarriedToTheNextAttempt() {
        var step = Step.first(StepKind.CREATE, "ref").with("phase", "PIPELINE");

        assertThat(step.instanceId()).isEqualTo("CREATE:ref");
        assertThat(step.nextAttempt().attempt()).isEqualTo(2);
        assertThat(step.nextAttempt().value("phase")).contains("PIPELINE");
        assertThat(step.without("phase").value("phase")).isEmpty();
        assertThat(step.intValue("phase", 7)).isEqualTo(7);
        assertThat(new Step(StepKind.CREATE, "ref", 1).data()).isEmpty();
    }
}
