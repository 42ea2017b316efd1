package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.StepHandler;
import io.changeflow.application.workflow.StepOutcome;
import io.changeflow.testsupport.TestDatabase;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
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
    static final TestDatabase db = TestDatabase.freshSchema();

    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String PARENT_SPAN_ID = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + PARENT_SPAN_ID + "-01";
    private static final Duration WAIT = Duration.ofSeconds(15);

    private static Schema schema;
    private static InMemorySpanExporter spans;
    private static SdkTracerProvider provider;
    private static Tracer tracer;
    private static StepTraces traces;

    private final List<Node> nodes = new ArrayList<>();
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();

    /** What a step saw while running: its step, the current trace and span and the logging context's ids. */
    record Seen(Step step, String traceId, String spanId, String operationId, String batchId) {}

    @BeforeAll
    static void setUp() {
        schema = Schema.migrate(db);
        spans = InMemorySpanExporter.create();
        provider = SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(spans))
                .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
                .build();
        var otel = OpenTelemetrySdk.builder()
                .setTracerProvider(provider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        var otelTracer = otel.getTracer("test");
        tracer = new OtelTracer(otelTracer, new OtelCurrentTraceContext(), event -> { });
        traces = new StepTraces(tracer, new OtelPropagator(otel.getPropagators(), otelTracer));
    }

    @AfterAll
    static void tearDown() {
        provider.close();
    }

    @BeforeEach
    void emptyTable() {
        schema.clear();
        spans.reset();
    }

    @AfterEach
    void stopNodes() {
        nodes.forEach(Node::close);
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
        assertThat(create.getParentSpanId()).isNotEqualTo(PARENT_SPAN_ID); // the scheduling span, child of the caller's
        assertThat(handle.getParentSpanId()).as("the follower continues from the step that scheduled it")
                .isEqualTo(create.getSpanId());
        assertThat(MDC.get(StepTraces.OPERATION_ID)).isNull();
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

    /** Runs {@code scheduling} in a span of the trace {@link #TRACEPARENT} (as the web layer continues it). */
    private static void inTheSubmissionsTrace(Supplier<Boolean> scheduling) {
        var parent = traces.start(Step.first(StepKind.CREATE, "caller"),
                Map.of(StepTraces.PREFIX + "traceparent", TRACEPARENT));
        try (parent) {
            assertThat(scheduling.get()).isTrue();
        }
        spans.reset();
    }

    private StepHandler seeing(StepHandler handler) {
        return step -> {
            var current = tracer.currentSpan();
            seen.add(new Seen(step, current == null ? null : current.context().traceId(),
                    current == null ? null : current.context().spanId(), MDC.get(StepTraces.OPERATION_ID),
                    MDC.get(StepTraces.BATCH_ID)));
            return handler.run(step);
        };
    }

    private static SpanData span(String name) {
        return await().atMost(WAIT).until(() -> spans.getFinishedSpanItems().stream()
                .filter(s -> s.getName().equals(name)).findFirst(), java.util.Optional::isPresent).orElseThrow();
    }

    private Node node(String name, Map<StepKind, StepHandler> handlers) {
        var node = Node.traced(db, name, Steps.runner(handlers), traces);
        nodes.add(node);
        return node;
    }
}
