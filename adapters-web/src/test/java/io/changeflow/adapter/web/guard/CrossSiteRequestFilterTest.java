package io.changeflow.adapter.web.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import tools.jackson.databind.json.JsonMapper;

/** The cross-site rule on its own: origins, the configured list, fetch metadata. */
class CrossSiteRequestFilterTest {

    private static CrossSiteRequestFilter filter(String... allowed) {
        return new CrossSiteRequestFilter(List.of(allowed), new JsonResponses(JsonMapper.builder().build()),
                new SafeMeters(new SimpleMeterRegistry()));
    }

    private static MockHttpServletRequest post(String host, String origin) {
        var request = new MockHttpServletRequest("POST", "/ops/batch-rounds");
        request.addHeader("Host", host);
        request.addHeader("Origin", origin);
        request.setContentType("application/json");
        return request;
    }

    @Test
    void anOriginMatchesTheHostAsTheBrowserSentItWithDefaultPortsMadeExplicit() {
        var filter = filter();
        assertThat(filter.refusal(post("changeflow.corp.example", "https://changeflow.corp.example"))).isEmpty();
        assertThat(filter.refusal(post("changeflow.corp.example:443", "https://Changeflow.Corp.Example"))).isEmpty();
        assertThat(filter.refusal(post("[::1]:8080", "http://[::1]:8080"))).isEmpty();
        assertThat(filter.refusal(post("changeflow.corp.example", "https://changeflow.corp.example:8443"))).contains("origin");
        assertThat(filter.refusal(post("changeflow.corp.example", "https://evil.example"))).contains("origin");
        assertThat(filter.refusal(post("changeflow.corp.example", "https://changeflow.corp.example/path"))).contains("origin");
        assertThat(filter.refusal(post("bad host", "https://changeflow.corp.example"))).contains("origin");
    }

    @Test
    void configuredOriginsAreAcceptedAndGarbledEntriesAllowNothing() {
        var filter = filter("https://portal.corp.example", "not an origin", "*", "", "https://");
        assertThat(filter.refusal(post("internal:8080", "https://portal.corp.example"))).isEmpty();
        assertThat(filter.refusal(post("internal:8080", "https://evil.example"))).contains("origin");
        assertThat(filter.refusal(post("internal:8080", "null"))).contains("origin");
    }

    @Test
    void fetchMetadataOfAnotherSiteIsRefusedAndUserInitiatedRequestsPass() {
        var filter = filter();
        var request = new MockHttpServletRequest("POST", "/ops/batch-rounds");
        request.addHeader(CrossSiteRequestFilter.HEADER, "XMLHttpRequest");
        request.addHeader("Sec-Fetch-Site", "none");
        assertThat(filter.refusal(request)).isEmpty();
        var crossSite = new MockHttpServletRequest("POST", "/ops/batch-rounds");
        crossSite.addHeader(CrossSiteRequestFilter.HEADER, "XMLHttpRequest");
        crossSite.addHeader("Sec-Fetch-Site", "Cross-Site");
        assertThat(filter.refusal(crossSite)).contains("fetch_site");
    }

    @Test
    void onlyJsonMediaTypesCountAsJson() {
        var filter = filter();
        for (var type : List.of("application/json", "application/merge-patch+json", "APPLICATION/JSON; charset=utf-8")) {
            var request = new MockHttpServletRequest("POST", "/x");
            request.setContentType(type);
            assertThat(filter.refusal(request)).as(type).isEmpty();
        }
        for (var type : List.of("text/plain", "application/x-www-form-urlencoded", "text/json", "application/jsonp")) {
            var request = new MockHttpServletRequest("POST", "/x");
            request.setContentType(type);
            assertThat(filter.refusal(request)).as(type).contains("no_script_marker");
        }
    }
}
