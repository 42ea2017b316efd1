package io.changeflow.adapter.web;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Every response body the test suite produces (MockMvc, real HTTP, direct servlet responses), so
 * {@link ResponseBodyScanExtension} can check after each test that none leaks internals.
 */
public final class ResponseCorpus {

    /** One captured body. */
    record Captured(String source, String body) {}

    private static final ConcurrentLinkedQueue<Captured> PENDING = new ConcurrentLinkedQueue<>();
    private static final AtomicLong SCANNED = new AtomicLong();

    private static final List<Pattern> LEAKS = List.of(
            Pattern.compile("Exception"),
            Pattern.compile("Throwable"),
            Pattern.compile("Caused by"),
            Pattern.compile("\\bat (io|java|jdk|org|com|tools|jakarta|sun)\\."),
            Pattern.compile("\\.java:\\d+"),
            Pattern.compile("java\\.(lang|io|util|sql|net)"),
            Pattern.compile("org\\.springframework|tools\\.jackson|com\\.fasterxml|jakarta\\.servlet|org\\.apache"),
            Pattern.compile("(?i)\\bselect\\b[^\"]{0,80}\\bfrom\\b|\\binsert\\s+into\\b|\\bupdate\\s+\\w+\\s+set\\b|\\bdelete\\s+from\\b"),
            Pattern.compile("(?i)sqlstate|jdbc:|syntax error|duplicate entry"));

    private ResponseCorpus() {
    }

    public static void record(String source, String body) {
        if (body != null && !body.isEmpty()) {
            PENDING.add(new Captured(source, body));
        }
    }

    /** The leaks found in bodies captured since the last drain (which this empties). */
    static List<String> drainLeaks() {
        var leaks = new ArrayList<String>();
        Captured captured;
        while ((captured = PENDING.poll()) != null) {
            SCANNED.incrementAndGet();
            leaks.addAll(leaksIn(captured));
        }
        return leaks;
    }

    static List<String> leaksIn(Captured captured) {
        var leaks = new ArrayList<String>();
        for (var pattern : LEAKS) {
            var matcher = pattern.matcher(captured.body());
            if (matcher.find()) {
                leaks.add(captured.source() + " leaks '" + matcher.group() + "' in: " + abbreviate(captured.body()));
            }
        }
        return leaks;
    }

    /** How many bodies were scanned so far in this JVM. */
    static long scanned() {
        return SCANNED.get();
    }

    private static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "...";
    }
}
