package io.changeflow.adapter.notify;

import io.changeflow.application.port.out.Notifications;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The notification adapters (issue 32, docs/notifications.md). Keys, each fail-safe (a garbled value is its default
 * and a warning, never a failed start): {@value #MAIL_HOST} (empty: no mail), {@value #MAIL_PORT} (25; read on every
 * message),
 * {@value #MAIL_FROM} ({@code changeflow@localhost}), {@value #REQUESTS_URL} and {@value #OPERATORS_URL} (empty: that
 * webhook is off; not http(s): off; read on every message, so {@code ${local.server.port}} resolves once the server
 * runs), {@value #TIMEOUT} (10 s, at most 60 s) for both.
 */
@Configuration(proxyBeanMethods = false)
public class NotifyConfiguration {

    static final String MAIL_HOST = "changeflow.notifications.mail.host";
    static final String MAIL_PORT = "changeflow.notifications.mail.port";
    static final String MAIL_FROM = "changeflow.notifications.mail.from";
    static final String REQUESTS_URL = "changeflow.notifications.webhook.requests-url";
    static final String OPERATORS_URL = "changeflow.notifications.webhook.operators-url";
    static final String TIMEOUT = "changeflow.notifications.timeout";
    static final int DEFAULT_PORT = 25;
    static final String DEFAULT_FROM = "changeflow@localhost";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    private static final Logger log = LoggerFactory.getLogger(NotifyConfiguration.class);

    @Bean
    Notifications notifications(Environment environment) {
        var timeout = timeout(environment.getProperty(TIMEOUT, ""));
        var host = environment.getProperty(MAIL_HOST, "").strip();
        Optional<SmtpMail> mail = Optional.empty();
        if (host.matches("[A-Za-z0-9.\\-]+")) {
            var from = environment.getProperty(MAIL_FROM, DEFAULT_FROM).strip();
            if (!from.matches("[^@\\s]+@[^@\\s]+")) {
                log.warn("{} is not an address; using {}", MAIL_FROM, DEFAULT_FROM);
                from = DEFAULT_FROM;
            }
            mail = Optional.of(new SmtpMail(host, () -> port(environment.getProperty(MAIL_PORT, "")), from, timeout));
        } else if (!host.isEmpty()) {
            log.warn("{} is not a host name; mail is off", MAIL_HOST);
        }
        return new ChannelNotifications(mail, new WebhookChat(timeout), name -> switch (name) {
            case "requests" -> url(environment, REQUESTS_URL);
            case "operators" -> url(environment, OPERATORS_URL);
            default -> Optional.empty();
        });
    }

    static int port(String text) {
        try {
            var port = Integer.parseInt(text.strip());
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException e) {
            // below
        }
        if (!text.isBlank()) {
            log.warn("{} is not a port; using {}", MAIL_PORT, DEFAULT_PORT);
        }
        return DEFAULT_PORT;
    }

    static Duration timeout(String text) {
        var parsed = io.changeflow.application.deploy.DeployDeadline.Policy.parseDuration(text.strip())
                .filter(d -> !d.isNegative() && !d.isZero() && d.compareTo(Duration.ofMinutes(1)) <= 0);
        if (parsed.isEmpty() && !text.isBlank()) {
            log.warn("{} is not a duration of up to 60 s; using {}", TIMEOUT, DEFAULT_TIMEOUT);
        }
        return parsed.orElse(DEFAULT_TIMEOUT);
    }

    private static Optional<URI> url(Environment environment, String key) {
        var text = environment.getProperty(key, "").strip();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            var uri = URI.create(text);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return Optional.of(uri);
            }
        } catch (IllegalArgumentException e) {
            // below
        }
        log.warn("{} is not an http(s) URL; that webhook is off", key);
        return Optional.empty();
    }
}
