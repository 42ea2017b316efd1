package io.changeflow.reliability.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What an answer must never show (docs/api.md: "No response ever carries an exception message, class
 * name, stack trace, SQL or an upstream error body"; plus file paths and server internals): checked in
 * the status line, every header and the body. A marker that the request itself contained (an echo of
 * the caller's own input) is not a leak.
 */
public final class Leaks {

    /** One marker: a name and a pattern. */
    private record Marker(String name, Pattern pattern) {}

    private static final List<Marker> CODE = List.of(
            literal("java package", "java."), literal("javax package", "javax."), literal("jakarta package", "jakarta."),
            literal("Spring package", "org.springframework"), literal("Apache package", "org.apache"),
            literal("Changeflow package", "io.changeflow"), literal("jOOQ package", "org.jooq"),
            literal("Hikari package", "com.zaxxer"), literal("MySQL driver", "com.mysql"),
            literal("MariaDB driver", "org.mariadb"), literal("Jackson package", "tools.jackson"),
            literal("Jackson package", "com.fasterxml"), literal("JDK internals", "jdk.internal"),
            regex("stack frame", "\\bat [a-zA-Z_$][\\w$]*(?:\\.[\\w$]+)+\\("),
            regex("stack frame", "\\.java:\\d+\\)"), literal("stack trace", "Caused by:"),
            regex("exception class name", "\\b[A-Z][a-zA-Z0-9]*[a-z0-9](?:Exception|Error|Throwable)\\b"));

    private static final List<Marker> SQL = List.of(
            literal("SQL", "SELECT "), literal("SQL", "INSERT INTO"), literal("SQL", "DELETE FROM"),
            literal("SQL", "UPDATE "), literal("SQL", " WHERE "), literal("SQL", "SQLSTATE"),
            literal("SQL", "Duplicate entry"), literal("SQL", "syntax to use near"), literal("SQL", "jOOQ"),
            literal("SQL", "Deadlock found"), literal("SQL", "scheduled_tasks"), literal("SQL", "idempotency_record"));

    private static final List<Marker> PATHS = List.of(
            literal("file path", "/work/"), literal("file path", "/home/"), literal("file path", "/root/"),
            literal("file path", "/tmp/"), literal("file path", "/usr/"), literal("file path", "/var/"),
            literal("file path", "/opt/"), literal("file path", "/etc/"), literal("file path", "C:\\"),
            literal("packaging internals", "BOOT-INF"), literal("file path", "file:/"),
            literal("server software", "Apache Tomcat"), literal("server software", "Tomcat/"));

    /**
     * Configuration data that legitimately looks like a marker: the sandbox catalog's description of
     * {@code db-prod-readonly} ("SELECT on the production reporting replica").
     */
    private static final List<String> ALLOWED_TEXT = List.of("SELECT on the production reporting replica");

    private Leaks() {
    }

    /**
     * The leaks in {@code response} that are not in {@code requestText}, as {@code "marker: excerpt"}.
     *
     * @param staticContent a 2xx page, script or style sheet of the web app: only paths and stack traces count there
     *                      (a JavaScript bundle legitimately names {@code TypeError})
     */
    public static List<String> find(String responseText, String requestText, boolean staticContent) {
        var text = responseText;
        for (var allowed : ALLOWED_TEXT) {
            text = text.replace(allowed, "");
        }
        var request = requestText == null ? "" : requestText;
        var found = new ArrayList<String>();
        var markers = new ArrayList<Marker>(PATHS);
        if (!staticContent) {
            markers.addAll(CODE);
            markers.addAll(SQL);
        } else {
            markers.add(regex("stack frame", "\\.java:\\d+\\)"));
            markers.add(literal("stack trace", "Caused by:"));
        }
        for (var marker : markers) {
            var matcher = marker.pattern().matcher(text);
            while (matcher.find()) {
                var hit = matcher.group();
                if (!request.contains(hit) && !request.toLowerCase(Locale.ROOT).contains(hit.toLowerCase(Locale.ROOT))) {
                    var from = Math.max(0, matcher.start() - 40);
                    var to = Math.min(text.length(), matcher.end() + 40);
                    found.add(marker.name() + ": ..." + text.substring(from, to).replaceAll("\\s+", " ") + "...");
                    break;
                }
            }
        }
        return found;
    }

    private static Marker literal(String name, String text) {
        return new Marker(name, Pattern.compile(Pattern.quote(text)));
    }

    private static Marker regex(String name, String pattern) {
        return new Marker(name, Pattern.compile(pattern));
    }
}
