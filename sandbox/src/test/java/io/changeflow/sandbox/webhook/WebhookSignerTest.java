package io.changeflow.sandbox.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    @Test
    void reproducesThePublishedStandardWebhooksTestVector() {
        var signer = WebhookSigner.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");

        var signature = signer.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330,
                "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8));

        assertThat(signature).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void acceptsTheSecretWithoutItsPrefix() {
        var body = "{}".getBytes(StandardCharsets.UTF_8);

        assertThat(WebhookSigner.of("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").sign("msg_1", 1, body))
                .isEqualTo(WebhookSigner.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").sign("msg_1", 1, body));
    }

    @Test
    void refusesBlankOrNonBase64SecretsWithoutEchoingThem() {
        assertThatThrownBy(() -> WebhookSigner.of(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WebhookSigner.of("whsec_%%%secret%%%"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("secret%%%");
    }
}
