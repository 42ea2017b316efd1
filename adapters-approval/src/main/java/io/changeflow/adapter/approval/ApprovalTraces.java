package io.changeflow.adapter.approval;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.springframework.http.client.ClientHttpRequestInterceptor;

/**
 * Every call to the approval system carries the caller's trace context (W3C {@code traceparent}): the calls'
 * threads take it over from the thread that makes the call ({@link #carrying}), and a request that Boot's client
 * instrumentation did not already give a {@code traceparent} (of its own client span) gets the caller's
 * ({@link #interceptor}). Without a tracer ({@link #NONE}) nothing is added.
 */
final class ApprovalTraces {

    static final ApprovalTraces NONE = new ApprovalTraces(Tracer.NOOP, Propagator.NOOP);

    private final Tracer tracer;
    private final Propagator propagator;

    ApprovalTraces(Tracer tracer, Propagator propagator) {
        this.tracer = Objects.requireNonNull(tracer, "tracer");
        this.propagator = Objects.requireNonNull(propagator, "propagator");
    }

    /** {@code task}, to run on another thread in the trace context current on this one. */
    <T> Callable<T> carrying(Callable<T> task) {
        return tracer.currentTraceContext().wrap(task);
    }

    ClientHttpRequestInterceptor interceptor() {
        return (request, body, execution) -> {
            var context = tracer.currentTraceContext().context();
            if (context != null && !request.getHeaders().containsHeader("traceparent")) {
                var headers = new HashMap<String, String>();
                propagator.inject(context, headers, Map::put);
                headers.forEach(request.getHeaders()::set);
            }
            return execution.execute(request, body);
        };
    }
}
