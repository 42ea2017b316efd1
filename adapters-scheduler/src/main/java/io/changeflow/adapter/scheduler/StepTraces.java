package io.changeflow.adapter.scheduler;

import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.MDC;

/**
 * The trace context a step row carries, so every step of a request joins the trace of the request that
 * scheduled it, on any instance and after a crash. A row stores the propagation fields (W3C
 * {@code traceparent}, {@code tracestate} when there is one) of the span that scheduled it under
 * {@value #PREFIX}{@code <field>}; a run continues that trace in a span of its own ({@code step KIND}), with
 * {@code operationId} (or {@code batchId} for batch steps) in the logging context beside the tracer's
 * {@code traceId} and {@code spanId}. A step scheduled from outside a step joins the trace kept for its request
 * ({@link RequestTraces}), so callbacks' and sweeps' steps join the submission's trace too. A row without trace fields (written before tracing, or by a recurring job)
 * starts a trace of its own. Without a tracer ({@link #NONE}) nothing is stored and a run only sets the ids in
 * the logging context.
 */
final class StepTraces {

    /** The row data prefix of the trace fields. */
    static final String PREFIX = "trace.";
    static final String OPERATION_ID = "operationId";
    static final String BATCH_ID = "batchId";

    static final StepTraces NONE = new StepTraces(Tracer.NOOP, Propagator.NOOP);

    private final Tracer tracer;
    private final Propagator propagator;

    StepTraces(Tracer tracer, Propagator propagator) {
        this.tracer = Objects.requireNonNull(tracer, "tracer");
        this.propagator = Objects.requireNonNull(propagator, "propagator");
    }

    /** Whether there is a tracer: without one nothing is stored. */
    boolean enabled() {
        return tracer != Tracer.NOOP;
    }

    /** The row fields of the trace context current on this thread; empty without one. */
    Map<String, String> current() {
        var context = tracer.currentTraceContext().context();
        return context == null ? Map.of() : fields(context);
    }

    /** The trace fields stored in {@code data} (a row's data), with their prefix. */
    static Map<String, String> storedIn(Map<String, String> data) {
        var fields = new HashMap<String, String>();
        if (data != null) {
            data.forEach((key, value) -> {
                if (key != null && value != null && key.startsWith(PREFIX)) {
                    fields.put(key, value);
                }
            });
        }
        return fields;
    }

    /**
     * Starts the span of one run of {@code step}, continuing the trace in {@code stored} (row fields), puts it
     * in scope and the step's id into the logging context; closing the run ends both.
     */
    Run start(Step step, Map<String, String> stored) {
        var span = propagator.extract(stored, (carrier, field) -> carrier.get(PREFIX + field))
                .name("step " + step.kind().name())
                .kind(Span.Kind.CONSUMER)
                .tag("changeflow.step.attempt", Integer.toString(step.attempt()))
                .start();
        var idKey = mdcKey(step.kind());
        var previous = MDC.get(idKey);
        MDC.put(idKey, step.ref());
        return new Run(span, tracer.withSpan(span), idKey, previous);
    }

    private static String mdcKey(StepKind kind) {
        return kind == StepKind.BATCH || kind == StepKind.SETTLE_BATCH ? BATCH_ID : OPERATION_ID;
    }

    private Map<String, String> fields(TraceContext context) {
        var fields = new HashMap<String, String>();
        propagator.inject(context, fields, (carrier, field, value) -> carrier.put(PREFIX + field, value));
        return fields;
    }

    /** One run of a step in its span. */
    final class Run implements AutoCloseable {

        private final Span span;
        private final Tracer.SpanInScope scope;
        private final String idKey;
        private final String previousId;

        private Run(Span span, Tracer.SpanInScope scope, String idKey, String previousId) {
            this.span = span;
            this.scope = scope;
            this.idKey = idKey;
            this.previousId = previousId;
        }

        /** The row fields for what this run schedules next: the trace continues from this run's span. */
        Map<String, String> fields() {
            return StepTraces.this.fields(span.context());
        }

        void failed(Throwable error) {
            span.error(error);
        }

        @Override
        public void close() {
            scope.close();
            span.end();
            if (previousId == null) {
                MDC.remove(idKey);
            } else {
                MDC.put(idKey, previousId);
            }
        }
    }
}
