package io.changeflow.reliability;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.nearMisses;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import io.changeflow.propertytesting.Source;
import io.changeflow.reliability.support.EdgeCluster;
import io.changeflow.reliability.support.Leaks;
import io.changeflow.reliability.support.RawHttp;
import io.changeflow.reliability.support.Sizes;
import io.changeflow.reliability.support.Webhooks;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.Figures;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad input: generated malformed requests against every endpoint of the packaged application (the
 * production-profile instance of the {@link EdgeCluster} for the user, callback, operations, static and
 * actuator endpoints; the sandbox-profile instance for the demo sign-in, fault switch and approver
 * inbox), {@code reliability.badInput.tries} per endpoint (the in-house property runner: seeded, the
 * first failure shrunk to a small counterexample).
 *
 * <p>Each request varies, per endpoint: the caller (none, a person, the operator, a garbled, duplicated
 * or over-long identity header, demo cookies), the path parameters (unicode, encoded NUL, slash and
 * dot segments, traversal, SQL and markup, 8,000 characters), the query (unknown, repeated and invalid
 * parameters, broken percent-encoding, huge numbers), the method now and then, the headers
 * ({@code Content-Type}, {@code Accept}, {@code X-Forwarded-For}, signature headers, control
 * characters, UTF-8 in the head, a 12 KB header), and the body (field-by-field mutations of a valid
 * payload, wrong types, unicode, 70 KB strings, JSON nested 5,000 deep, truncated or trailing JSON,
 * invalid UTF-8, a byte-order mark, random bytes, form bodies, 100 KB bodies with and without
 * {@code Content-Length}); callback bodies are half of the time validly signed, so the garbage reaches
 * the parser behind the signature check.
 *
 * <p>Every request gets an answer with a status below 500, and no answer (status line, headers, body)
 * shows internals: stack traces, exception or class names, package names, SQL, file paths, server
 * software ({@link Leaks}; an echo of the request's own text does not count).
 */
class BadInputReliabilityTest {

    static final int TRIES = Sizes.of("reliability.badInput.tries", 60);
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final EdgeCluster edge = new EdgeCluster();

    /** Where an endpoint lives, and what a valid request to it looks like. */
    enum Body { NONE, SUBMISSION, APPROVAL_CALLBACK, DEPLOY_CALLBACK, LOGIN, FAULTS, DECISION }

    record Endpoint(boolean sandbox, String method, String template, Body body) {
        @Override
        public String toString() {
            return (sandbox ? "[sandbox] " : "") + method + " " + template;
        }
    }

    /** One generated request and where it goes. */
    record Probe(Endpoint endpoint, RawHttp.Request request) {
        @Override
        public String toString() {
            var body = new String(request.body(), StandardCharsets.UTF_8);
            return request.method() + " " + request.target() + " " + request.headers() + " framing " + request.framing()
                    + " body(" + request.body().length + " bytes) "
                    + (body.length() > 300 ? body.substring(0, 300) + "..." : body);
        }
    }

    static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint(false, "GET", "/api/me", Body.NONE),
            new Endpoint(false, "GET", "/api/targets", Body.NONE),
            new Endpoint(false, "GET", "/api/requests/preview?targetKey={target}&subjectId={text}&operationId={id}&expiresAt={text}", Body.NONE),
            new Endpoint(false, "POST", "/api/requests", Body.SUBMISSION),
            new Endpoint(false, "GET", "/api/requests/{id}", Body.NONE),
            new Endpoint(false, "GET", "/api/requests?page={number}&size={number}", Body.NONE),
            new Endpoint(false, "GET", "/api/bindings", Body.NONE),
            new Endpoint(false, "POST", "/callbacks/approval", Body.APPROVAL_CALLBACK),
            new Endpoint(false, "POST", "/callbacks/deploy", Body.DEPLOY_CALLBACK),
            new Endpoint(false, "GET", "/ops/operations?status={text}&stuckForSeconds={number}&limit={number}", Body.NONE),
            new Endpoint(false, "GET", "/ops/operations/{id}", Body.NONE),
            new Endpoint(false, "POST", "/ops/operations/{id}/retrigger", Body.NONE),
            new Endpoint(false, "POST", "/ops/operations/{id}/close", Body.NONE),
            new Endpoint(false, "POST", "/ops/batch-rounds?partition={text}", Body.NONE),
            new Endpoint(false, "GET", "/ops/batches?limit={number}", Body.NONE),
            new Endpoint(false, "POST", "/ops/batches/{number}/settle", Body.NONE),
            new Endpoint(false, "POST", "/ops/reconciliation-runs?limit={number}", Body.NONE),
            new Endpoint(false, "GET", "/ops/config", Body.NONE),
            new Endpoint(false, "GET", "/ops/stats", Body.NONE),
            new Endpoint(false, "GET", "/", Body.NONE),
            new Endpoint(false, "GET", "/index.html", Body.NONE),
            new Endpoint(false, "GET", "/assets/{text}", Body.NONE),
            new Endpoint(false, "GET", "/requests/{text}", Body.NONE),
            new Endpoint(false, "GET", "/{text}", Body.NONE),
            new Endpoint(false, "GET", "/actuator/health", Body.NONE),
            new Endpoint(false, "GET", "/actuator/prometheus", Body.NONE),
            new Endpoint(true, "GET", "/sandbox/demo-users", Body.NONE),
            new Endpoint(true, "POST", "/sandbox/login", Body.LOGIN),
            new Endpoint(true, "POST", "/sandbox/logout", Body.NONE),
            new Endpoint(true, "GET", "/sandbox/faults", Body.NONE),
            new Endpoint(true, "PUT", "/sandbox/faults/{system}", Body.FAULTS),
            new Endpoint(true, "GET", "/sim/approval/inbox", Body.NONE),
            new Endpoint(true, "POST", "/sim/approval/inbox/{number}/decision", Body.DECISION),
            new Endpoint(true, "POST", "/api/requests", Body.SUBMISSION));

    static String approvalSecret;
    static String deploySecret;

    @BeforeAll
    static void baseline() {
        EdgeCluster.applyDynamicConfig(edge.edge(), edge.edge().client("otto"), EdgeCluster.baseline());
        approvalSecret = edge.cluster().sims().approvalSecret();
        deploySecret = edge.cluster().sims().deploySecret();
    }

    @Test
    void malformedRequestsToEveryEndpointGetNoServerErrorAndLeakNoInternals() {
        var statuses = new ConcurrentHashMap<String, Integer>();
        var requests = new AtomicInteger();
        var failures = new ArrayList<String>();
        var started = System.nanoTime();
        for (var endpoint : ENDPOINTS) {
            try {
                Property.forAll(probes(endpoint)).named("bad input " + endpoint).seed(Sizes.seed() ^ endpoint.toString().hashCode())
                        .tries(TRIES).check(probe -> {
                            var to = endpoint.sandbox() ? edge.sandbox() : edge.edge();
                            var response = RawHttp.exchange(to.port(), probe.request(), TIMEOUT);
                            requests.incrementAndGet();
                            statuses.merge(endpoint.template().replaceAll("\\?.*", "") + " -> " + response.status(), 1, Integer::sum);
                            var problems = problems(to, probe, response);
                            if (!problems.isEmpty()) {
                                throw new AssertionError(problems + " for " + probe + "\n  answer: " + response);
                            }
                        });
            } catch (AssertionError failure) {
                // a generator's own failure names its cause (the test's bug, not the product's)
                failures.add(failure.getMessage() + (failure.getCause() == null ? "" : "\n  cause: " + failure.getCause()
                        + (failure.getCause().getStackTrace().length > 0 ? " at " + failure.getCause().getStackTrace()[0] : "")));
            }
        }
        var ms = (System.nanoTime() - started) / 1_000_000;
        var byStatus = new TreeMap<String, Integer>();
        statuses.forEach((k, v) -> byStatus.merge(k.substring(k.lastIndexOf(' ') + 1), v, Integer::sum));
        Figures.record("bad input: " + ENDPOINTS.size() + " endpoints x " + TRIES + " generated requests (seed " + Sizes.seed() + ")",
                requests.get() + " requests (shrinking included) in " + ms + " ms; answers by status: " + byStatus + "\n"
                        + "by endpoint and status:\n" + Figures.table(new TreeMap<>(statuses))
                        + "endpoints with a failure: " + failures.size() + "\n" + String.join("\n", failures));
        assertThat(failures).isEmpty();
    }

    /** What is wrong with {@code response}: no answer, a server error, leaked internals. */
    static List<String> problems(AppInstance to, Probe probe, RawHttp.Response response) {
        var problems = new ArrayList<String>();
        if (!response.answered()) {
            if (to.isAlive()) {
                problems.add("no answer: " + response.failure());
            } else {
                problems.add("the instance died");
            }
            return problems;
        }
        if (response.status() >= 500) {
            problems.add("server error " + response.status());
        }
        var contentType = String.valueOf(response.header("Content-Type")).toLowerCase(Locale.ROOT);
        var staticContent = response.status() < 300 && !contentType.contains("json");
        var requestText = probe.request().target() + " " + probe.request().headers() + " "
                + new String(probe.request().body(), StandardCharsets.UTF_8);
        for (var leak : Leaks.find(response.wholeText(), decoded(requestText), staticContent)) {
            problems.add("leak " + leak);
        }
        return problems;
    }

    /** The request's text as the server may echo it: also percent-decoded (an echoed path parameter is not a leak). */
    private static String decoded(String text) {
        try {
            return text + " " + java.net.URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }

    // ---- generators ----

    static Generator<Probe> probes(Endpoint endpoint) {
        return s -> {
            var method = s.draw(10) == 0 ? elements("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE", "FOO",
                    "G\u00c9T", "").generate(s) : endpoint.method();
            var utf8Head = s.draw(4) == 0;
            var target = target(endpoint, s, utf8Head);
            var body = body(endpoint, s);
            var framing = switch ((int) s.draw(12)) {
                case 0 -> RawHttp.Framing.CHUNKED;
                case 1 -> RawHttp.Framing.NONE;
                default -> RawHttp.Framing.CONTENT_LENGTH;
            };
            var request = new RawHttp.Request(method.isEmpty() ? "GET" : method, target, List.of(), body, framing, utf8Head);
            request = caller(endpoint, s, request);
            request = contentHeaders(endpoint, s, request, body);
            for (var extra = s.draw(3); extra > 0; extra--) {
                request = request.withHeader(headerName(s), headerValue(s, utf8Head));
            }
            return new Probe(endpoint, request);
        };
    }

    static final List<String> WEIRD_SEGMENTS = List.of("", " ", "%00", "%2F", "%2f..%2f..%2fetc%2fpasswd", "..", ".", "%2e%2e",
            "%", "%zz", "%C0%AF", "%E2%80%AE", "%F0%9F%9A%80", "'%20OR%201=1--", "%3Cscript%3Ealert(1)%3C/script%3E",
            "00000000-0000-0000-0000-000000000000", "null", "undefined", "-1", "9223372036854775808", "1e309", "NaN",
            "a;b", "a%3Bjsessionid=1", "~", "%5C..%5C", "${jndi:ldap://x}", "{{7*7}}", "\u00e9", "\u0130", "\ud83d\ude80");

    private static String target(Endpoint endpoint, Source s, boolean utf8Head) {
        // placeholders are read from the template only: a generated value may itself hold "{" (e.g. "{{7*7}}")
        var template = endpoint.template();
        var built = new StringBuilder();
        var from = 0;
        for (var start = template.indexOf('{'); start >= 0; start = template.indexOf('{', from)) {
            var end = template.indexOf('}', start);
            built.append(template, from, start).append(parameter(template.substring(start + 1, end), s, utf8Head));
            from = end + 1;
        }
        var path = built.append(template.substring(from)).toString();
        var query = new StringBuilder();
        for (var extra = s.draw(3); extra > 0; extra--) {
            query.append(query.isEmpty() && !path.contains("?") ? "?" : "&");
            query.append(switch ((int) s.draw(6)) {
                case 0 -> "__authenticatedOperator=" + encode(anyStrings(20).generate(s));
                case 1 -> "limit=" + elements("-1", "0", "501", "99999999999999999999", "abc", "", "1.5").generate(s);
                case 2 -> "%zz=%";
                case 3 -> encode(anyStrings(10).generate(s)) + "=" + encode(anyStrings(30).generate(s));
                case 4 -> "page=" + elements("-1", "x", "2147483648").generate(s) + "&size=" + elements("0", "101", "-5", "").generate(s);
                default -> "a=" + "x".repeat((int) s.draw(9000));
            });
        }
        return path + query;
    }

    private static String parameter(String kind, Source s, boolean utf8Head) {
        return switch ((int) s.draw(5)) {
            case 0 -> switch (kind) {
                case "id" -> UUID.nameUUIDFromBytes(Long.toString(s.draw(1000)).getBytes(StandardCharsets.UTF_8)).toString();
                case "number" -> Long.toString(s.draw(1000));
                case "target" -> elements("db-prod-readonly", "dashboards-viewer", "vpn-staging", "team-db-01").generate(s);
                case "system" -> elements("gitlab", "approval", "deploy").generate(s);
                default -> "alice";
            };
            case 1 -> elements(WEIRD_SEGMENTS).generate(s);
            case 2 -> "x".repeat(1 + (int) s.draw(8000));
            case 3 -> utf8Head ? strings(UnicodeText.UNICODE, 0, 30).generate(s).replace(" ", "%20").replace("?", "%3F")
                    .replace("#", "%23").replace("/", "%2F").replace("\r", "").replace("\n", "")
                    : encode(anyStrings(40).generate(s));
            default -> encode(nearMisses("db-prod-readonly", "550e8400-e29b-41d4-a716-446655440000", "MERGING", "global",
                    "gitlab").generate(s));
        };
    }

    private static RawHttp.Request caller(Endpoint endpoint, Source s, RawHttp.Request request) {
        if (endpoint.sandbox()) {
            return switch ((int) s.draw(5)) {
                case 0 -> request;
                case 1 -> request.withHeader("Cookie", "cf_demo_user=" + elements("otto", "alice", "amy", "bob").generate(s));
                case 2 -> request.withHeader("Cookie", "cf_demo_user=" + encode(anyStrings(40).generate(s)));
                case 3 -> request.withHeader("Cookie", "cf_demo_user=otto; cf_demo_user=alice; " + "x".repeat((int) s.draw(5000)) + "=1");
                default -> request.withHeader("X-Forwarded-User", "otto").withHeader("Cookie", "cf_demo_user=otto");
            };
        }
        return switch ((int) s.draw(8)) {
            case 0 -> request;
            case 1 -> request.withHeader("X-Forwarded-User", "alice");
            case 2, 3 -> request.withHeader("X-Forwarded-User", "otto");
            case 4 -> request.withHeader("X-Forwarded-User", printable(nearMisses("otto", "E1001", "alice").generate(s)));
            case 5 -> request.withHeader("X-Forwarded-Email", printable(nearMisses("alice@corp.example", "otto@corp.example").generate(s)));
            case 6 -> request.withHeader("X-Forwarded-User", "otto").withHeader("X-Forwarded-User", "alice");
            default -> request.withHeader("X-Forwarded-User", "o".repeat(1 + (int) s.draw(6000)));
        };
    }

    private static RawHttp.Request contentHeaders(Endpoint endpoint, Source s, RawHttp.Request request, byte[] body) {
        var contentType = s.draw(3) > 0 ? "application/json" : elements("text/plain", "application/xml",
                "application/x-www-form-urlencoded", "multipart/form-data", "application/json; charset=ebcdic",
                "application/json; charset=\u00ff", "*/*", "application/", "garbage", "").generate(s);
        if (!contentType.isEmpty()) {
            request = request.withHeader("Content-Type", contentType);
        }
        if (s.draw(3) == 0) {
            request = request.withHeader("Accept", elements("text/html", "application/xml", "image/png", "*/*",
                    "application/json;q=abc", "text/html, application/json;q=0.1", "garbage/", "").generate(s));
        }
        if (s.draw(4) == 0) {
            request = request.withHeader("X-Forwarded-For", elements("1.2.3.4", "::1", "garbage", "1.2.3.4, 999.1.1.1",
                    "127.0.0.1, , ,", "[::1]:80", "x".repeat(3000)).generate(s));
        }
        var callback = endpoint.body() == Body.APPROVAL_CALLBACK || endpoint.body() == Body.DEPLOY_CALLBACK;
        if (callback) {
            var secret = endpoint.body() == Body.APPROVAL_CALLBACK ? approvalSecret : deploySecret;
            switch ((int) s.draw(4)) {
                case 0, 1 -> {
                    var headers = Webhooks.headers(secret, Webhooks.newId(), body);
                    request = request.withHeader("webhook-id", headers.get("webhook-id"))
                            .withHeader("webhook-timestamp", headers.get("webhook-timestamp"))
                            .withHeader("webhook-signature", headers.get("webhook-signature"));
                }
                case 2 -> request = request.withHeader("webhook-id", printable(anyStrings(30).generate(s)))
                        .withHeader("webhook-timestamp", elements("0", "-1", "99999999999999999999", "abc", "").generate(s))
                        .withHeader("webhook-signature", printable(anyStrings(80).generate(s)));
                default -> { }
            }
        }
        return request;
    }

    private static String headerName(Source s) {
        return elements("X-Trace-Id", "X-Forwarded-Host", "Forwarded", "Origin", "Referer", "Range", "If-None-Match",
                "Accept-Encoding", "Accept-Language", "Content-Encoding", "Expect", "X-" + "h".repeat(200), "Cookie",
                "Authorization", "User-Agent").generate(s);
    }

    private static String headerValue(Source s, boolean utf8Head) {
        return switch ((int) s.draw(5)) {
            case 0 -> "v".repeat(1 + (int) s.draw(12_000));
            case 1 -> elements("bytes=-1-5", "gzip", "100-continue", "for=\"[::1]\";proto=gopher", "Basic ????",
                    "\u0000", "\u00ff\u00fe").generate(s);
            case 2 -> utf8Head ? strings(UnicodeText.UNICODE, 0, 40).generate(s).replace("\r", "").replace("\n", "")
                    : printable(anyStrings(40).generate(s));
            default -> printable(anyStrings(60).generate(s));
        };
    }

    private static byte[] body(Endpoint endpoint, Source s) {
        var kind = (int) s.draw(10);
        if (endpoint.body() == Body.NONE && kind < 6) {
            return new byte[0];
        }
        return switch (kind) {
            case 0, 1, 2, 3 -> mutated(endpoint.body(), s).getBytes(StandardCharsets.UTF_8);
            case 4 -> malformedJson(s);
            case 5 -> {
                var bytes = new byte[(int) s.draw(3000)];
                for (var i = 0; i < bytes.length; i++) {
                    bytes[i] = (byte) s.draw(256);
                }
                yield bytes;
            }
            case 6 -> ("{\"operationId\":\"" + "a".repeat(66_000 + (int) s.draw(40_000)) + "\"}").getBytes(StandardCharsets.UTF_8);
            case 7 -> {
                var depth = 100 + (int) s.draw(5000);
                yield ("[".repeat(depth) + "]".repeat(s.draw(2) == 0 ? depth : 0)).getBytes(StandardCharsets.UTF_8);
            }
            case 8 -> ("operationId=" + encode(anyStrings(50).generate(s)) + "&targetKey=x&reason=%zz").getBytes(StandardCharsets.UTF_8);
            default -> {
                var out = new ByteArrayOutputStream();
                out.writeBytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
                out.writeBytes(valid(endpoint.body(), s).getBytes(StandardCharsets.UTF_8));
                yield out.toByteArray();
            }
        };
    }

    /** A valid body of the endpoint's kind ({@code {}} for endpoints without one). */
    private static String valid(Body body, Source s) {
        var id = UUID.nameUUIDFromBytes(Long.toString(s.draw(1_000_000)).getBytes(StandardCharsets.UTF_8));
        return switch (body) {
            case SUBMISSION -> "{\"operationId\":\"" + id + "\",\"targetKey\":\"db-prod-readonly\",\"subjectId\":\"svc-bad\","
                    + "\"reason\":\"bad input\",\"expiresAt\":\"2030-01-01\"}";
            case APPROVAL_CALLBACK -> "{\"requestId\":\"rq-bad\",\"operationId\":\"" + id
                    + "\",\"result\":\"APPROVED\",\"ext\":{\"mrId\":\"12\"}}";
            case DEPLOY_CALLBACK -> "{\"projectId\":\"platform/access-config\",\"mrIid\":12,\"status\":\"success\",\"operationIds\":[\""
                    + id + "\"]}";
            case LOGIN -> "{\"user\":\"alice\"}";
            case FAULTS -> "{\"latencyMillis\":0,\"errorShare\":0,\"lostShare\":0}";
            case DECISION -> "{\"decision\":\"APPROVE\"}";
            case NONE -> "{}";
        };
    }

    static final List<String> FIELD_VALUES = List.of("null", "true", "false", "0", "-1", "1e400", "-0.0", "9223372036854775808",
            "[]", "{}", "[null]", "{\"$ne\":null}", "\"\"", "\" \"", "\"\\u0000\"", "\"\\ud800\"", "\"\u202e\u0130\"",
            "\"1970-01-01\"", "\"9999-12-31T23:59:59Z\"", "\"2026-02-30\"", "\"-999999999-01-01\"", "\"<script>\"",
            "\"'; DROP TABLE operation; --\"", "\"../../etc/passwd\"", "\"APPROVED\"", "\"approved\"", "\"SUCCESS\"");

    /** A valid payload with one or more fields replaced, removed, duplicated or added. */
    private static String mutated(Body body, Source s) {
        var text = valid(body, s);
        for (var edits = 1 + s.draw(3); edits > 0; edits--) {
            var fields = new ArrayList<int[]>();
            var matcher = java.util.regex.Pattern.compile("\"[A-Za-z]+\":(\"[^\"]*\"|[^,}\\]]+|\\{[^}]*\\}|\\[[^\\]]*\\])").matcher(text);
            while (matcher.find()) {
                fields.add(new int[] {matcher.start(), matcher.end(), matcher.start(1)});
            }
            if (fields.isEmpty()) {
                text = "{\"x\":" + elements(FIELD_VALUES).generate(s) + "}";
                continue;
            }
            var field = fields.get((int) s.draw(fields.size()));
            text = switch ((int) s.draw(5)) {
                case 0 -> text.substring(0, field[2]) + elements(FIELD_VALUES).generate(s) + text.substring(field[1]);
                case 1 -> text.substring(0, field[2]) + "\"" + jsonEscape(anyStrings(60).generate(s)) + "\"" + text.substring(field[1]);
                case 2 -> text.substring(0, field[2]) + "\"" + "x".repeat((int) s.draw(70_000)) + "\"" + text.substring(field[1]);
                case 3 -> text.substring(0, field[0]) + "\"_\":0" + text.substring(field[1]);
                default -> text.substring(0, field[1]) + "," + text.substring(field[0], field[1]) + text.substring(field[1]);
            };
        }
        return text;
    }

    private static byte[] malformedJson(Source s) {
        var text = switch ((int) s.draw(8)) {
            case 0 -> "{\"operationId\": ";
            case 1 -> "{} trailing";
            case 2 -> "{'single': 'quotes'}";
            case 3 -> "{\"a\":1,}";
            case 4 -> "\"just a string\"";
            case 5 -> "{\"a\":\"\\x\"}";
            case 6 -> "{\"a\":NaN}";
            default -> "{\"a\":" + "1".repeat(5000) + "}";
        };
        var bytes = text.getBytes(StandardCharsets.UTF_8);
        if (s.draw(3) == 0) {
            var broken = java.util.Arrays.copyOf(bytes, bytes.length + 2);
            broken[bytes.length] = (byte) 0xc3;
            broken[bytes.length + 1] = (byte) 0x28;
            return broken;
        }
        return bytes;
    }

    private static String jsonEscape(String text) {
        var out = new StringBuilder();
        text.chars().forEach(c -> {
            if (c == '"' || c == '\\') {
                out.append('\\').append((char) c);
            } else if (c < 0x20) {
                out.append("\\u%04x".formatted(c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }

    /** A header value RawHttp can put on the wire as ISO-8859-1 (CR and LF removed, others kept: controls included). */
    private static String printable(String text) {
        var out = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c != '\r' && c != '\n' && c <= 0xff) {
                out.appendCodePoint(c);
            } else if (c > 0xff) {
                out.append('?');
            }
        });
        return out.toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** Code points for UTF-8 request heads: unicode letters, marks, symbols and the tricky ones. */
    static final class UnicodeText {
        static final Generator<Integer> UNICODE = io.changeflow.propertytesting.Generators.<Integer>oneOf(
                ints(0x21, 0x7e), ints(0xa0, 0x2fff), ints(0x1f300, 0x1f6ff),
                elements(io.changeflow.propertytesting.Generators.TRICKY_CODE_POINTS));

        private UnicodeText() {
        }
    }
}
