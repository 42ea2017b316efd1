package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.adapter.web.metrics.BusinessActivityInterceptor;
import io.changeflow.adapter.web.metrics.MeterNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

class MetricsWebTest extends WebTestSupport {

    /** Boot's request timer, the one request-timing metric (issue 16 removed a custom duplicate of it). */
    static final String REQUESTS = "http.server.requests";

    private long timed(String uri, String method, String status) {
        return registry.timed(REQUESTS, "uri", uri, "method", method, "status", status);
    }

    @Test
    void everyKindOfEndpointIsTimedUnderItsUriTemplate() throws Exception {
        mvc.perform(as(get("/test/requests/op-1"), "alice")).andExpect(status().isOk());
        mvc.perform(get("/legacy/stats")).andExpect(status().isOk());
        mvc.perform(get("/assets/app-3f9a1c2e.js")).andExpect(status().isOk());
        mvc.perform(get("/assets/gone.js")).andExpect(status().isNotFound());
        mvc.perform(get("/test/boom")).andExpect(status().isInternalServerError());

        assertThat(timed("/test/requests/{id}", "GET", "200")).isEqualTo(1);
        assertThat(registry.timed(REQUESTS, "uri", "/test/requests/{id}", "outcome", "SUCCESS")).isEqualTo(1);
        assertThat(timed("/legacy/stats", "GET", "200")).isEqualTo(1);
        assertThat(timed("/assets/**", "GET", "200")).isEqualTo(1);
        assertThat(timed("/assets/**", "GET", "404")).as("a missing asset").isEqualTo(1);
        assertThat(registry.timed(REQUESTS, "uri", "/test/boom", "status", "500", "outcome", "SERVER_ERROR")).isEqualTo(1);
        assertThat(registry.find("changeflow.api.requests").timers()).as("no second request timer").isEmpty();
    }

    @Test
    void requestsRejectedBeforeTheMetricsInterceptorAreStillTimedOnce() throws Exception {
        mvc.perform(get("/ops/test-read")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/test-read"), "alice")).andExpect(status().isForbidden());
        for (var i = 0; i < 4; i++) {
            mvc.perform(as(post("/test/submit").contentType(MediaType.APPLICATION_JSON).content("{}"), "alice"));
        }
        mvc.perform(post("/test/json").contentType(MediaType.APPLICATION_JSON).content("{\"a\":\"" + "x".repeat(3000) + "\"}"))
                .andExpect(status().isPayloadTooLarge());

        assertThat(timed("/ops/test-read", "GET", "401")).isEqualTo(1);
        assertThat(timed("/ops/test-read", "GET", "403")).isEqualTo(1);
        assertThat(timed("/test/submit", "POST", "202")).isEqualTo(3);
        assertThat(timed("/test/submit", "POST", "429")).isEqualTo(1);
        assertThat(timed("UNKNOWN", "POST", "413")).isEqualTo(1);
    }

    @Test
    void businessActivityIsCountedOnArrivalAndOn2xxOnlyForTheAllowlist() throws Exception {
        mvc.perform(as(get("/test/requests/op-7"), "alice")).andExpect(status().isOk());
        mvc.perform(as(post("/test/submit").contentType(MediaType.APPLICATION_JSON).content("{oops"), "alice"))
                .andExpect(status().isBadRequest());
        mvc.perform(as(get("/test/count").param("limit", "1"), "alice")).andExpect(status().isOk());
        mvc.perform(as(get("/legacy/stats"), "alice")).andExpect(status().isOk());

        assertThat(registry.count(BusinessActivityInterceptor.RECEIVED, "activity", "GET /test/requests/{id}")).isEqualTo(1);
        assertThat(registry.count(BusinessActivityInterceptor.SUCCEEDED, "activity", "GET /test/requests/{id}")).isEqualTo(1);
        assertThat(registry.count(BusinessActivityInterceptor.RECEIVED, "activity", "POST /test/submit")).isEqualTo(1);
        assertThat(registry.count(BusinessActivityInterceptor.SUCCEEDED, "activity", "POST /test/submit")).isZero();
        assertThat(registry.find(BusinessActivityInterceptor.RECEIVED).counters()).hasSize(2);
    }

    @Test
    void peopleShareOneSeriesPerActivityNoAccountIsATag() throws Exception {
        mvc.perform(as(get("/test/requests/op-7"), "Alice")).andExpect(status().isOk());
        mvc.perform(get("/test/requests/op-7").header(CallerIdentity.EMAIL_HEADER, "alice@corp.example")).andExpect(status().isOk());
        mvc.perform(as(get("/test/requests/op-7"), "E1001")).andExpect(status().isOk());
        mvc.perform(as(get("/test/requests/op-7"), "bob")).andExpect(status().isOk());
        assertThat(registry.find(BusinessActivityInterceptor.RECEIVED).counters()).singleElement()
                .satisfies(counter -> {
                    assertThat(counter.getId().getTags()).extracting(io.micrometer.core.instrument.Tag::getKey)
                            .containsExactly("activity");
                    assertThat(counter.count()).isEqualTo(4);
                });
    }

    @Test
    void noMeterCarriesAnAccountNameInAnyTag() throws Exception {
        permissions.grant("otto", "ops.operator");
        for (var person : java.util.List.of("alice", "bob", "otto", "mallory")) {
            mvc.perform(as(get("/test/requests/op-7"), person));
            mvc.perform(as(post("/test/submit").contentType(MediaType.APPLICATION_JSON).content("{}"), person));
            mvc.perform(as(get("/ops/test-read"), person));
        }
        mvc.perform(as(get("/test/requests/op-7"), "E1001"));
        var tagValues = registry.getMeters().stream().flatMap(m -> m.getId().getTags().stream())
                .map(io.micrometer.core.instrument.Tag::getValue).map(v -> v.toLowerCase(java.util.Locale.ROOT)).toList();
        assertThat(tagValues).isNotEmpty();
        for (var name : java.util.List.of("alice", "bob", "otto", "mallory", "e1001")) {
            assertThat(tagValues).as(name).noneMatch(v -> v.contains(name));
        }
    }

    @Test
    void untrustworthyOrMissingIdentitiesAreSkippedNotGuessed() throws Exception {
        mvc.perform(as(get("/test/requests/op-7"), "E9999")).andExpect(status().isOk());
        mvc.perform(get("/test/requests/op-7")).andExpect(status().isOk());
        directory.failure = new IllegalStateException("directory down");
        mvc.perform(as(get("/test/requests/op-7"), "E1001")).andExpect(status().isOk());
        assertThat(registry.find(BusinessActivityInterceptor.RECEIVED).counters()).isEmpty();
        assertThat(registry.find(BusinessActivityInterceptor.SUCCEEDED).counters()).isEmpty();
    }

    @Test
    void aMeterRegistryThrowingOnEveryCallChangesNoAnswerByteForByte() throws Exception {
        var healthy = runScenario();
        assertThat(registry.find(REQUESTS).timers()).isNotEmpty();
        assertThat(registry.find(MeterNames.RATE_LIMIT_REJECTED).counters()).isNotEmpty();

        registry.clear();
        registry.faulty = true;
        var faulty = runScenario();
        registry.faulty = false;

        assertThat(registry.find(REQUESTS).timers()).as("the fault was active").isEmpty();
        assertThat(registry.find(MeterNames.RATE_LIMIT_REJECTED).counters()).as("the fault was active").isEmpty();
        assertThat(faulty).containsExactlyElementsOf(healthy);
    }

    /** Status, headers and body of a fixed set of requests, with the per-request traceId blanked. */
    private List<String> runScenario() throws Exception {
        clock.advance(Duration.ofHours(2));
        auditLog.reset();
        permissions.reset();
        permissions.grant("otto", "ops.operator");
        var requests = new ArrayList<MockHttpServletRequestBuilder>();
        requests.add(get("/legacy/stats"));
        requests.add(as(get("/test/requests/op-1"), "alice"));
        for (var i = 0; i < 4; i++) {
            requests.add(as(post("/test/submit").contentType(MediaType.APPLICATION_JSON).content("{\"operationId\":\"x\"}"), "alice"));
        }
        requests.add(get("/ops/test-read"));
        requests.add(as(get("/ops/test-read"), "alice"));
        requests.add(as(get("/ops/test-read"), "otto"));
        requests.add(as(post("/ops/test-actions/op-9").contentType(MediaType.APPLICATION_JSON).content("{}")
                .param(OperatorParameters.RESERVED, "mallory"), "otto"));
        requests.add(as(get("/ops/config"), "otto"));
        requests.add(get("/assets/app-3f9a1c2e.js"));
        requests.add(get("/assets/missing.js"));
        requests.add(get("/requests/abc").header("Accept", "text/html"));
        requests.add(get("/test/boom"));
        requests.add(post("/test/json").contentType(MediaType.APPLICATION_JSON).content("{bad"));
        requests.add(get("/test/count").param("limit", "x"));
        var answers = new ArrayList<String>();
        for (var request : requests) {
            var response = mvc.perform(request).andReturn().getResponse();
            var traceId = response.getHeader(RequestTraceFilter.HEADER);
            var headers = new TreeMap<String, List<String>>();
            for (var name : response.getHeaderNames()) {
                if (!name.equalsIgnoreCase(RequestTraceFilter.HEADER) && !name.equalsIgnoreCase("Date")) {
                    headers.put(name, response.getHeaders(name));
                }
            }
            answers.add(response.getStatus() + " " + headers + " "
                    + response.getContentAsString(StandardCharsets.UTF_8).replace(traceId, "<trace>"));
        }
        return answers;
    }
}
