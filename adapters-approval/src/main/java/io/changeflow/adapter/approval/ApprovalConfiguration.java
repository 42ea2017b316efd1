package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.CallMetrics;
import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Clock;
import java.util.EnumMap;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.client.RestClient;

/**
 * The approval system adapter: {@link io.changeflow.application.port.out.Approvals} over HTTP,
 * {@link io.changeflow.application.port.out.CallbackAuthenticity} for the approval and deploy
 * callbacks, and the health indicators "approval" and "callbacks".
 * <p>
 * Properties: {@code changeflow.approval.base-url} (read on every call, so placeholders such as
 * {@code ${local.server.port}} resolve once the server runs), {@code changeflow.approval.*}
 * timeouts and circuit breaker (see {@link ApprovalProperties}), and
 * {@code changeflow.callbacks.approval.secrets} / {@code changeflow.callbacks.deploy.secrets}
 * (lists of {@code whsec_<base64>}; several during a rotation; none: callbacks refused, health DOWN).
 */
@Configuration(proxyBeanMethods = false)
public class ApprovalConfiguration {

    static final String BASE_URL = "changeflow.approval.base-url";

    /**
     * With a Micrometer {@link Tracer} and {@link Propagator} (Boot's tracing), every call carries the caller's
     * trace context ({@code traceparent}); without, none.
     */
    @Bean
    HttpApprovals httpApprovals(Environment environment, ObjectProvider<RestClient.Builder> restClients,
                                ObjectProvider<CallMetrics> metrics, ObjectProvider<MeterRegistry> meters,
                                ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        var properties = Binder.get(environment).bindOrCreate("changeflow.approval", ApprovalProperties.class);
        var traces = new ApprovalTraces(tracer.getIfAvailable(() -> Tracer.NOOP),
                propagator.getIfAvailable(() -> Propagator.NOOP));
        return HttpApprovals.create(properties, () -> environment.getProperty(BASE_URL),
                restClients.getIfAvailable(RestClient::builder), metrics.getIfAvailable(() -> CallMetrics.NONE),
                meters.getIfAvailable(), traces);
    }

    @Bean
    StandardWebhooksVerifier standardWebhooksVerifier(Environment environment, ObjectProvider<Clock> clock) {
        var binder = Binder.get(environment);
        var secrets = new EnumMap<Source, List<String>>(Source.class);
        secrets.put(Source.APPROVAL, binder.bind("changeflow.callbacks.approval.secrets", Bindable.listOf(String.class))
                .orElse(List.of()));
        secrets.put(Source.DEPLOY, binder.bind("changeflow.callbacks.deploy.secrets", Bindable.listOf(String.class))
                .orElse(List.of()));
        return new StandardWebhooksVerifier(secrets, clock.getIfAvailable(Clock::systemUTC));
    }

    /** The breaker's state and recent error rate, for the operations overview. */
    @Bean
    ExternalSystemHealth approvalSystemHealth(HttpApprovals httpApprovals) {
        return new ApprovalSystemHealth(httpApprovals);
    }

    @Bean
    HealthIndicator approvalHealthIndicator(HttpApprovals httpApprovals) {
        return new ApprovalHealthIndicator(httpApprovals);
    }

    @Bean
    HealthIndicator callbacksHealthIndicator(StandardWebhooksVerifier standardWebhooksVerifier) {
        return new CallbacksHealthIndicator(standardWebhooksVerifier);
    }
}
