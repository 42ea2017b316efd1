package io.changeflow.bootstrap;

import java.time.Duration;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Whether GitLab's webhooks wake the waiting steps here ({@code changeflow.gitlab.webhooks.secret} set), and how often
 * a pipeline wait still polls then ({@code changeflow.gitlab.webhooks.fallback-poll-interval}: missing, garbled, zero or
 * negative: {@link #DEFAULT_FALLBACK}). Without a secret the polling keeps its own intervals. Issue 33 item 3.
 */
record GitLabWebhookSettings(boolean on, Duration fallbackPollInterval) {

    /** The polling while webhooks are on: a lost event costs at most this much time. */
    static final Duration DEFAULT_FALLBACK = Duration.ofMinutes(1);

    GitLabWebhookSettings {
        fallbackPollInterval = fallbackPollInterval == null || fallbackPollInterval.isZero()
                || fallbackPollInterval.isNegative() ? DEFAULT_FALLBACK : fallbackPollInterval;
    }

    static GitLabWebhookSettings from(Environment environment) {
        var binder = Binder.get(environment);
        var on = binder.bind("changeflow.gitlab.webhooks.secret", String.class).map(secret -> !secret.isBlank()).orElse(false);
        Duration fallback;
        try {
            fallback = binder.bind("changeflow.gitlab.webhooks.fallback-poll-interval", Duration.class).orElse(null);
        } catch (RuntimeException garbled) {
            fallback = null;
        }
        return new GitLabWebhookSettings(on, fallback);
    }
}
