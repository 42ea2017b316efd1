package io.changeflow.application.notify;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A delivery failure's text without what must not be shown or stored (issue 32): a chat webhook's address is its secret
 * (Slack's carries the token in its path), and a mail server's error may repeat credentials. Every address keeps its
 * scheme and host only ({@code https://hooks.slack.com/…}), user information in it is dropped, and the value of a
 * {@code password}, {@code secret}, {@code token} or {@code key} parameter becomes {@code ***}. The text is cut to 500
 * characters.
 */
public final class ErrorTexts {

    static final int MAX = 500;
    private static final Pattern URL = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]{1,15})://(?:[^\\s/?#@\"'<>]*@)?([^\\s/?#\"'<>:]+)(?::\\d+)?[^\\s\"'<>]*");
    private static final Pattern NAMED = Pattern.compile("(?i)\\b(pass(?:word)?|pwd|secret|token|api[_-]?key|key|authorization)(\\s*[=:]\\s*)(?:bearer\\s+|basic\\s+)?[^\\s,;&\"']+");

    private ErrorTexts() {}

    /** {@code text} with addresses reduced to scheme and host and named secrets masked; null stays null. */
    public static String withoutSecrets(String text) {
        if (text == null) {
            return null;
        }
        var masked = NAMED.matcher(text).replaceAll("$1$2***");
        masked = URL.matcher(masked).replaceAll(m -> Matcher.quoteReplacement(m.group(1) + "://" + m.group(2)
                + (m.group().length() > m.group(1).length() + 3 + m.group(2).length() ? "/…" : "")));
        return masked.length() > MAX ? masked.substring(0, MAX) : masked;
    }
}
