package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.kagkarlsson.scheduler.serializer.Serializer;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The row format of workflow steps. */
class WorkflowStepTaskTest {

    @Test
    void storesTheAttemptAndEveryDataEntryUnderKeysOfTheirOwn() {
        var step = new Step(StepKind.HANDLE, "4f0c-op", 3, Map.of("attempt", "data named like the attempt", "phase", "merge"));

        var data = WorkflowStepTask.data(step);

        assertThat(data).containsOnly(Map.entry("format", "1"), Map.entry("attempt", "3"), Map.entry("data.attempt", "data named like the attempt"),
                Map.entry("data.phase", "merge"));
        assertThat(WorkflowStepTask.step(step.instanceId(), data)).isEqualTo(step);
    }

    @Test
    void keepsApplicationClassesOutOfTheStoredBlob() {
        var blob = Serializer.DEFAULT_JAVA_SERIALIZER.serialize(
                WorkflowStepTask.data(new Step(StepKind.CREATE, "op-1", 1, Map.of("k", "v"))));

        assertThat(new String(blob, StandardCharsets.ISO_8859_1)).contains("java.util.HashMap").doesNotContain("io.changeflow");
        assertThat(WorkflowStepTask.step("CREATE:op-1",
                Serializer.DEFAULT_JAVA_SERIALIZER.deserialize(WorkflowStepTask.DATA_CLASS, blob)))
                .isEqualTo(new Step(StepKind.CREATE, "op-1", 1, Map.of("k", "v")));
    }

    @Test
    void readsARowWithoutDataOrWithAnUnreadableAttemptAsAFirstAttempt() {
        assertThat(WorkflowStepTask.step("CLOSE:op-1", null)).isEqualTo(Step.first(StepKind.CLOSE, "op-1"));
        assertThat(WorkflowStepTask.step("CLOSE:op-1", Map.of("attempt", "x", "unknown", "ignored")))
                .isEqualTo(Step.first(StepKind.CLOSE, "op-1"));
    }

    @Test
    void keepsEverythingAfterTheFirstColonAsTheRef() {
        assertThat(WorkflowStepTask.step("BATCH:batch:2024:1", Map.of()).ref()).isEqualTo("batch:2024:1");
    }

    @Test
    void refusesAnInstanceOfAnUnknownKindSoTheRowIsRetriedNotLost() {
        assertThatThrownBy(() -> WorkflowStepTask.step("RETIRED_KIND:op-1", Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WorkflowStepTask.step("no-kind", Map.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countsTheAttemptUpForARetryAndKeepsTheData() {
        var data = new HashMap<>(Map.of("attempt", "2", "data.phase", "merge"));

        assertThat(WorkflowStepTask.nextAttempt(data)).containsOnly(Map.entry("attempt", "3"), Map.entry("data.phase", "merge"));
        assertThat(WorkflowStepTask.nextAttempt(null)).containsOnly(Map.entry("attempt", "2"));
    }

    @Test
    void refusesAnInstanceIdLongerThanItsColumn() {
        var step = Step.first(StepKind.HANDLE, "x".repeat(100));

        assertThatThrownBy(() -> StepPlacement.unbounded(null).place(step, Map.of(), Instant.now()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 100");
    }

    @Test
    void writesTheFormatVersionAndReadsARowWithoutOneAsTheFirstFormat() {
        var step = new Step(StepKind.HANDLE, "op-1", 2, Map.of("phase", "merge"));
        var written = WorkflowStepTask.data(step);
        var previousRelease = new HashMap<>(Map.of("attempt", "2", "data.phase", "merge"));

        assertThat(written).containsEntry(WorkflowStepTask.FORMAT, Integer.toString(WorkflowStepTask.CURRENT_FORMAT));
        assertThat(WorkflowStepTask.unreadable(step.instanceId(), written)).isEmpty();
        assertThat(WorkflowStepTask.unreadable(step.instanceId(), previousRelease)).isEmpty();
        assertThat(WorkflowStepTask.unreadable(step.instanceId(), null)).isEmpty();
        assertThat(WorkflowStepTask.step(step.instanceId(), previousRelease)).isEqualTo(step);
    }

    @Test
    void aHigherOrUnreadableFormatOrAnUnknownKindIsNotThisReleasesToRun() {
        assertThat(WorkflowStepTask.unreadable("HANDLE:op-1", Map.of("format", "2"))).contains("format");
        assertThat(WorkflowStepTask.unreadable("HANDLE:op-1", Map.of("format", "two"))).contains("format");
        assertThat(WorkflowStepTask.unreadable("HANDLE:op-1", Map.of("format", "0"))).contains("format");
        assertThat(WorkflowStepTask.unreadable("FUTURE_KIND:op-1", Map.of("format", "1"))).contains("kind");
        assertThat(WorkflowStepTask.unreadable("no-kind", Map.of())).contains("kind");
    }
}
