package io.changeflow.application.notify;

import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.domain.config.RawValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the notifications need to know (issue 32, docs/notifications.md): the public base URL every link starts with,
 * the mail domain of accounts the directory has no address for, and the reminder windows before a grant's until.
 *
 * @param baseUrl    e.g. {@code https://changeflow.example.com}, without a trailing slash
 * @param mailDomain e.g. {@code example.com}
 * @param reminders  how long before the until each reminder goes, longest first; empty: no reminders
 */
public record NotificationSettings(String baseUrl, String mailDomain, List<Duration> reminders) {

    public static final String DEFAULT_BASE_URL = "http://localhost:8080";
    public static final String DEFAULT_MAIL_DOMAIN = "example.com";
    public static final List<Duration> DEFAULT_REMINDERS = List.of(Duration.ofDays(1), Duration.ofHours(1));
    private static final Pattern URL = Pattern.compile("https?://[A-Za-z0-9.\\-]+(:\\d{1,5})?(/[A-Za-z0-9._~\\-/]*)?");
    private static final Pattern DOMAIN = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9\\-]{0,62}\\.)*[A-Za-z0-9\\-]{1,63}");

    public NotificationSettings {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(mailDomain, "mailDomain");
        reminders = reminders.stream().sorted(Comparator.reverseOrder()).distinct().toList();
    }

    public static NotificationSettings defaults() {
        return new NotificationSettings(DEFAULT_BASE_URL, DEFAULT_MAIL_DOMAIN, DEFAULT_REMINDERS);
    }

    /**
     * From configuration text. Fail-safe: a missing or garbled base URL (not {@code http(s)://host[:port][/path]}) is
     * {@value #DEFAULT_BASE_URL}; a garbled mail domain is {@value #DEFAULT_MAIL_DOMAIN}; reminders are a comma list of
     * durations ({@code 1d,1h}; {@code none} for no reminders): missing, garbled, zero or negative entries make the
     * whole list the default (1 day and 1 hour).
     */
    public static NotificationSettings of(RawValue baseUrl, RawValue mailDomain, RawValue reminders) {
        var url = baseUrl.text().map(String::strip).filter(t -> URL.matcher(t).matches())
                .map(t -> t.endsWith("/") ? t.substring(0, t.length() - 1) : t).orElse(DEFAULT_BASE_URL);
        var domain = mailDomain.text().map(String::strip).filter(t -> DOMAIN.matcher(t).matches())
                .orElse(DEFAULT_MAIL_DOMAIN);
        return new NotificationSettings(url, domain, reminders(reminders));
    }

    private static List<Duration> reminders(RawValue raw) {
        var text = raw.text().map(String::strip).orElse("");
        if (text.toLowerCase(Locale.ROOT).equals("none")) {
            return List.of();
        }
        if (text.isEmpty()) {
            return DEFAULT_REMINDERS;
        }
        var windows = new ArrayList<Duration>();
        for (var part : text.split(",")) {
            var window = DeployDeadline.Policy.parseDuration(part.strip());
            if (window.isEmpty() || window.get().isZero() || window.get().isNegative()) {
                return DEFAULT_REMINDERS;
            }
            windows.add(window.get());
        }
        return windows;
    }

    /** The request page of {@code operationId}. */
    public String requestLink(String operationId) {
        return baseUrl + "/requests/" + operationId;
    }

    /** The renewal form of the grant of {@code subject} on {@code target}, filled in. */
    public String renewLink(String subject, String target) {
        return baseUrl + "/bindings?renew=" + encode(target) + "&subject=" + encode(subject);
    }

    private static String encode(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
    }
}
