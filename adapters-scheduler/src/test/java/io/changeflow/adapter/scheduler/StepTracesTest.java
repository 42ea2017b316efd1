package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepBody;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.testsupport.TestTracing;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.MDC;

/**
 * Steps join the trace of what scheduled them, through the trace context stored in their rows, on the real
 * database with a real tracer (the OpenTelemetry SDK through Micrometer's bridge, as the app wires it).
 */
class StepTracesTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private static final String TRACE_ID = TestTracing.TRACE_ID;
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static TestTracing tracing;
    private static StepTraces traces;

    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

    /** What a step saw while running: its step, the current trace and the logging context's ids. */
    record Seen(Step step, String traceId, String operationId, String batchId) {}

    @BeforeAll
    static void setUp() {
        tracing = new TestTracing();
        traces = new StepTraces(tracing.tracer(), tracing.propagator());
    }

    @AfterAll
    static void tearDown() {
        tracing.close();
    }

    @BeforeEach
    void resetTracing() {
        tracing.reset();
    }

    @Test
    void aStepJoinsTheTraceOfWhatScheduledItAndHandsItToItsFollower() {
        var node = node("a", Map.of(
                StepKind.CREATE, seeing(step -> StepOutcome.next(Step.first(StepKind.HANDLE, step.ref()))),
                StepKind.HANDLE, seeing(step -> StepOutcome.done())));

        inTheSubmissionsTrace(() -> node.queue().schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ofHours(1)));
        var row = schema.row(StepKind.CREATE, "op-1").orElseThrow();
        @SuppressWarnings("unchecked")
        var data = (Map<String, String>) row.getData();
        assertThat(data.get("trace.traceparent")).startsWith("00-" + TRACE_ID + "-");
        assertThat(Schema.step(row).data()).as("the trace is no step data").isEmpty();

        node.queue().schedule(Step.first(StepKind.CREATE, "op-1"), Duration.ZERO);
        node.start();
        await().atMost(WAIT).until(() -> seen.size() == 2);

        assertThat(seen).extracting(Seen::traceId).containsOnly(TRACE_ID);
        assertThat(seen).extracting(Seen::operationId).containsOnly("op-1");
        assertThat(seen).extracting(Seen::batchId).containsOnly((String) null);
        var create = span("step CREATE");
        var handle = span("step HANDLE");
        assertThat(handle.getParentSpanId()).as("the follower continues from the step that scheduled it")
                .isEqualTo(create.getSpanId());
        assertThat(MDC.get(StepTraces.OPERATION_ID)).isNull();
    }

    @Test
    void everyRunOfAPollingStepIsAChildOfWhatScheduledItNotOfTheRunBefore() {
        var polls = new java.util.concurrent.atomic.AtomicInteger();
        var node = node("a", Map.of(StepKind.HANDLE, seeing(step -> polls.incrementAndGet() < 3
                ? StepOutcome.again(step, Duration.ZERO) : StepOutcome.done())));
        inTheSubmissionsTrace(() -> node.queue().schedule(Step.first(StepKind.HANDLE, "op-6"), Duration.ofHours(1)));
        @SuppressWarnings("unchecked")
        var stored = ((Map<String, String>) schema.row(StepKind.HANDLE, "op-6").orElseThrow().getData())
                .get("trace.traceparent");
        node.queue().schedule(Step.first(StepKind.HANDLE, "op-6"), Duration.ZERO);
        node.start();
        await().atMost(WAIT).until(() -> seen.size() == 3);

        var runs = await().atMost(WAIT).until(() -> tracing.finishedSpans().stream()
                .filter(s -> s.getName().equals("step HANDLE")).toList(), list -> list.size() == 3);
        assertThat(runs).extracting(SpanData::getParentSpanId).containsOnly(stored.split("-")[2]);
        assertThat(runs).extracting(SpanData::getTraceId).containsOnly(TRACE_ID);
    }

    @Test
    void aStepScheduledByAnInstanceThatDiedRunsInTheSubmissionsTraceOnAnother() {
        var dead = node("dead", Map.of());
        inTheSubmissionsTrace(() -> dead.queue().schedule(Step.first(StepKind.SUBMIT_APPROVAL, "op-2"), Duration.ZERO));
        dead.kill();

        node("survivor", Map.of(StepKind.SUBMIT_APPROVAL, seeing(step -> StepOutcome.done()))).start();
        await().atMost(WAIT).until(() -> seen.size() == 1);

        var run = seen.peek();
        assertThat(run.traceId()).isEqualTo(TRACE_ID);
        assertThat(run.operationId()).isEqualTo("op-2");
        assertThat(span("step SUBMIT_APPROVAL").getTraceId()).isEqualTo(TRACE_ID);
    }

    @Test
    void aStepACallbackSchedulesInATraceOfItsOwnJoinsTheSubmissionsTrace() {
        var node = node("a", Map.of(
                StepKind.SUBMIT_APPROVAL, seeing(step -> StepOutcome.done()),
                StepKind.HANDLE, seeing(step -> StepOutcome.done())));
        node.start();
        inTheSubmissionsTrace(() -> node.queue().schedule(Step.first(StepKind.SUBMIT_APPROVAL, "op-5"), Duration.ZERO));
        await().atMost(WAIT).until(() -> seen.size() == 1);

        var callback = tracing.tracer().nextSpan().name("callback").start();
        try (var inScope = tracing.tracer().withSpan(callback)) {
            assertThat(tracing.currentTraceId()).isNotEqualTo(TRACE_ID);
            node.queue().schedule(Step.first(StepKind.HANDLE, "op-5"), Duration.ZERO);
        } finally {
            callback.end();
        }
        await().atMost(WAIT).until(() -> seen.size() == 2);

        assertThat(seen).extracting(Seen::traceId).containsOnly(TRACE_ID);
    }

    /** Issue 33: the first step of a new request keeps its trace with one insert; a later step joins that trace. */
    @Test
    void aFirstStepKeepsTheSubmissionsTraceByInsertAndAStepScheduledForTheRefLaterJoinsIt() {
        var node = node("a", Map.of(
                StepKind.SUBMIT_APPROVAL, seeing(step -> StepOutcome.done()),
                StepKind.HANDLE, seeing(step -> StepOutcome.done()),
                StepKind.CHECK_APPROVAL, seeing(step -> StepOutcome.done())));
        node.start();
        inTheSubmissionsTrace(() -> node.queue().scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-8")));
        await().atMost(WAIT).until(() -> seen.size() == 1);

        var callback = tracing.tracer().nextSpan().name("callback").start();
        try (var inScope = tracing.tracer().withSpan(callback)) {
            node.queue().schedule(Step.first(StepKind.HANDLE, "op-8"), Duration.ZERO);
            // a first step for a ref whose trace is kept already: the insert finds it and the kept trace wins
            node.queue().scheduleFirst(Step.first(StepKind.CHECK_APPROVAL, "op-8"));
        } finally {
            callback.end();
        }
        await().atMost(WAIT).until(() -> seen.size() == 3);

        assertThat(seen).extracting(Seen::traceId).containsOnly(TRACE_ID);
    }

    @Test
    void aReschedulingKeepsTheStoredTraceWhenTheCallerHasNone() {
        var node = node("a", Map.of());
        inTheSubmissionsTrace(() -> node.queue().schedule(Step.first(StepKind.HANDLE, "op-3"), Duration.ofHours(1)));

        node.queue().schedule(new Step(StepKind.HANDLE, "op-3", 2, Map.of("phase", "merge")), Duration.ofHours(2));

        @SuppressWarnings("unchecked")
        var data = (Map<String, String>) schema.row(StepKind.HANDLE, "op-3").orElseThrow().getData();
        assertThat(data).containsEntry("data.phase", "merge");
        assertThat(data.get("trace.traceparent")).startsWith("00-" + TRACE_ID + "-");
    }

    @Test
    void aBatchStepNamesItsBatchInTheLoggingContext() {
        var node = node("a", Map.of(StepKind.BATCH, seeing(step -> StepOutcome.done())));
        inTheSubmissionsTrace(() -> node.queue().schedule(Step.first(StepKind.BATCH, "batch-7"), Duration.ZERO));
        node.start();
        await().atMost(WAIT).until(() -> seen.size() == 1);

        assertThat(seen.peek().batchId()).isEqualTo("batch-7");
        assertThat(seen.peek().operationId()).isNull();
    }

    @Test
    void aRowWithoutATraceStartsATraceOfItsOwn() {
        var node = node("a", Map.of(StepKind.CLOSE, seeing(step -> StepOutcome.done())));
        node.queue().schedule(Step.first(StepKind.CLOSE, "op-4"), Duration.ZERO);
        node.start();
        await().atMost(WAIT).until(() -> seen.size() == 1);

        assertThat(seen.peek().traceId()).isNotBlank().isNotEqualTo(TRACE_ID);
        assertThat(span("step CLOSE").getParentSpanId()).isEqualTo("0000000000000000");
    }

    /** Runs {@code scheduling} in a span of the caller's trace (as the web layer continues it). */
    /** Old traces go by the recurring job {@code purge-step-traces}, in bounded chunks, never on the write path. */
    @Test
    void tracesPastTheirRetentionAreDeletedByThePurgeInChunksAndSchedulingDeletesNone() throws Exception {
        var node = node("a", Map.of(StepKind.CREATE, seeing(step -> StepOutcome.done())));
        try (var connection = schema.db().dataSource().getConnection(); var sql = connection.createStatement()) {
            sql.executeUpdate("delete from " + RequestTraces.TABLE);
            for (int i = 0; i < 3; i++) {
                sql.executeUpdate("insert into " + RequestTraces.TABLE + " (ref, fields, created_at) values ('old-" + i
                        + "', 'traceparent=x', now(3) - interval 31 day)");
            }
        }
        inTheSubmissionsTrace(() -> node.queue().schedule(Step.first(StepKind.CREATE, "op-kept"), Duration.ofHours(1)));
        assertThat(traceRefs()).as("scheduling keeps its trace and deletes none").containsExactlyInAnyOrder(
                "old-0", "old-1", "old-2", "op-kept");

        var queue = node.queue();
        assertThat(queue.forgetOldTraces(2)).isEqualTo(2);
        assertThat(queue.forgetOldTraces(2)).isEqualTo(1);
        assertThat(queue.forgetOldTraces(2)).isZero();
        assertThat(traceRefs()).containsExactly("op-kept");
    }

    private static List<String> traceRefs() throws Exception {
        try (var connection = schema.db().dataSource().getConnection(); var sql = connection.createStatement();
             var rows = sql.executeQuery("select ref from " + RequestTraces.TABLE + " order by ref")) {
            var refs = new ArrayList<String>();
            while (rows.next()) {
                refs.add(rows.getString(1));
            }
            return refs;
        }
    }

    private static void inTheSubmissionsTrace(Supplier<Boolean> scheduling) {
        try (var caller = tracing.inCallersTrace()) {
            assertThat(scheduling.get()).isTrue();
        }
        tracing.reset();
    }

    private StepBody seeing(StepBody handler) {
        return step -> {
            seen.add(new Seen(step, tracing.currentTraceId(), MDC.get(StepTraces.OPERATION_ID),
                    MDC.get(StepTraces.BATCH_ID)));
            return handler.run(step);
        };
    }

    private static SpanData span(String name) {
        return await().atMost(WAIT).until(() -> tracing.finishedSpans().stream()
                .filter(s -> s.getName().equals(name)).findFirst(), java.util.Optional::isPresent).orElseThrow();
    }

    private Node node(String name, Map<StepKind, StepBody> handlers) {
        return Node.traced(schema, name, Steps.runner(handlers), traces);
    }
}
