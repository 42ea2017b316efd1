package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.util.Base64;
import java.util.List;
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
