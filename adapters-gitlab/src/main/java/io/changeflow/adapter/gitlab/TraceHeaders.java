package io.changeflow.adapter.gitlab;

import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import jakarta.ws.rs.client.ClientRequestFilter;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.gitlab4j.api.GitLabApi;
import org.gitlab4j.api.GitLabApiClient;
import org.glassfish.jersey.client.ClientConfig;
import org.slf4j.LoggerFactory;

/**
 * Every call to GitLab carries the caller's trace context (W3C {@code traceparent}, {@code tracestate}): the
 * calls' threads take it over from the thread that makes the call ({@link #carrying}), and both HTTP clients
 * send it (gitlab4j through a request filter, {@link GitLabHttp} as headers). Without a tracer
 * ({@link #NONE}) nothing is added.
 */
final class TraceHeaders {

    static final TraceHeaders NONE = new TraceHeaders(Tracer.NOOP, Propagator.NOOP);

    private final Tracer tracer;
    private final Propagator propagator;

    TraceHeaders(Tracer tracer, Propagator propagator) {
        this.tracer = Objects.requireNonNull(tracer, "tracer");
        this.propagator = Objects.requireNonNull(propagator, "propagator");
    }

    /** The propagation headers of the trace context current on this thread; empty without one. */
    Map<String, String> current() {
        var context = tracer.currentTraceContext().context();
        var headers = new HashMap<String, String>();
        if (context != null) {
            propagator.inject(context, headers, Map::put);
        }
        return headers;
    }

    /** {@code task}, to run on another thread in the trace context current on this one. */
    <T> Callable<T> carrying(Callable<T> task) {
        return tracer.currentTraceContext().wrap(task);
    }

    /**
     * Lets every request of {@code api} carry the headers. gitlab4j offers no way to add a filter to its Jersey
     * client, so it goes into the client's configuration (read when the client is built, on its first call). If a
     * gitlab4j release moves that, the calls go without the headers (logged once per client), never fail for it.
     */
    GitLabApi sendingFrom(GitLabApi api) {
        ClientRequestFilter filter = request -> current().forEach(request.getHeaders()::putSingle);
        if (!register(api, filter)) {
            LoggerFactory.getLogger(TraceHeaders.class).warn("GitLab calls through gitlab4j go without the trace "
                    + "context: its client configuration cannot be reached");
        }
        return api;
    }

    /** Registers a Jersey filter on {@code api}'s client configuration; false when gitlab4j hides it. */
    static boolean register(GitLabApi api, Object filter) {
        try {
            var getApiClient = GitLabApi.class.getDeclaredMethod("getApiClient");
            getApiClient.setAccessible(true);
            var config = GitLabApiClient.class.getDeclaredField("clientConfig");
            config.setAccessible(true);
            ((ClientConfig) config.get(getApiClient.invoke(api))).register(filter);
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
