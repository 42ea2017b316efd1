package io.changeflow.adapter.web.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.changeflow.application.callback.WakeOnGitLabEvent;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.web.MockHttpServletRequest;
import tools.jackson.databind.json.JsonMapper;

/** The GitLab webhook endpoint without a secret, and its settings' fail-safe defaults (issue 33 item 3). */
class GitLabHooksControllerTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private GitLabHooksController controller(GitLabHookSettings settings) {
        return new GitLabHooksController(settings, new WakeOnGitLabEvent(app.inbox, app.operations, app.queue),
                JsonMapper.builder().build(), new SafeMeters(registry));
    }

    @Test
    void withoutASecretTheEndpointIsOff404WebhooksOffWhateverTokenIsSentAndNothingIsRecorded() {
        var request = new MockHttpServletRequest("POST", GitLabHooksController.PATH);
        request.addHeader("X-Gitlab-Token", "");
        request.addHeader("Idempotency-Key", "k-1");
        var body = "{\"object_kind\":\"pipeline\",\"project\":{\"id\":1},\"merge_request\":{\"iid\":1}}"
                .getBytes(StandardCharsets.UTF_8);

        for (var settings : new GitLabHookSettings[] {new GitLabHookSettings(Optional.empty(), 0),
                new GitLabHookSettings(Optional.of("   "), 0)}) {
            assertThatThrownBy(() -> controller(settings).hook(request, body)).isInstanceOfSatisfying(ApiException.class,
                    refused -> assertThat(refused.code()).isEqualTo(ErrorCode.WEBHOOKS_OFF));
        }
        assertThat(ErrorCode.WEBHOOKS_OFF.status()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(ErrorCode.INVALID_TOKEN.status()).isEqualTo(HttpStatus.UNAUTHORIZED);
        assertThat(app.inbox.firstDelivery(WakeOnGitLabEvent.SOURCE, GitLabHooksController.deliveryKey(request, body)))
                .as("never recorded").isTrue();
    }

    @Test
    void theSettingsFallBackToOneMegabyteAndNeverPrintTheSecret() {
        var garbled = new MockEnvironment().withProperty("changeflow.gitlab.webhooks.max-body-size", "lots")
                .withProperty("changeflow.gitlab.webhooks.secret", "s3cret");
        var negative = new MockEnvironment().withProperty("changeflow.gitlab.webhooks.max-body-size", "-5KB");
        var set = new MockEnvironment().withProperty("changeflow.gitlab.webhooks.max-body-size", "256KB");

        assertThat(GitLabHookSettings.from(garbled).maxBodyBytes()).isEqualTo(1024 * 1024);
        assertThat(GitLabHookSettings.from(negative).maxBodyBytes()).isEqualTo(1024 * 1024);
        assertThat(GitLabHookSettings.from(negative).secret()).isEmpty();
        assertThat(GitLabHookSettings.from(set).maxBodyBytes()).isEqualTo(256 * 1024);
        assertThat(GitLabHookSettings.from(garbled).secret()).contains("s3cret");
        assertThat(GitLabHookSettings.from(garbled).toString()).doesNotContain("s3cret");
    }
}
