package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.changeflow.adapter.scheduler.Steps.Run;
import io.changeflow.adapter.scheduler.Steps.Runs;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Step rows written by another release (issue 31): a row of the current format and a row without a format version
 * (the previous release's) both run; a row of a higher format version, of a step kind or of a task name this release
 * does not know is left for an instance that knows it: not run, not failed, not deleted, its data unchanged.
 */
class StepFormatTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private static final Duration WAIT = Duration.ofSeconds(20);

    private final Runs runs = new Runs();

    @Test
    void aRowOfTheCurrentFormatAndARowWithoutAFormatVersionBothRun() {
        var current = new HashMap<>(Map.of("format", "1", "attempt", "1", "data.phase", "merge"));
        var previousRelease = new HashMap<>(Map.of("attempt", "3", "data.phase", "approve"));
        schema.insertWorkflowRow("HANDLE:op-current", current);
        schema.insertWorkflowRow("HANDLE:op-previous", previousRelease);

        node("a").start();

        await().atMost(WAIT).until(() -> schema.workflowRows().isEmpty());
        assertThat(runs.all()).extracting(Run::step).extracting(s -> s.ref() + " " + s.attempt() + " " + s.data())
                .containsExactlyInAnyOrder("op-current 1 {phase=merge}", "op-previous 3 {phase=approve}");
    }

    @Test
    void aRowOfAHigherFormatOrAnUnknownKindIsLeftUnchangedForAnInstanceThatKnowsIt() {
        var newer = new HashMap<>(Map.of("format", "2", "attempt", "1", "payload", "{\"what\":\"the next release means\"}"));
        var unknownKind = new HashMap<>(Map.of("format", "1", "attempt", "1"));
        schema.insertWorkflowRow("HANDLE:op-newer", newer);
        schema.insertWorkflowRow("FUTURE_KIND:op-1", unknownKind);
        var before = Instant.now();

        var a = node("a").start();

        await().atMost(WAIT).until(() -> a.task().leftForAnotherInstance("format") >= 1
                && a.task().leftForAnotherInstance("kind") >= 1
                && schema.row("HANDLE:op-newer").map(r -> !r.isPicked()).orElse(false)
                && schema.row("FUTURE_KIND:op-1").map(r -> !r.isPicked()).orElse(false));
        assertThat(runs.count()).isZero();
        for (var id : List.of("HANDLE:op-newer", "FUTURE_KIND:op-1")) {
            var row = schema.row(id).orElseThrow();
            assertThat(row.getConsecutiveFailures()).as(id).isZero();
            assertThat(row.getExecutionTime()).as(id).isAfter(before.plus(WorkflowStepTask.LEAVE_FOR).minusSeconds(1));
        }
        assertThat(schema.row("HANDLE:op-newer").orElseThrow().getData()).isEqualTo(newer);
        assertThat(schema.row("FUTURE_KIND:op-1").orElseThrow().getData()).isEqualTo(unknownKind);
    }

    @Test
    void aRowOfATaskNameThisReleaseDoesNotKnowIsNeitherPickedNorDeleted() {
        var newerRelease = SchedulerClient.Builder.create(schema.db().dataSource(),
                        Tasks.oneTime("future-job", String.class).execute((instance, context) -> { }))
                .jdbcCustomization(SchedulerTable.dialect(schema.db().dataSource()).customization())
                .build();
        newerRelease.scheduleIfNotExists(new TaskInstance<>("future-job", "1", "data"), Instant.now());
        // a workflow row behind it, to know the instance has polled past the unknown one
        schema.insertWorkflowRow("HANDLE:op-1", new HashMap<>(Map.of("format", "1", "attempt", "1")));

        node("a").start();

        await().atMost(WAIT).until(() -> schema.row(StepKind.HANDLE, "op-1").isEmpty());
        await().during(Duration.ofSeconds(1)).atMost(WAIT).until(() -> schema.all().size() == 1);
        var row = schema.all().getFirst();
        assertThat(row.getTaskInstance().getTaskName()).isEqualTo("future-job");
        assertThat(row.isPicked()).isFalse();
        assertThat(row.getConsecutiveFailures()).isZero();
    }

    private Node node(String name) {
        return Node.of(schema, name, Steps.runner(Map.of(StepKind.HANDLE, step -> {
            runs.add(name, step);
            return StepOutcome.done();
        })));
    }
}
