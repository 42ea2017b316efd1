package io.changeflow.testsupport;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.List;
import java.util.Map;

/**
 * A real tracer as the app has it (the OpenTelemetry SDK through Micrometer Tracing's bridge, W3C propagation,
 * parent-based sampling), keeping its finished spans in memory. {@link #TRACEPARENT} is a caller's trace to
 * continue: {@link #inCallersTrace()} opens a span of it, as the web layer does for an incoming {@code traceparent}.
 */
public final class TestTracing implements AutoCloseable {

    public static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    public static final String CALLER_SPAN_ID = "00f067aa0ba902b7";
    public static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CALLER_SPAN_ID + "-01";

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(spans))
            .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
            .build();
    private final Tracer tracer;
    private final Propagator propagator;

    public TestTracing() {
        var otel = OpenTelemetrySdk.builder()
                .setTracerProvider(provider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
        var otelTracer = otel.getTracer("changeflow-test");
        this.tracer = new OtelTracer(otelTracer, new OtelCurrentTraceContext(), event -> { });
        this.propagator = new OtelPropagator(otel.getPropagators(), otelTracer);
    }

    public Tracer tracer() {
        return tracer;
    }

    public Propagator propagator() {
        return propagator;
    }

    /** A span of the trace {@link #TRACEPARENT}, in scope until the returned handle is closed. */
    public InScope inCallersTrace() {
        var span = propagator.extract(Map.of("traceparent", TRACEPARENT), Map::get).name("caller").start();
        return new InScope(span, tracer.withSpan(span));
    }

    /** The trace id of the span current on this thread, or null. */
    public String currentTraceId() {
        var span = tracer.currentSpan();
        return span == null ? null : span.context().traceId();
    }

    public List<SpanData> finishedSpans() {
        return spans.getFinishedSpanItems();
    }

    public void reset() {
        spans.reset();
    }

    @Override
    public void close() {
        provider.close();
    }

    /** A span in scope; closing ends both. */
    public record InScope(Span span, Tracer.SpanInScope scope) implements AutoCloseable {

        @Override
        public void close() {
            scope.close();
            span.end();
        }
    }
}
