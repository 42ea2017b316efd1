package io.changeflow.adapter.web.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BusinessActivityAllowlistTest {

    @Test
    void onlyExactMethodAndPathEntriesAreAcceptedWildcardsAreRefused() {
        var allowlist = BusinessActivityInterceptor.parseAllowlist(List.of(
                "POST /api/requests", "get /api/requests/{operationId}", "GET /api/*", "GET /api/**", "/api/requests",
                "FETCH /api/x", "GET api/relative", ""));
        assertThat(allowlist).containsExactlyInAnyOrder(
                new BusinessActivityInterceptor.Activity("POST", "/api/requests"),
                new BusinessActivityInterceptor.Activity("GET", "/api/requests/{operationId}"));
    }

    @Test
    void anEmptyAllowlistRegistersForNoPath() {
        var interceptor = new BusinessActivityInterceptor(BusinessActivityInterceptor.parseAllowlist(List.of("GET /**")), null, null);
        assertThat(interceptor.pathTemplates()).isEmpty();
    }
}
