package io.changeflow.adapter.web;

import io.changeflow.adapter.local.LocalConfiguration;
import io.changeflow.application.fake.SettableClock;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.Permissions;
import java.time.Instant;
import org.springframework.boot.SpringBootConfiguration;
import jakarta.servlet.Filter;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * The application around the web adapter for its tests: the adapter's configuration, the
 * application's use cases on in-memory fakes ({@link InMemoryUseCases}), fakes of the ports the web
 * layer calls itself, a real Standard Webhooks verifier ({@link TestWebhooks}) and test-only
 * endpoints. No component scanning: everything is listed.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({WebConfiguration.class, LocalConfiguration.class, InMemoryUseCases.class, TestEndpoints.class, ResponseRecording.class, AppHeaderMockMvc.class})
class WebTestApplication {

    static final Instant START = Instant.parse("2026-03-02T10:00:00Z");

    @Bean
    SettableClock clock() {
        return new SettableClock(START);
    }

    /** The fakes behind the identity ports; the port beans themselves get a deadline (they are wrapped). */
    record IdentityFakes(FakePermissions permissions, FakeDirectory directory) {}

    @Bean
    IdentityFakes identityFakes() {
        var directory = new FakeDirectory();
        directory.reset();
        return new IdentityFakes(new FakePermissions(), directory);
    }

    @Bean
    Permissions fakePermissions(IdentityFakes fakes) {
        return fakes.permissions();
    }

    @Bean
    Directory fakeDirectory(IdentityFakes fakes) {
        return fakes.directory();
    }

    @Bean
    FakeAuditLog fakeAuditLog() {
        return new FakeAuditLog();
    }

    @Bean
    TestWebhooks testWebhooks(SettableClock clock) {
        return new TestWebhooks(clock);
    }

    @Bean
    FakeClusterRateLimits fakeClusterRateLimits(SettableClock clock) {
        return new FakeClusterRateLimits(clock);
    }

    /** A filter that fails outside Spring MVC, so the container's error dispatch has to answer. */
    @Bean
    FilterRegistrationBean<Filter> failingFilter() {
        var registration = new FilterRegistrationBean<Filter>((request, response, chain) -> {
            throw new IllegalStateException("UPDATE grants SET owner = 'x' failed: java.sql.SQLSyntaxErrorException");
        });
        registration.addUrlPatterns("/test/filter-boom");
        return registration;
    }

    @Bean
    FaultyMeterRegistry faultyMeterRegistry() {
        return new FaultyMeterRegistry();
    }
}
