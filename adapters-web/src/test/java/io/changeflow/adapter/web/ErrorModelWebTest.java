package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.guard.CrossSiteRequestFilter;
import io.changeflow.adapter.web.metrics.MeterNames;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class ErrorModelWebTest extends WebTestSupport {

    /** The app's header: these requests are the app's own (same-site) writes; cross-site ones are CrossSiteWebTest's. */
    private static final String APP = CrossSiteRequestFilter.HEADER;
    private static final String SCRIPT = "XMLHttpRequest";

    @Test
    void everyAnswerCarriesTheTraceIdInHeaderAndEnvelope() throws Exception {
        var result = mvc.perform(get("/test/boom")).andExpect(status().isInternalServerError()).andReturn();
        var header = result.getResponse().getHeader(RequestTraceFilter.HEADER);
        assertThat(header).matches("[0-9a-f]{16}");
        assertThat(result.getResponse().getContentAsString()).contains("\"traceId\":\"" + header + "\"");
    }

    @Test
    void serverErrorAnswersAGenericMessageAndNeverTheExceptionText() throws Exception {
        mvc.perform(get("/test/boom"))
                .andExpect(answers(status().isInternalServerError(), "INTERNAL_ERROR"))
                .andExpect(jsonPath("$.message").value(ErrorCode.INTERNAL_ERROR.defaultMessage()))
                .andExpect(jsonPath("$.data").doesNotExist());
    }

    @Test
    void aSecurityExceptionFromDeepInsideIsA403NeverA500() throws Exception {
        mvc.perform(get("/test/denied"))
                .andExpect(answers(status().isForbidden(), "ACCESS_DENIED"))
                .andExpect(jsonPath("$.message").value("Access denied"));
    }

    @Test
    void aTransientUpstreamFailureIs503WithoutTheUpstreamBody() throws Exception {
        mvc.perform(get("/test/upstream"))
                .andExpect(answers(status().isServiceUnavailable(), "UNAVAILABLE"));
    }

    @Test
    void theDatabasePastItsDeadlineIs503WithRetryAfterAndNoSql() throws Exception {
        for (var path : List.of("/test/database-deadline", "/test/database-pool")) {
            mvc.perform(get(path))
                    .andExpect(status().isServiceUnavailable())
                    .andExpect(header().string("Retry-After", "5"))
                    .andExpect(jsonPath("$.code").value("UNAVAILABLE"))
                    .andExpect(content().string(not(containsString("select"))))
                    .andExpect(content().string(not(containsString("Hikari"))));
        }
    }

    @Test
    void aDatabaseThatDoesNotAnswerIs503WithRetryAfterCountedByReasonAndNothingInternal() throws Exception {
        var before = unavailable("connection_lost");
        mvc.perform(get("/test/database-lost"))
                .andExpect(answers(status().isServiceUnavailable(), "UNAVAILABLE"))
                .andExpect(header().string("Retry-After", "5"))
                .andExpect(jsonPath("$.message").value(ErrorCode.UNAVAILABLE.defaultMessage()))
                .andExpect(content().string(not(containsString("insert"))))
                .andExpect(content().string(not(containsString("Communications"))))
                .andExpect(content().string(not(containsString("packet"))));
        mvc.perform(get("/test/database-pool")).andExpect(status().isServiceUnavailable());
        assertThat(unavailable("connection_lost")).isEqualTo(before + 1);
        assertThat(unavailable("pool_wait")).isPositive();
    }

    private double unavailable(String reason) {
        var counter = registry.find(MeterNames.DATABASE_UNAVAILABLE).tag("reason", reason).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void malformedJsonIs400InvalidRequest() throws Exception {
        mvc.perform(post("/test/json").contentType(MediaType.APPLICATION_JSON).content("{\"a\": [1, 2"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.message").value("The request body is not valid JSON or does not have the expected fields."));
    }

    @Test
    void missingParameterIs400WithTheFieldNamed() throws Exception {
        mvc.perform(get("/test/count"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("limit", "REQUIRED"));
    }

    @Test
    void wrongParameterTypeIs400WithTheFieldNamed() throws Exception {
        mvc.perform(get("/test/count").param("limit", "ten"))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("limit", "INVALID_FORMAT"));
    }

    @Test
    void wrongMethodIs405WithAllowHeader() throws Exception {
        mvc.perform(delete("/test/count"))
                .andExpect(answers(status().isMethodNotAllowed(), "METHOD_NOT_ALLOWED"))
                .andExpect(header().string("Allow", "GET"));
    }

    @Test
    void aClientAcceptingNothingWeProduceGets406InJson() throws Exception {
        mvc.perform(get("/test/requests/op-1").accept(MediaType.APPLICATION_XML))
                .andExpect(answers(status().isNotAcceptable(), "NOT_ACCEPTABLE"));
    }

    @Test
    void unsupportedMediaTypeIs415() throws Exception {
        mvc.perform(post("/test/json").contentType(MediaType.TEXT_PLAIN).content("hello"))
                .andExpect(answers(status().isUnsupportedMediaType(), "UNSUPPORTED_MEDIA_TYPE"));
    }

    @Test
    void bodyAnnouncedOverTheLimitIs413Unread() throws Exception {
        mvc.perform(post("/test/json").contentType(MediaType.APPLICATION_JSON).content("{\"a\":\"" + "x".repeat(2000) + "\"}"))
                .andExpect(answers(status().isPayloadTooLarge(), "PAYLOAD_TOO_LARGE"));
    }

    @Test
    void chunkedBodyWithoutContentLengthIsCutAtTheLimitWith413() throws Exception {
        var body = ("{\"a\":\"" + "x".repeat(5000) + "\"}").getBytes(StandardCharsets.UTF_8);
        var response = send(HttpRequest.newBuilder(uri("/test/json"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));
        assertThat(response.headers().firstValue("Content-Length")).isEmpty();
        assertAnswer(response, 413, "PAYLOAD_TOO_LARGE");
    }

    @Test
    void chunkedRawBodyOverTheLimitIs413AndUnderTheLimitIsRead() throws Exception {
        var big = "y".repeat(4000).getBytes(StandardCharsets.UTF_8);
        var tooBig = send(HttpRequest.newBuilder(uri("/test/raw")).header("Content-Type", "text/plain").header(APP, SCRIPT)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big))));
        assertThat(tooBig.statusCode()).isEqualTo(413);

        var small = "y".repeat(500).getBytes(StandardCharsets.UTF_8);
        var fine = send(HttpRequest.newBuilder(uri("/test/raw")).header("Content-Type", "text/plain").header(APP, SCRIPT)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(small))));
        assertThat(fine.statusCode()).isEqualTo(200);
        assertThat(fine.body()).contains("\"data\":500");
    }

    @Test
    void oversizedFormBodyOverRealHttpIsRefused() throws Exception {
        var response = send(HttpRequest.newBuilder(uri("/test/form"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("a=" + "z".repeat(5000))));
        assertAnswer(response, 413, "PAYLOAD_TOO_LARGE");
    }

    /** Reliability findings: requests the container or Spring cannot read were answered 500. */
    @Test
    void overRealHttpAnUndecodableQueryOrFormIs400NeverA500() throws Exception {
        for (var query : new String[] {"limit=%zz", "limit=%", "=x&limit=1"}) {
            var response = sendRaw("GET", "/test/count?" + query, null, null);
            assertThat(response.status()).as(query + ": " + response.text()).isEqualTo(400);
            assertThat(response.text()).as(query).contains("\"code\":\"INVALID_REQUEST\"").doesNotContain("Exception");
        }
        var form = sendRawWithHeaders("POST", "/test/form",
                java.util.List.of("Content-Type: application/x-www-form-urlencoded", APP + ": " + SCRIPT), "a=%zz");
        assertThat(form.status()).as(form.text()).isEqualTo(400);
        assertThat(form.text()).contains("\"code\":\"INVALID_REQUEST\"");
    }

    /** Reliability finding: an empty Accept header made Prometheus' scrape fail with a 500; it means "anything". */
    @Test
    void overRealHttpAnEmptyAcceptHeaderMeansAnything() throws Exception {
        var response = sendRawWithHeader("GET", "/test/count?limit=3", "Accept: ");
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        assertThat(response.text()).contains("\"data\":3");
    }

    @Test
    void overRealHttpAMultipartOrWildcardContentTypeIs415NeverA500() throws Exception {
        for (var contentType : new String[] {"multipart/form-data", "multipart/form-data; boundary=x", "*/*", "application/*"}) {
            var response = send(HttpRequest.newBuilder(uri("/test/raw")).header("Content-Type", contentType).header(APP, SCRIPT)
                    .POST(HttpRequest.BodyPublishers.ofString("{}")));
            // 415, or 400 where a multipart body with a boundary is read as the malformed body it is
            assertThat(response.statusCode()).as(contentType + ": " + response.body()).isIn(400, 415);
            assertThat(response.body()).as(contentType).containsAnyOf("\"code\":\"UNSUPPORTED_MEDIA_TYPE\"",
                    "\"code\":\"INVALID_REQUEST\"").doesNotContain("Exception");
        }
        var get = send(HttpRequest.newBuilder(uri("/test/count?limit=1")).header("Content-Type", "multipart/form-data"));
        assertThat(get.statusCode()).as("a GET announcing a multipart body").isIn(200, 415);
    }

    @Test
    void unknownApiPathIs404JsonWithNoStore() throws Exception {
        mvc.perform(get("/api/nothing-here").accept(MediaType.APPLICATION_JSON))
                .andExpect(status().isNotFound())
                .andExpect(header().string("Cache-Control", "no-store"))
                .andExpect(jsonPath("$.code").value("NOT_FOUND"));
    }

    @Test
    void postToAnUnknownPathIs404NotAMethodError() throws Exception {
        mvc.perform(post("/api/nothing-here").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
    }

    @Test
    void aHandlerRaisedClientErrorKeepsItsCodeAndMessage() throws Exception {
        mvc.perform(get("/test/missing/op-1"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"))
                .andExpect(jsonPath("$.message").value("Not found."));
    }

    @Test
    void theErrorPageOfTheContainerAnswersTheEnvelopeToo() throws Exception {
        var response = send(HttpRequest.newBuilder(uri("/error")).GET());
        assertAnswer(response, 404, "NOT_FOUND");
        assertThat(response.body()).contains("\"traceId\"");
    }

    @Test
    void anExceptionEscapingAFilterIsAnsweredByTheErrorPageWithTheGenericEnvelope() throws Exception {
        var response = send(HttpRequest.newBuilder(uri("/test/filter-boom")).GET());
        assertAnswer(response, 500, "INTERNAL_ERROR");
        assertThat(response.body()).contains("\"traceId\":\"" + response.headers().firstValue(RequestTraceFilter.HEADER).orElseThrow() + "\"");
        assertThat(registry.timed(MetricsWebTest.REQUESTS, "method", "GET", "status", "500")).isEqualTo(1);
    }

    @Test
    void accessGateClosesSubmissionsWhenTheModeIsMissing() throws Exception {
        mvc.perform(post("/test/gated"))
                .andExpect(answers(status().isForbidden(), "SERVICE_CLOSED"));
    }

    @Test
    void accessGateClosesSubmissionsOnAMisspelledMode() throws Exception {
        writeConfig("ACCESS_MODE=OPNE\n");
        mvc.perform(post("/test/gated")).andExpect(answers(status().isForbidden(), "SERVICE_CLOSED"));
    }

    @Test
    void accessGateOpensOnlyWhenTheModeSaysOpenOrTheWindowContainsNow() throws Exception {
        writeConfig("ACCESS_MODE= open \n");
        mvc.perform(post("/test/gated")).andExpect(status().isAccepted());

        clock.set(java.time.Instant.parse("2026-03-04T10:30:00Z"));
        writeConfig("ACCESS_MODE=TEST_WINDOW\nACCESS_TEST_WINDOW=MON-FRI 09:00-18:00\nACCESS_ZONE=UTC\n");
        mvc.perform(post("/test/gated")).andExpect(status().isAccepted());
        writeConfig("ACCESS_MODE=TEST_WINDOW\nACCESS_TEST_WINDOW=MON-FRI 09:00-18:00\nACCESS_ZONE=Mars/Olympus\n");
        mvc.perform(post("/test/gated")).andExpect(status().isForbidden());
    }
}
