package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.Approvals.Ticket;
import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.CallOutcome;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.changeflow.domain.request.OperationId;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;
import org.springframework.web.client.RestClientResponseException;

/**
 * The approval system over HTTP: {@code POST {base}/api/approvals}, {@code GET
 * {base}/api/approvals/{operationId}} and {@code POST {base}/api/approvals/{operationId}/withdraw}
 * (docs/external-systems-approval.md). Every call has a connect and a read
 * timeout, runs under a TimeLimiter bounding the whole call, and through the circuit breaker
 * "approval". Failures are {@link ExternalCallException}s: the real HTTP status, TIMEOUT,
 * CIRCUIT_OPEN or IO. Upstream error bodies are never copied into exceptions.
 */
final class HttpApprovals implements Approvals, AutoCloseable {

    static final String SYSTEM = "approval";
    private static final Logger log = LoggerFactory.getLogger(HttpApprovals.class);
    private static final ParameterizedTypeReference<Map<String, Object>> JSON_OBJECT = new ParameterizedTypeReference<>() {};

    private final ApprovalProperties properties;
    private final Supplier<String> baseUrl;
    private final RestClient http;
    private final CircuitBreaker breaker;
    private final TimeLimiter timeLimiter;
    private final ExecutorService calls;
    private final CallMetrics metrics;
    private final ApprovalTraces traces;

    private HttpApprovals(ApprovalProperties properties, Supplier<String> baseUrl, RestClient http, CircuitBreaker breaker,
                          TimeLimiter timeLimiter, CallMetrics metrics, ApprovalTraces traces) {
        this.properties = properties;
        this.baseUrl = baseUrl;
        this.http = http;
        this.breaker = breaker;
        this.timeLimiter = timeLimiter;
        this.metrics = metrics;
        this.traces = traces;
        // platform threads, never virtual: see the GitLab adapter's GitLabCalls (class loading from the
        // executable jar deadlocked virtual threads with every carrier pinned on a 2-CPU host)
        this.calls = Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("approval-call-", 0).factory());
    }

    /**
     * @param baseUrl read before every call, e.g. {@code https://approvals.corp.example} or the
     *                sandbox's {@code http://localhost:8080/sim/approval}; blank: every call fails (IO)
     */
    static HttpApprovals create(ApprovalProperties properties, Supplier<String> baseUrl, RestClient.Builder builder) {
        return create(properties, baseUrl, builder, CallMetrics.NONE, null);
    }

    /**
     * @param metrics where every call is reported by operation and outcome
     * @param meters  where the breaker's state is published (resilience4j's binding); null: nowhere
     */
    static HttpApprovals create(ApprovalProperties properties, Supplier<String> baseUrl, RestClient.Builder builder,
                                CallMetrics metrics, MeterRegistry meters) {
        return create(properties, baseUrl, builder, metrics, meters, ApprovalTraces.NONE);
    }

    /** @param traces how every call carries the caller's trace context */
    static HttpApprovals create(ApprovalProperties properties, Supplier<String> baseUrl, RestClient.Builder builder,
                                CallMetrics metrics, MeterRegistry meters, ApprovalTraces traces) {
        var jdk = HttpClient.newBuilder().connectTimeout(properties.connectTimeout()).build();
        var requestFactory = new JdkClientHttpRequestFactory(jdk);
        requestFactory.setReadTimeout(properties.readTimeout());
        var b = properties.circuitBreaker();
        var breakers = CircuitBreakerRegistry.ofDefaults();
        var breaker = breakers.circuitBreaker(SYSTEM, CircuitBreakerConfig.custom()
                .failureRateThreshold(b.failureRateThreshold())
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(b.slidingWindowSize())
                .minimumNumberOfCalls(b.minimumNumberOfCalls())
                .waitDurationInOpenState(b.waitDurationInOpenState())
                .permittedNumberOfCallsInHalfOpenState(b.permittedCallsInHalfOpenState())
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .recordException(HttpApprovals::signalsTrouble)
                .build());
        var timeLimiter = TimeLimiter.of(SYSTEM, TimeLimiterConfig.custom()
                .timeoutDuration(properties.callTimeout())
                .cancelRunningFuture(true)
                .build());
        if (meters != null) {
            TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(meters);
        }
        var http = builder.requestFactory(requestFactory).requestInterceptor(traces.interceptor()).build();
        return new HttpApprovals(properties, baseUrl, http, breaker, timeLimiter, metrics, traces);
    }

    @Override
    public Ticket submit(ApprovalForm form) {
        var body = new LinkedHashMap<String, Object>();
        body.put("operationId", form.operationId().value());
        body.put("requester", form.requester());
        body.put("subject", form.subject());
        body.put("target", form.target());
        body.put("reason", form.reason());
        body.put("expiresAt", form.expiresAt().map(Object::toString).orElse(null));
        body.put("ext", form.ext() == null ? Map.of() : form.ext());
        var answer = call("submit", base -> http.post()
                .uri(base + "/api/approvals")
                .contentType(MediaType.APPLICATION_JSON)
                .accept(MediaType.APPLICATION_JSON)
                .body(body)
                .retrieve()
                .body(JSON_OBJECT));
        // without a ticket, applied or not, we cannot tell: a retry with the same operationId is safe (idempotent)
        return TicketAnswers.of("submit", answer);
    }

    @Override
    public Ticket read(OperationId operationId) {
        return ticketOf("read", HttpMethod.GET, "/api/approvals/{operationId}", operationId);
    }

    @Override
    public Ticket withdraw(OperationId operationId) {
        // 404: the approval system never saw this operation: nothing is pending, nothing to withdraw
        return ticketOf("withdraw", HttpMethod.POST, "/api/approvals/{operationId}/withdraw", operationId);
    }

    /** The ticket a bodyless call to {@code path} answers; {@link Ticket#unknown()} when the system answers 404. */
    private Ticket ticketOf(String name, HttpMethod method, String path, OperationId operationId) {
        try {
            return TicketAnswers.of(name, call(name, base -> http.method(method)
                    .uri(base + path, operationId.value())
                    .accept(MediaType.APPLICATION_JSON)
                    .retrieve()
                    .body(JSON_OBJECT)));
        } catch (ExternalCallException e) {
            if (e.kind() == Kind.HTTP_STATUS && e.status() == HttpStatus.NOT_FOUND.value()) {
                return Ticket.unknown();
            }
            throw e;
        }
    }

    ApprovalProperties properties() {
        return properties;
    }

    CircuitBreaker circuitBreaker() {
        return breaker;
    }

    boolean baseUrlConfigured() {
        var base = baseUrl.get();
        return base != null && !base.isBlank();
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }

    private interface HttpCall<T> {
        T run(String base);
    }

    private <T> T call(String what, HttpCall<T> call) {
        var start = System.nanoTime();
        try {
            var result = callOnce(what, call);
            metrics.called(SYSTEM, what, CallOutcome.SUCCESS, Duration.ofNanos(System.nanoTime() - start));
            return result;
        } catch (ExternalCallException e) {
            metrics.called(SYSTEM, what, CallOutcome.of(e), Duration.ofNanos(System.nanoTime() - start));
            throw e;
        }
    }

    private <T> T callOnce(String what, HttpCall<T> call) {
        var configured = baseUrl.get();
        if (configured == null || configured.isBlank()) {
            throw new ExternalCallException(SYSTEM, Kind.IO, 0, what + ": changeflow.approval.base-url is not configured", null);
        }
        var base = configured.strip().endsWith("/") ? configured.strip().substring(0, configured.strip().length() - 1)
                : configured.strip();
        try {
            return breaker.executeCallable(() -> limited(what, () -> translated(what, () -> call.run(base))));
        } catch (CallNotPermittedException e) {
            throw new ExternalCallException(SYSTEM, Kind.CIRCUIT_OPEN, 0, what + ": circuit breaker open, call not made", null);
        } catch (ExternalCallException e) {
            if (e.isTransient()) {
                log.warn("approval {} failed: {} {}", what, e.kind(), e.status() > 0 ? e.status() : "");
            } else {
                log.info("approval {} refused: {} {}", what, e.kind(), e.status());
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExternalCallException(SYSTEM, Kind.IO, 0, what + ": interrupted while waiting for the answer", e);
        } catch (Exception e) {
            throw new ExternalCallException(SYSTEM, Kind.IO, 0, what + ": " + e.getClass().getSimpleName(), e);
        }
    }

    private <T> T limited(String what, Callable<T> call) throws Exception {
        try {
            return timeLimiter.executeFutureSupplier(() -> calls.submit(traces.carrying(call)));
        } catch (TimeoutException e) {
            throw new ExternalCallException(SYSTEM, Kind.TIMEOUT, 0, what + ": no answer within " + timeLimiter
                    .getTimeLimiterConfig().getTimeoutDuration(), null);
        }
    }

    private static <T> T translated(String what, Callable<T> call) throws Exception {
        try {
            return call.call();
        } catch (RestClientResponseException e) {
            throw ExternalCallException.status(SYSTEM, e.getStatusCode().value(), what + " answered " + e.getStatusCode().value());
        } catch (ResourceAccessException e) {
            var cause = e.getCause();
            if (cause instanceof HttpConnectTimeoutException || cause instanceof ConnectException) {
                throw new ExternalCallException(SYSTEM, Kind.IO, 0, what + ": could not connect", cause);
            }
            if (cause instanceof HttpTimeoutException) {
                throw new ExternalCallException(SYSTEM, Kind.TIMEOUT, 0, what + ": no answer within the read timeout", cause);
            }
            throw new ExternalCallException(SYSTEM, Kind.IO, 0, what + ": connection failed", cause);
        } catch (RestClientException e) {
            // e.g. an answer that is not JSON: the call reached the system, its effect is unknown
            throw new ExternalCallException(SYSTEM, Kind.IO, 0, what + ": unreadable answer", e);
        }
    }

    /** Failures that say the approval system is unwell, and so count for the breaker. */
    private static boolean signalsTrouble(Throwable failure) {
        return !(failure instanceof ExternalCallException e) || e.isTransient();
    }
}
