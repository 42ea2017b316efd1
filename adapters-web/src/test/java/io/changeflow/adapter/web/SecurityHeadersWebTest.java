package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.util.Base64;
import java.util.List;
import io.changeflow.adapter.web.identity.CallerIdentity;
import org.junit.jupiter.api.Test;

/** The security headers over real HTTP on every kind of response: API, page, asset, error, refusals, failures. */
class SecurityHeadersWebTest extends WebTestSupport {

    @Test
    void everyKindOfResponseCarriesTheSecurityHeaders() throws Exception {
        for (var path : List.of("/", "/requests/some-client-route", "/robots.txt", "/api/me", "/ops/test-read", "/no/such/path.json",
                "/assets/missing-1234.js", "/test/filter-boom", "/test/count?limit=abc")) {
            var response = send(HttpRequest.newBuilder(uri(path)).header("Accept", "text/html,application/json"));
            var headers = response.headers();
            assertThat(headers.firstValue("Content-Security-Policy")).as(path).hasValueSatisfying(csp -> assertThat(csp)
                    .contains("default-src 'self'").contains("frame-ancestors 'none'").contains("object-src 'none'")
                    .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval"));
            assertThat(headers.firstValue("X-Content-Type-Options")).as(path).hasValue("nosniff");
            assertThat(headers.firstValue("Referrer-Policy")).as(path).hasValue("no-referrer");
            assertThat(headers.firstValue("X-Frame-Options")).as(path).hasValue("DENY");
        }
        var refused = sendRawWithHeaders("POST", "/ops/test-actions/x", List.of("Content-Type: text/plain"), "x");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.text()).contains("Content-Security-Policy: ").contains("X-Content-Type-Options: nosniff");
    }

    /**
     * Issue 33: a 304 of the API carries what RFC 9110 section 15.4.5 asks of it (ETag, Cache-Control, Date) and the
     * trace id, none of the security headers; the same conditional read answered in full, or refused, keeps them all.
     */
    @Test
    void anApiNotModifiedIsLeanAndEveryOtherAnswerOfTheSameReadKeepsTheSecurityHeaders() throws Exception {
        var id = app.submitAccepted(io.changeflow.application.fake.FakeTargets.SINGLE, "lean304");
        var path = "/api/requests/" + id.value();
        var user = CallerIdentity.USER_HEADER + ": lean304";
        var full = sendRawWithHeaders("GET", path, List.of(user), null);
        assertThat(full.status()).isEqualTo(200);
        var etag = headerOf(full.text(), "ETag");

        var notModified = sendRawWithHeaders("GET", path, List.of(user, "If-None-Match: " + etag), null);
        assertThat(notModified.status()).isEqualTo(304);
        assertThat(headerNames(notModified.text()))
                .containsExactlyInAnyOrder("etag", "cache-control", "date", "x-trace-id", "connection");

        var stale = sendRawWithHeaders("GET", path, List.of(user, "If-None-Match: W/\"stale\""), null);
        assertThat(stale.status()).isEqualTo(200);
        assertThat(headerNames(stale.text())).contains(SECURITY_HEADERS);
        var refused = sendRawWithHeaders("GET", path, List.of(CallerIdentity.USER_HEADER + ": someone-else",
                "If-None-Match: " + etag), null);
        assertThat(refused.status()).isEqualTo(404);
        assertThat(headerNames(refused.text())).contains(SECURITY_HEADERS);
        var unauthenticated = sendRawWithHeaders("GET", path, List.of("If-None-Match: " + etag), null);
        assertThat(unauthenticated.status()).isEqualTo(401);
        assertThat(headerNames(unauthenticated.text())).contains(SECURITY_HEADERS);
    }

    @Test
    void aPageKeepsTheSecurityHeadersOnEveryAnswerItsConditionalReadGets() throws Exception {
        var page = sendRawWithHeaders("GET", "/", List.of("Accept: text/html"), null);
        var validators = new java.util.ArrayList<String>();
        var etag = headerOrNull(page.text(), "ETag");
        var lastModified = headerOrNull(page.text(), "Last-Modified");
        if (etag != null) {
            validators.add("If-None-Match: " + etag);
        }
        if (lastModified != null) {
            validators.add("If-Modified-Since: " + lastModified);
        }
        validators.add("If-None-Match: *");
        for (var validator : validators) {
            var again = sendRawWithHeaders("GET", "/", List.of("Accept: text/html", validator), null);
            assertThat(headerNames(again.text())).as(validator + " -> " + again.status()).contains(SECURITY_HEADERS);
        }
    }

    private static final String[] SECURITY_HEADERS = {"content-security-policy", "x-content-type-options", "x-frame-options",
            "referrer-policy", "cross-origin-opener-policy"};

    private static List<String> headerNames(String rawAnswer) {
        return rawAnswer.substring(0, rawAnswer.indexOf("\r\n\r\n")).lines().skip(1)
                .map(line -> line.substring(0, line.indexOf(':')).toLowerCase(java.util.Locale.ROOT)).toList();
    }

    private static String headerOf(String rawAnswer, String name) {
        var value = headerOrNull(rawAnswer, name);
        assertThat(value).as(name).isNotNull();
        return value;
    }

    private static String headerOrNull(String rawAnswer, String name) {
        return rawAnswer.substring(0, rawAnswer.indexOf("\r\n\r\n")).lines()
                .filter(line -> line.regionMatches(true, 0, name + ":", 0, name.length() + 1))
                .map(line -> line.substring(name.length() + 1).strip()).findFirst().orElse(null);
    }

    @Test
    void theSimulatorPagesGetAPolicyWithoutScript() throws Exception {
        var response = send(HttpRequest.newBuilder(uri("/sim/anything")));
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue(SecurityHeadersFilter.SIMULATOR_POLICY);
    }

    @Test
    void theInlineScriptsOfThePageAreAllowedByTheirHashOnly() throws Exception {
        var expected = "sha256-" + Base64.getEncoder().encodeToString(
                java.security.MessageDigest.getInstance("SHA-256").digest("go()".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        var page = "<head><script data-release-guard>go()</script><script type=\"module\" crossorigin src=\"/assets/a.js\"></script>"
                + "<script></script></head>";
        assertThat(SecurityHeadersFilter.inlineScriptHashes(page)).containsExactly(expected);
        assertThat(new SecurityHeadersFilter(page).appPolicy()).contains("script-src 'self' '" + expected + "';");
        assertThat(new SecurityHeadersFilter("").appPolicy()).contains("script-src 'self';");
    }
}
