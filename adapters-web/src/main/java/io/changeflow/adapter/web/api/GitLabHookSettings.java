package io.changeflow.adapter.web.api;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * GitLab's project webhook as this service receives it (issue 33 item 3): the shared secret GitLab sends in
 * {@code X-Gitlab-Token} ({@code changeflow.gitlab.webhooks.secret}; blank: the endpoint is off, 404 WEBHOOKS_OFF) and
 * the largest body read ({@code changeflow.gitlab.webhooks.max-body-size}; missing, garbled, zero or negative: 1 MB).
 */
public record GitLabHookSettings(Optional<String> secret, long maxBodyBytes) {

    /** The fail-safe bound of a webhook body. */
    public static final DataSize DEFAULT_MAX_BODY = DataSize.ofMegabytes(1);

    public GitLabHookSettings {
        secret = secret.map(String::strip).filter(value -> !value.isEmpty());
        maxBodyBytes = maxBodyBytes > 0 ? maxBodyBytes : DEFAULT_MAX_BODY.toBytes();
    }

    /** Read from the environment; never fails start-up. */
    public static GitLabHookSettings from(Environment environment) {
        var binder = Binder.get(environment);
        DataSize max;
        try {
            max = binder.bind("changeflow.gitlab.webhooks.max-body-size", DataSize.class).orElse(DEFAULT_MAX_BODY);
        } catch (RuntimeException garbled) {
            max = DEFAULT_MAX_BODY;
        }
        return new GitLabHookSettings(binder.bind("changeflow.gitlab.webhooks.secret", String.class).map(Optional::of)
                .orElse(Optional.empty()), max.toBytes());
    }

    byte[] secretBytes() {
        return secret.orElseThrow().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "GitLabHookSettings[secret=" + (secret.isPresent() ? "(set)" : "(none)") + ", maxBodyBytes=" + maxBodyBytes + "]";
    }
}
