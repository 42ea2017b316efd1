package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.guard.CrossSiteRequestFilter;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.domain.request.OperationId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cross-site writes (CSRF) over real HTTP, byte for byte on a socket as a browser would send them:
 * the forged form POST to {@code /ops/batch-rounds} as the operator, and its variants, are refused
 * with 403 CROSS_SITE_REQUEST before anything runs; what the app sends passes.
 */
class CrossSiteWebTest extends WebTestSupport {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String OPERATOR = CallerIdentity.USER_HEADER + ": otto";

    private String partition;
    private OperationId waiting;

    @BeforeEach
    void anOperatorAndARequestWaitingForARound() {
        permissions.grant("otto", "ops.operator");
        var n = SEQUENCE.incrementAndGet();
        partition = "cross-site-" + n;
        waiting = waitingForARound(batchableTarget(partition), "csrf" + n);
    }

    @Test
    void theForgedFormPostOfAnotherSiteAsTheOperatorIsRefusedAndRunsNothing() throws Exception {
        assertRefused("application/x-www-form-urlencoded", "partition=" + partition,
                "Origin: https://evil.example", "Sec-Fetch-Site: cross-site");
    }

    @Test
    void aFormPostWithoutOriginOrFetchMetadataIsRefused() throws Exception {
        assertRefused("application/x-www-form-urlencoded", "partition=" + partition);
    }

    @Test
    void aPlainTextPostIsRefused() throws Exception {
        assertRefused("text/plain", "partition=" + partition, "Origin: https://evil.example");
        assertRefused("text/plain", "{\"partition\":\"" + partition + "\"}");
    }

    @Test
    void aMultipartFormPostIsRefused() throws Exception {
        assertRefused("multipart/form-data; boundary=x", "--x--");
    }

    @Test
    void aNullOriginIsRefusedEvenWithJsonAndTheAppHeader() throws Exception {
        assertRefused("application/json", "{}", "Origin: null");
        assertRefused(null, null, "Origin: null", CrossSiteRequestFilter.HEADER + ": XMLHttpRequest");
    }

    @Test
    void aForeignOriginOrFetchSiteIsRefusedEvenWithJsonAndTheAppHeader() throws Exception {
        assertRefused("application/json", "{}", "Origin: https://evil.example");
        assertRefused("application/json", "{}", "Origin: http://localhost.evil.example");
        assertRefused("application/json", "{}", "Origin: http://localhost:8081");
        assertRefused(null, null, "Sec-Fetch-Site: cross-site", CrossSiteRequestFilter.HEADER + ": XMLHttpRequest");
        assertRefused("application/json", "{}", "Origin: garbage");
    }

    @Test
    void aBodylessPostWithoutTheAppHeaderIsRefused() throws Exception {
        assertRefused(null, null);
        assertRefused(null, null, CrossSiteRequestFilter.HEADER + ": ");
    }

    @Test
    void whatTheAppSendsRunsTheRound() throws Exception {
        var answer = sendRawWithHeaders("POST", "/ops/batch-rounds?partition=" + partition,
                List.of(OPERATOR, "Content-Type: application/json", "Origin: http://localhost", "Sec-Fetch-Site: same-origin",
                        CrossSiteRequestFilter.HEADER + ": XMLHttpRequest", "Accept: application/json"),
                "{}");

        assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        assertThat(answer.text()).contains("\"code\":\"CLAIMED\"");
        assertThat(app.batches.isWaiting(waiting)).isFalse();
    }

    @Test
    void theAppHeaderAloneOrAJsonBodyAloneIsEnoughWithoutFetchMetadata() throws Exception {
        var headerOnly = sendRawWithHeaders("POST", "/ops/batch-rounds?partition=nothing-" + partition,
                List.of(OPERATOR, CrossSiteRequestFilter.HEADER + ": XMLHttpRequest"), null);
        var jsonOnly = sendRawWithHeaders("POST", "/ops/batch-rounds?partition=" + partition,
                List.of(OPERATOR, "Content-Type: application/json; charset=utf-8"), "{}");

        assertThat(headerOnly.text()).contains("\"code\":\"NOTHING_TO_CLAIM\"");
        assertThat(jsonOnly.text()).contains("\"code\":\"CLAIMED\"");
    }

    @Test
    void theSignedCallbacksAreNotCheckedTheirSignatureDecides() throws Exception {
        var answer = sendRawWithHeaders("POST", "/callbacks/deploy",
                List.of("Content-Type: application/x-www-form-urlencoded", "Origin: https://evil.example",
                        "Sec-Fetch-Site: cross-site"), "status=success");

        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.text()).contains("\"code\":\"INVALID_SIGNATURE\"");
    }

    @Test
    void readsAreNotChecked() throws Exception {
        var answer = sendRawWithHeaders("GET", "/ops/batches?limit=1",
                List.of(OPERATOR, "Origin: https://evil.example", "Sec-Fetch-Site: cross-site"), null);

        assertThat(answer.status()).isEqualTo(200);
    }

    private void assertRefused(String contentType, String body, String... headers) throws Exception {
        var claims = app.batches.claims();
        var audited = app.audit.all().size();
        var lines = new ArrayList<String>(List.of(OPERATOR));
        if (contentType != null) {
            lines.add("Content-Type: " + contentType);
        }
        lines.addAll(List.of(headers));

        var answer = sendRawWithHeaders("POST", "/ops/batch-rounds?partition=" + partition, lines, body);

        assertThat(answer.status()).as(answer.text()).isEqualTo(403);
        assertThat(answer.text()).contains("\"code\":\"CROSS_SITE_REQUEST\"").contains("application/json");
        assertThat(app.batches.claims()).isEqualTo(claims);
        assertThat(app.batches.isWaiting(waiting)).isTrue();
        assertThat(app.audit.all()).hasSize(audited);
        assertThat(auditLog.entries).isEmpty();
    }
}
