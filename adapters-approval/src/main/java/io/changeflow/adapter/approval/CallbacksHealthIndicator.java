package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import java.util.LinkedHashMap;
import java.util.Locale;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health "callbacks": DOWN when any source has no usable signing secret, because its callbacks
 * are all refused (fail closed). Details per source: configured, usable and unusable secret
 * counts; never a secret.
 */
final class CallbacksHealthIndicator implements HealthIndicator {

    private final StandardWebhooksVerifier verifier;

    CallbacksHealthIndicator(StandardWebhooksVerifier verifier) {
        this.verifier = verifier;
    }

    @Override
    public Health health() {
        var allConfigured = true;
        var builder = Health.unknown();
        for (var source : Source.values()) {
            var detail = new LinkedHashMap<String, Object>();
            detail.put("configured", verifier.configured(source));
            detail.put("secrets", verifier.usableSecrets(source));
            detail.put("unusableSecrets", verifier.unusableSecrets(source));
            builder.withDetail(source.name().toLowerCase(Locale.ROOT), detail);
            allConfigured &= verifier.configured(source);
        }
        return (allConfigured ? builder.up() : builder.down()).build();
    }
}
