package io.changeflow.reliability;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.longs;
import static io.changeflow.propertytesting.Generators.nearMisses;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.DynamicConfigurationProbe;
import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import io.changeflow.reliability.support.EdgeCluster;
import io.changeflow.reliability.support.Sizes;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.Poll;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Misconfiguration: generated dynamic configuration files (and Environment values behind them) never
 * open access unless the mode says exactly OPEN, and a garbled rate limit never blocks traffic.
 *
 * <ol>
 *   <li>In process, {@code reliability.misconfig.files} files through the application's real reading
 *       path ({@link DynamicConfigurationProbe}: the local adapters' file source, {@code Settings}, the access
 *       gate and the rate-limit interceptor in front of the submit handler): garbled and near-miss values,
 *       wrong case, whitespace and unicode, keys spelled wrongly, duplicates, missing keys, huge, negative and
 *       non-numeric numbers, escapes, comments and continuation lines, and whole files that are empty, not
 *       UTF-8, over 1 MiB, a directory or missing. The expectation comes from the properties format and the
 *       documented fallbacks (docs/configuration.md), not from the product's parsers: access is open only for
 *       {@code OPEN} (trimmed, ASCII case-insensitive, no control characters), or in TEST_WINDOW mode with
 *       both a window and a zone set; any other mode value is CLOSED; of 15 submissions by one person the
 *       limiter lets through min(15, limit) for a positive integer limit, min(15, 10) (the annotation's
 *       default) for a missing one and all 15 for anything else; toggles, retries, window and scope stay in
 *       their documented bounds.</li>
 *   <li>End to end, three boots of the packaged application with a garbled file (no ACCESS_MODE in the
 *       Environment): {@code 0PEN} with a limit {@code 1O}: closed, and 15 submissions never rate limited;
 *       an OPEN file that is not UTF-8: the whole file ignored, so restricted (closed window) and the default
 *       limit of 10; ` open ` with duplicate limits {@code -5} then {@code abc}: open, and 15 submissions all
 *       accepted; then, hot-reloaded into the first, {@code TE\u017fT_WINDOW} (a look-alike with U+017F) with a
 *       window around now: documented as CLOSED, so submissions must stay closed.</li>
 * </ol>
 */
class MisconfigurationReliabilityTest {

    static final int FILES = Sizes.of("reliability.misconfig.files", 5000);
    static final int SUBMISSIONS = 15;
    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final List<String> KEYS = List.of("ACCESS_MODE", "APPLY_RATE_LIMIT", "ACCESS_TEST_WINDOW", "ACCESS_ZONE",
            "workflow.approveFirst", "approval.maxRetries", "approver.mode", "ratelimit.scope", "ratelimit.windowSeconds");

    @RegisterExtension
    static final EdgeCluster edge = new EdgeCluster();

    static DynamicConfigurationProbe probe;
    static Path dir;

    @BeforeAll
    static void open() throws IOException {
        probe = new DynamicConfigurationProbe();
        dir = Files.createTempDirectory("misconfig");
    }

    @AfterAll
    static void close() {
        probe.close();
    }

    /** One generated configuration: the file's bytes (or a directory, or none) and the Environment's values. */
    record Generated(String shape, byte[] bytes, Map<String, Object> environment) {
        @Override
        public String toString() {
            return shape + " file " + Escaped.show(new String(bytes, StandardCharsets.UTF_8)) + " environment " + environment;
        }
    }

    @Test
    void generatedConfigurationFilesNeverOpenAccessUnlessExactlyOpenAndAGarbledLimitNeverBlocks() {
        var modes = new ConcurrentHashMap<String, Integer>();
        var limits = new ConcurrentHashMap<String, Integer>();
        var shapes = new ConcurrentHashMap<String, Integer>();
        var count = new AtomicInteger();
        var started = System.nanoTime();
        AssertionError failure = null;
        try {
            checkEvery(modes, limits, shapes, count);
        } catch (AssertionError e) {
            failure = e;
        }
        var ms = (System.nanoTime() - started) / 1_000_000;
        Figures.record("misconfiguration: " + FILES + " generated configuration files in process (seed " + Sizes.seed() + ")",
                count.get() + " files (shrinking included) in " + ms + " ms; file shapes:\n" + Figures.table(new TreeMap<>(shapes))
                        + "ACCESS_MODE as written -> resolved:\n" + Figures.table(new TreeMap<>(modes))
                        + "APPLY_RATE_LIMIT as written -> " + SUBMISSIONS + " submissions of one person:\n"
                        + Figures.table(new TreeMap<>(limits))
                        + "failure: " + (failure == null ? "none" : failure.getMessage()));
        if (failure != null) {
            throw failure;
        }
    }

    private static void checkEvery(Map<String, Integer> modes, Map<String, Integer> limits, Map<String, Integer> shapes,
                                   AtomicInteger count) {
        Property.forAll(configurations()).named("misconfiguration").seed(Sizes.seed()).tries(FILES).check(generated -> {
            var file = dir.resolve("dynamic-" + count.incrementAndGet() + ".properties");
            switch (generated.shape()) {
                case "directory" -> Files.createDirectories(file);
                case "missing" -> { }
                default -> Files.write(file, generated.bytes());
            }
            var outcome = probe.evaluate(file, generated.environment(), NOW, SUBMISSIONS);
            var expected = Expected.of(generated);
            shapes.merge(generated.shape(), 1, Integer::sum);
            modes.merge(expected.modeClass() + " -> " + outcome.accessMode() + (outcome.accessOpen() ? " open" : " closed"), 1, Integer::sum);
            limits.merge(expected.limitClass() + " -> " + (outcome.allowed() != expected.allowed() ? "WRONG"
                    : outcome.allowed() == SUBMISSIONS ? "all " + SUBMISSIONS + " through, as expected"
                    : "limited to the configured or default limit, as expected"), 1, Integer::sum);
            var problems = new ArrayList<String>();
            if (!outcome.accessRaw().equals(expected.access())) {
                problems.add("ACCESS_MODE read as " + outcome.accessRaw() + ", the file says " + expected.access());
            }
            if (!outcome.limitRaw().equals(expected.limit())) {
                problems.add("APPLY_RATE_LIMIT read as " + outcome.limitRaw() + ", the file says " + expected.limit());
            }
            if (outcome.accessOpen() && !expected.mayOpen()) {
                problems.add("access OPEN for mode " + expected.access() + " (" + expected.modeClass() + ")");
            }
            if (expected.modeClass().equals("exactly OPEN") && !outcome.accessOpen()) {
                problems.add("access closed for exactly OPEN");
            }
            if (expected.modeClass().equals("garbled") && !outcome.accessMode().equals("CLOSED")) {
                problems.add("garbled mode resolved to " + outcome.accessMode() + ", expected CLOSED");
            }
            if (outcome.allowed() != expected.allowed()) {
                problems.add(outcome.allowed() + " of " + SUBMISSIONS + " submissions allowed for limit " + expected.limit()
                        + " (" + expected.limitClass() + "), expected " + expected.allowed());
            }
            if (outcome.approveFirst() && !Expected.exactly(expected.values().get("workflow.approveFirst"), "true")) {
                problems.add("approveFirst on for " + expected.values().get("workflow.approveFirst"));
            }
            if (outcome.approvalMaxRetries() < 0 || outcome.approvalMaxRetries() > 10) {
                problems.add("approval.maxRetries " + outcome.approvalMaxRetries());
            }
            if (outcome.windowSeconds() < 1 || outcome.windowSeconds() > 3600) {
                problems.add("rate-limit window " + outcome.windowSeconds() + " s");
            }
            if (!outcome.scope().equals("LOCAL") && !outcome.scope().equals("CLUSTER")) {
                problems.add("rate-limit scope " + outcome.scope());
            }
            if (!problems.isEmpty()) {
                throw new AssertionError(problems + " (outcome " + outcome + ")");
            }
        });
    }

    @Test
    void theApplicationBootedWithGarbledFilesStaysClosedAndNeverBlocksOnAGarbledLimit() throws Exception {
        var cluster = edge.cluster();
        record Boot(String name, byte[] file, boolean open, int expectedAccepted, int expectedLimited) {}
        var invalidUtf8 = new byte[] {'A', 'C', 'C', 'E', 'S', 'S', '_', 'M', 'O', 'D', 'E', '=', 'O', 'P', 'E', 'N', '\n', (byte) 0xc3, (byte) 0x28, '\n'};
        var boots = List.of(
                new Boot("garbled-1", "ACCESS_MODE=0PEN\nAPPLY_RATE_LIMIT=1O\n".getBytes(StandardCharsets.UTF_8), false, 0, 0),
                new Boot("garbled-2", invalidUtf8, false, 0, SUBMISSIONS - 10),
                new Boot("garbled-3", "ACCESS_MODE =  open \t\nAPPLY_RATE_LIMIT=-5\nAPPLY_RATE_LIMIT=abc\n".getBytes(StandardCharsets.UTF_8),
                        true, SUBMISSIONS, 0));
        var problems = new ArrayList<String>();
        var figures = new StringBuilder();
        var instances = new ArrayList<AppInstance>();
        try {
            var starts = new ArrayList<CompletableFuture<AppInstance>>();
            for (var boot : boots) {
                var file = dir.resolve(boot.name() + ".properties");
                Files.write(file, boot.file());
                starts.add(CompletableFuture.supplyAsync(() -> cluster.start(boot.name(), s -> {
                    s.set("ACCESS_MODE", null).set("changeflow.dynamic-config.file", file.toString());
                    s.dynamic("ACCESS_MODE", null).dynamic("APPLY_RATE_LIMIT", null).dynamic("workflow.approveFirst", null);
                })));
            }
            for (var start : starts) {
                instances.add(start.get(240, TimeUnit.SECONDS));
            }
            for (int i = 0; i < boots.size(); i++) {
                var boot = boots.get(i);
                var instance = instances.get(i);
                var me = instance.client("alice").get("/api/me");
                var submissionsOpen = me.data().path("submissionsOpen").asBoolean(!boot.open());
                var answers = new TreeMap<String, Integer>();
                var subject = "svc-misconfig-" + UUID.randomUUID().toString().substring(0, 8);
                for (int k = 0; k < SUBMISSIONS; k++) {
                    var response = instance.client("alice").submit("db-prod-readonly", subject + "-" + k, "misconfiguration boot");
                    answers.merge(response.status() + " " + response.code(), 1, Integer::sum);
                }
                var config = instance.client("otto").get("/ops/config").data();
                figures.append(boot.name()).append(" (").append(Escaped.show(new String(boot.file(), StandardCharsets.UTF_8)))
                        .append("), started in ").append(instance.lastStartup().toMillis()).append(" ms: /api/me submissionsOpen ")
                        .append(submissionsOpen).append("; ").append(SUBMISSIONS).append(" submissions: ").append(answers)
                        .append("; /ops/config ACCESS_MODE ").append(entry(config, "ACCESS_MODE"))
                        .append(", APPLY_RATE_LIMIT ").append(entry(config, "APPLY_RATE_LIMIT")).append('\n');
                if (submissionsOpen != boot.open()) {
                    problems.add(boot.name() + ": submissionsOpen " + submissionsOpen);
                }
                var accepted = answers.getOrDefault("202 ACCEPTED", 0);
                var limited = answers.getOrDefault("429 RATE_LIMITED", 0);
                var closed = answers.getOrDefault("403 SERVICE_CLOSED", 0);
                if (accepted != boot.expectedAccepted() || limited != boot.expectedLimited()
                        || (!boot.open() && closed != SUBMISSIONS - limited)) {
                    problems.add(boot.name() + ": " + answers + ", expected " + boot.expectedAccepted() + " accepted and "
                            + boot.expectedLimited() + " rate limited");
                }
            }
            // a look-alike of TEST_WINDOW (U+017F, long s) with a window around now, hot-reloaded into the first boot:
            // docs/configuration.md makes anything but the three words CLOSED
            var lookAlike = instances.getFirst();
            var from = java.time.LocalTime.now(java.time.ZoneOffset.UTC).minusHours(1).withSecond(0).withNano(0);
            var window = from + "-" + from.plusHours(2);
            Files.writeString(dir.resolve(boots.getFirst().name() + ".properties"),
                    "ACCESS_MODE=TE\u017fT_WINDOW\nACCESS_TEST_WINDOW=" + window + "\nACCESS_ZONE=UTC\n", StandardCharsets.UTF_8);
            var otto = lookAlike.client("otto");
            Poll.untilTrue("the look-alike file applied", java.time.Duration.ofSeconds(20),
                    () -> "UTC".equals(entryRaw(otto.get("/ops/config").data(), "ACCESS_ZONE")));
            var lookAlikeOpen = lookAlike.client("alice").get("/api/me").data().path("submissionsOpen").asBoolean(true);
            var lookAlikeConfig = otto.get("/ops/config").data();
            figures.append("hot reload of ").append(boots.getFirst().name()).append(" to ACCESS_MODE=TE\\u017fT_WINDOW, window ")
                    .append(window).append(" UTC: /ops/config ACCESS_MODE ").append(entry(lookAlikeConfig, "ACCESS_MODE"))
                    .append("; /api/me submissionsOpen ").append(lookAlikeOpen).append('\n');
            if (lookAlikeOpen) {
                problems.add("ACCESS_MODE=TE\u017fT_WINDOW (a look-alike, documented as CLOSED) opened access inside the window "
                        + window + " UTC: " + entry(lookAlikeConfig, "ACCESS_MODE"));
            }
        } finally {
            for (var instance : instances) {
                instance.stop();
            }
        }
        Figures.record("misconfiguration: boots of the packaged application with garbled dynamic configuration files",
                figures + "problems: " + problems);
        assertThat(problems).isEmpty();
    }

    private static String entryRaw(tools.jackson.databind.JsonNode config, String key) {
        for (var e : config) {
            if (key.equals(e.path("key").asString(""))) {
                return e.path("raw").asString("");
            }
        }
        return "";
    }

    private static String entry(tools.jackson.databind.JsonNode config, String key) {
        for (var e : config) {
            if (key.equals(e.path("key").asString(""))) {
                return e.path("resolved").asString("") + " (" + e.path("rule").asString("") + ")";
            }
        }
        return "?";
    }

    // ---- the oracle ----

    /** What the file and Environment say, by the properties format and the documented fallbacks. */
    record Expected(Map<String, Optional<String>> values, Optional<String> access, Optional<String> limit, String modeClass,
                    boolean mayOpen, String limitClass, int allowed) {

        static Expected of(Generated generated) {
            var file = fileValues(generated);
            var values = new HashMap<String, Optional<String>>();
            for (var key : KEYS) {
                var fromFile = file.get(key);
                Optional<String> value;
                if (fromFile != null && !fromFile.isBlank()) {
                    value = Optional.of(fromFile);
                } else {
                    var env = generated.environment().get(key);
                    value = env == null || env.toString().isBlank() ? Optional.empty() : Optional.of(env.toString());
                }
                values.put(key, value);
            }
            var access = values.get("ACCESS_MODE");
            String modeClass;
            boolean mayOpen;
            if (exactly(access, "OPEN")) {
                modeClass = "exactly OPEN";
                mayOpen = true;
            } else if (access.isEmpty() || exactly(access, "TEST_WINDOW")) {
                modeClass = access.isEmpty() ? "missing" : "exactly TEST_WINDOW";
                mayOpen = values.get("ACCESS_TEST_WINDOW").isPresent() && values.get("ACCESS_ZONE").isPresent();
            } else if (exactly(access, "CLOSED")) {
                modeClass = "exactly CLOSED";
                mayOpen = false;
            } else {
                modeClass = "garbled";
                mayOpen = false;
            }
            var limit = values.get("APPLY_RATE_LIMIT");
            String limitClass;
            int allowed;
            var positive = positiveInteger(limit);
            if (limit.isEmpty()) {
                limitClass = "missing";
                allowed = Math.min(SUBMISSIONS, DynamicConfigurationProbe.annotatedDefaultLimit());
            } else if (positive > 0) {
                limitClass = "a positive integer";
                allowed = (int) Math.min(SUBMISSIONS, positive);
            } else {
                limitClass = "garbled, zero or negative";
                allowed = SUBMISSIONS;
            }
            return new Expected(values, access, limit, modeClass, mayOpen, limitClass, allowed);
        }

        /** {@code word} trimmed, in any ASCII case, and nothing else (no control characters, no look-alikes). */
        static boolean exactly(Optional<String> value, String word) {
            if (value.isEmpty() || value.get().codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
                return false;
            }
            var text = value.get().strip();
            return text.chars().allMatch(c -> c < 128) && text.equalsIgnoreCase(word);
        }

        /** The value as a positive integer (ASCII digits, optional plus sign, surrounding whitespace), else 0. */
        static long positiveInteger(Optional<String> value) {
            if (value.isEmpty() || value.get().codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r')) {
                return 0;
            }
            var text = value.get().strip();
            if (!text.matches("\\+?[0-9]+")) {
                return 0;
            }
            var digits = text.replace("+", "").replaceFirst("^0+(?=.)", "");
            return digits.length() > 18 ? Long.MAX_VALUE : Math.max(0, Long.parseLong(digits));
        }

        /** The keys of the file by java.util.Properties (keys and values trimmed); none for an unreadable file. */
        static Map<String, String> fileValues(Generated generated) {
            if (!generated.shape().equals("text") || generated.bytes().length > 1024 * 1024) {
                return Map.of();
            }
            try {
                var text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(generated.bytes())).toString();
                var properties = new Properties();
                properties.load(new StringReader(text));
                var values = new HashMap<String, String>();
                properties.forEach((k, v) -> values.put(k.toString().strip(), v.toString().strip()));
                return values;
            } catch (CharacterCodingException | IllegalArgumentException e) {
                return Map.of();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    // ---- generators ----

    static Generator<String> values(String key) {
        Generator<String> numbers = s -> switch ((int) s.draw(9)) {
            case 0 -> Long.toString(longs(-50, 50).generate(s));
            case 1 -> elements("99999999999999999999999", "9223372036854775807", "-9223372036854775808", "2147483648",
                    "0", "-0", "+7", "007", "1e3", "1.5", "0x10", "1_000", "１０", "\u0663", "10 20", "ten", "∞", "NaN").generate(s);
            case 2 -> Long.toString(longs(1, 30).generate(s));
            default -> nearMisses("10", "3", "60", "0").generate(s);
        };
        return switch (key) {
            case "ACCESS_MODE" -> s -> switch ((int) s.draw(6)) {
                // U+017F (long s) and U+0131 (dotless i) upper-case to ASCII letters: look-alikes, not the documented words
                case 0 -> elements("OPEN", "open", " Open ", "OPEN\t", "CLOSED", "TEST_WINDOW", "test_window", "", " ",
                        "TE\u017fT_WINDOW", "te\u017ft_w\u0131ndow", "CLO\u017fED").generate(s);
                case 1 -> anyStrings(12).generate(s);
                default -> nearMisses("OPEN", "TEST_WINDOW", "CLOSED").generate(s);
            };
            case "APPLY_RATE_LIMIT", "approval.maxRetries", "ratelimit.windowSeconds" -> numbers;
            case "ACCESS_TEST_WINDOW" -> nearMisses("09:00-18:00", "MON-FRI 00:00-23:59", "00:00-00:00");
            case "ACCESS_ZONE" -> nearMisses("UTC", "Europe/Berlin", "Mars/Olympus");
            case "workflow.approveFirst" -> nearMisses("true", "false", "yes", "1");
            case "approver.mode" -> nearMisses("CLIENT_LIBRARY", "DIRECT_HTTP", "direct-http");
            default -> nearMisses("local", "cluster");
        };
    }

    /** A key as written: mostly right, sometimes in another case, with look-alikes, or padded. */
    static Generator<String> keySpelling(String key) {
        return s -> switch ((int) s.draw(8)) {
            case 0 -> key.toLowerCase(Locale.ROOT);
            case 1 -> nearMisses(key).generate(s).replace("\n", "").replace("\r", "");
            case 2 -> "  " + key + "\t";
            default -> key;
        };
    }

    static Generator<Generated> configurations() {
        return s -> {
            var shape = switch ((int) s.draw(40)) {
                case 0 -> "missing";
                case 1 -> "directory";
                default -> "text";
            };
            var text = new StringBuilder();
            if (s.draw(15) == 0) {
                text.append('\ufeff');
            }
            for (var key : KEYS) {
                for (var times = s.draw(4); times > 0; times--) {
                    if (s.draw(6) == 0) {
                        text.append(elements("# a comment\n", "! another\n", "\n", "   \n", "garbage line without separator\n",
                                "=value without key\n", "\\\n").generate(s));
                    }
                    var value = values(key).generate(s);
                    var escaped = switch ((int) s.draw(10)) {
                        case 0 -> value.replace("O", "\\u004f");
                        case 1 -> value + "\\\n    continued";
                        case 2 -> value.replace("\n", "\\n");
                        default -> value.replace("\n", "").replace("\r", "");
                    };
                    text.append(keySpelling(key).generate(s)).append(elements("=", ":", " ", " = ", "\t:").generate(s))
                            .append(escaped).append(s.draw(8) == 0 ? "\r\n" : "\n");
                }
            }
            var bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            switch ((int) s.draw(30)) {
                case 0 -> bytes = new byte[0];
                case 1 -> {
                    var broken = java.util.Arrays.copyOf(bytes, bytes.length + 2);
                    broken[bytes.length] = (byte) 0xff;
                    broken[bytes.length + 1] = (byte) 0xfe;
                    bytes = broken;
                }
                case 2 -> {
                    if (s.draw(10) == 0) {
                        var big = new StringBuilder(text);
                        while (big.length() <= 1024 * 1024) {
                            big.append("# padding ").append("x".repeat(1000)).append('\n');
                        }
                        bytes = big.toString().getBytes(StandardCharsets.UTF_8);
                    }
                }
                case 3 -> bytes = "ACCESS_MODE=\\uZZZZ\nAPPLY_RATE_LIMIT=1\n".getBytes(StandardCharsets.UTF_8);
                default -> { }
            }
            var environment = new LinkedHashMap<String, Object>();
            if (s.draw(3) == 0) {
                environment.put("ACCESS_MODE", values("ACCESS_MODE").generate(s));
            }
            if (s.draw(3) == 0) {
                environment.put("APPLY_RATE_LIMIT", values("APPLY_RATE_LIMIT").generate(s));
            }
            return new Generated(shape, shape.equals("text") ? bytes : new byte[0], environment);
        };
    }

    /** Shows text with invisible characters escaped (for figures and counterexamples). */
    static final class Escaped {
        static String show(String text) {
            var out = new StringBuilder();
            text.codePoints().limit(600).forEach(c -> {
                if (c == ' ' || (c < 128 && !Character.isISOControl(c))) {
                    out.appendCodePoint(c);
                } else {
                    out.append("\\u%04x".formatted(c));
                }
            });
            return out.toString();
        }

        private Escaped() {
        }
    }
}
