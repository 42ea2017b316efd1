package io.changeflow.adapter.gitlab;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.settings.Settings;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The exact HTTP exchanges of the direct approval (the simulator cannot make items change between two
 * attempts): one read of the configuration API, then at most one rebuilt retry per 422 that carries the
 * items in effect, and the real status otherwise.
 */
class CheckItemsRetryTest {

    private static final String PROJECT_API = "/api/v4/projects/platform%2Fretry";
    private static final String APPROVE = PROJECT_API + "/merge_requests/7/approve";

    @RegisterExtension
    static final WireMockExtension wiremock = WireMockExtension.newInstance()
            .options(WireMockConfiguration.options().dynamicPort()).build();

    private AdapterContext adapter;

    @BeforeEach
    void freshAdapterWithAnEmptyCache() {
        adapter = AdapterContext.start(wiremock.baseUrl(), Map.of());
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        wiremock.stubFor(get(urlPathEqualTo(PROJECT_API + "/approval_check_items"))
                .willReturn(okJson("{\"project_id\": 9, \"check_items\": [\"ticket-linked\"]}")));
    }

    @AfterEach
    void closeAdapter() {
        adapter.close();
    }

    @Test
    void retriesOnceWithTheItemsTheRefusalCarries() {
        wiremock.stubFor(post(urlPathEqualTo(APPROVE))
                .withRequestBody(equalToJson("{\"check_items\": [\"ticket-linked\"]}"))
                .willReturn(unprocessable("{\"message\": \"stale\", \"check_items\": [\"ticket-linked\", \"owner-informed\"]}")));
        wiremock.stubFor(post(urlPathEqualTo(APPROVE))
                .withRequestBody(equalToJson("{\"check_items\": [\"ticket-linked\", \"owner-informed\"]}"))
                .willReturn(aResponse().withStatus(201).withHeader("Content-Type", "application/json").withBody("{}")));

        adapter.mergeRequests().approve("platform/retry", 7, "approval-bot-1");
        adapter.mergeRequests().approve("platform/retry", 7, "approval-bot-2");

        wiremock.verify(1, getRequestedFor(urlPathEqualTo(PROJECT_API + "/approval_check_items")));
        wiremock.verify(3, postRequestedFor(urlPathEqualTo(APPROVE)));
    }

    @Test
    void givesUpAfterOneRetryWhenTheItemsChangeAgain() {
        wiremock.stubFor(post(urlPathEqualTo(APPROVE))
                .willReturn(unprocessable("{\"message\": \"stale\", \"check_items\": [\"something-new\"]}")));

        assertThatThrownBy(() -> adapter.mergeRequests().approve("platform/retry", 7, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.status()).isEqualTo(422);
                    assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.HTTP_STATUS);
                });
        wiremock.verify(2, postRequestedFor(urlPathEqualTo(APPROVE)));
    }

    @Test
    void keepsAPlain422WithoutItemsAsItIs() {
        wiremock.stubFor(post(urlPathEqualTo(APPROVE)).willReturn(unprocessable("{\"message\": \"other problem\"}")));

        assertThatThrownBy(() -> adapter.mergeRequests().approve("platform/retry", 7, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class,
                        e -> assertThat(e.status()).isEqualTo(422));
        wiremock.verify(1, postRequestedFor(urlPathEqualTo(APPROVE)));
    }

    private static ResponseDefinitionBuilder unprocessable(String body) {
        return aResponse().withStatus(422).withHeader("Content-Type", "application/json").withBody(body);
    }
}
