package io.changeflow.sandbox.webhook;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Signing secrets and delivery behaviour of the simulators' callbacks ({@code sandbox.webhook.*}).
 * The application's callback verifier must hold the same secrets
 * ({@code changeflow.callbacks.approval.secrets}, {@code changeflow.callbacks.deploy.secrets});
 * the sandbox defaults file wires them to these.
 *
 * @param approvalSecret secret of the approval simulator's callbacks, {@code whsec_<base64>}
 * @param deploySecret   secret of the deploy pipeline simulator's callbacks, {@code whsec_<base64>}
 * @param maxAttempts    delivery attempts per callback, the first one included (like real webhook senders)
 * @param retryBackoff   wait before the first retry; doubles on every further retry
 * @param connectTimeout connect timeout of one delivery attempt
 * @param timeout        time to the response of one delivery attempt
 */
@ConfigurationProperties("sandbox.webhook")
public record WebhookProperties(String approvalSecret, String deploySecret,
                                @DefaultValue("4") int maxAttempts,
                                @DefaultValue("1s") Duration retryBackoff,
                                @DefaultValue("2s") Duration connectTimeout,
                                @DefaultValue("10s") Duration timeout) {

    public WebhookProperties {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("sandbox.webhook.max-attempts must be at least 1");
        }
        if (retryBackoff.isNegative() || connectTimeout.isNegative() || connectTimeout.isZero()
                || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("sandbox.webhook timeouts must be positive and the backoff not negative");
        }
    }

    /** {@link #approvalSecret()}; IllegalStateException when it is not set. */
    public String requiredApprovalSecret() {
        return required(approvalSecret, "approval-secret");
    }

    /** {@link #deploySecret()}; IllegalStateException when it is not set. */
    public String requiredDeploySecret() {
        return required(deploySecret, "deploy-secret");
    }

    private static String required(String secret, String property) {
        if (secret == null || secret.isBlank()) {
            throw new IllegalStateException("sandbox.webhook." + property + " is required (whsec_<base64>)");
        }
        return secret;
    }
}
