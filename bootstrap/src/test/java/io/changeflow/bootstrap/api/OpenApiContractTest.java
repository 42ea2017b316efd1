package io.changeflow.bootstrap.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.changeflow.bootstrap.ChangeflowApplication;
import io.changeflow.testsupport.TestDatabase;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API contract: the OpenAPI document the running app serves (sandbox profile, the real database) is the
 * checked-in {@code docs/openapi.json}, byte for byte once both are pretty-printed with sorted keys; it lists every
 * endpoint docs/api.md names; and, like the rest of monitoring, it is for operators only.
 * {@link #REGENERATE} is the command that rewrites the checked-in copy from the code.
 */
@ExtendWith(OpenApiContractTest.AfterTheApp.class)
@SpringBootTest(classes = ChangeflowApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"changeflow.embedded-db.enabled=false", "changeflow.batch.round-interval=1h",
                "changeflow.shutdown.drain-delay=0s"})
@ActiveProfiles("sandbox")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class OpenApiContractTest {

    static final String REGENERATE = "./mvnw -B -pl bootstrap -am verify -Dtest=OpenApiContractTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Dfrontend.skipTests=true -Dchangeflow.openapi.write=true "
            + "&& (cd api-contract && npm run types)";
    static final Path CHECKED_IN = Path.of("..", "docs", "openapi.json");
    private static final Path API_PROSE = Path.of("..", "docs", "api.md");
    private static final Path WORK = Path.of("target", "openapi-contract");
    /** An endpoint named in docs/api.md: a method and a path in code quotes. */
    private static final Pattern NAMED_ENDPOINT = Pattern.compile("`(GET|POST|PUT|PATCH|DELETE) (/[^\\s`?]*)");
    private static final TestDatabase DB = TestDatabase.freshSchema();
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DB.open(OpenApiContractTest.class.getSimpleName()).jdbcUrl());
        registry.add("spring.datasource.username", DB::user);
        registry.add("spring.datasource.password", DB::password);
        registry.add("changeflow.dynamic-config.file", () -> WORK.resolve("dynamic.properties").toAbsolutePath().toString());
    }

    /** Drops the schema after the app is closed (declared before {@code @SpringBootTest}, so it runs after it). */
    static final class AfterTheApp implements AfterAllCallback {

        @Override
        public void afterAll(ExtensionContext context) {
            DB.close();
        }
    }

    @Test
    void theServedDocumentIsTheCheckedInCopy() throws Exception {
        var served = canonical(get("/v3/api-docs", "otto").body());
        if (Boolean.getBoolean("changeflow.openapi.write")) {
            Files.writeString(CHECKED_IN, served, StandardCharsets.UTF_8);
        }
        var checkedIn = Files.exists(CHECKED_IN) ? canonical(Files.readString(CHECKED_IN)) : "";
        if (!served.equals(checkedIn)) {
            fail("The OpenAPI document the code serves differs from docs/openapi.json%s%nIf the change is intended, "
                    + "regenerate the copy and the web app's types, then review and commit both:%n  %s",
                    firstDifference(served.lines().toList(), checkedIn.lines().toList()), REGENERATE);
        }
    }

    /** Where two texts part, with a few lines of each. */
    static String firstDifference(List<String> served, List<String> checkedIn) {
        var line = 0;
        while (line < served.size() && line < checkedIn.size() && served.get(line).equals(checkedIn.get(line))) {
            line++;
        }
        var from = Math.max(0, line - 2);
        return String.format(" from line %d:%n  served:%n    %s%n  docs/openapi.json:%n    %s", line + 1,
                String.join("\n    ", served.subList(from, Math.min(served.size(), line + 4))),
                String.join("\n    ", checkedIn.subList(from, Math.min(checkedIn.size(), line + 4))));
    }

    @Test
    void everyEndpointOfTheProseIsInTheDocument() throws Exception {
        var document = JSON.readTree(get("/v3/api-docs", "otto").body());
        var described = new TreeSet<String>();
        document.get("paths").properties().forEach(path -> path.getValue().propertyNames()
                .forEach(method -> described.add(method.toUpperCase() + " " + path.getKey())));
        var named = new TreeMap<String, String>();
        var matcher = NAMED_ENDPOINT.matcher(Files.readString(API_PROSE));
        while (matcher.find()) {
            var path = matcher.group(2);
            if (!path.equals("/") && !path.startsWith("/assets/")) {
                named.put(matcher.group(1) + " " + path, matcher.group());
            }
        }
        assertThat(named).as("endpoints named in docs/api.md").hasSizeGreaterThan(25);
        assertThat(described).as("the document's operations").containsAll(named.keySet());
    }

    @Test
    void theDocumentIsForOperatorsOnlyLikeTheScrape() throws Exception {
        for (var path : new String[] {"/v3/api-docs", "/v3/api-docs.yaml"}) {
            var anonymous = get(path, null);
            assertThat(anonymous.statusCode()).as(path).isEqualTo(401);
            assertThat(JSON.readTree(anonymous.body()).get("code").asString()).isEqualTo("UNAUTHENTICATED");
            var requester = get(path, "alice");
            assertThat(requester.statusCode()).as(path + " as a requester").isEqualTo(403);
            assertThat(JSON.readTree(requester.body()).get("code").asString()).isEqualTo("ACCESS_DENIED");
            var operator = get(path, "otto");
            assertThat(operator.statusCode()).as(path + " as the operator").isEqualTo(200);
            assertThat(operator.headers().firstValue("Content-Security-Policy")).as("security headers").isPresent();
        }
    }

    /**
     * Issue 31, on this class's running app (no second start): the instance's version and commit in
     * {@code /actuator/info}, for operators only like the scrape, and the same in the roster of {@code /ops/instances}.
     */
    @Nested
    class InstanceVersion {

        @Test
        void actuatorInfoShowsTheVersionAndTheCommitOfTheBuildToOperatorsOnly() throws Exception {
            assertThat(get("/actuator/info", null).statusCode()).isEqualTo(401);
            assertThat(get("/actuator/info", "alice").statusCode()).isEqualTo(403);

            var info = get("/actuator/info", "otto");

            assertThat(info.statusCode()).isEqualTo(200);
            var body = JSON.readTree(info.body());
            assertThat(body.at("/build/version").asString()).matches("\\d+\\.\\d+\\.\\d+.*");
            assertThat(body.at("/git/commit/id/full").asString()).as("the commit the build was made from")
                    .isEqualTo(headCommit());
            assertThat(body.at("/instance/name").asString()).isNotBlank();
        }

        @Test
        void theRosterListsThisInstanceRunningWithTheVersionAndCommitOfItsInfo() throws Exception {
            var info = JSON.readTree(get("/actuator/info", "otto").body());
            assertThat(get("/ops/instances", "alice").statusCode()).isEqualTo(403);

            var roster = JSON.readTree(get("/ops/instances", "otto").body()).get("data");

            var self = new java.util.ArrayList<JsonNode>();
            roster.get("instances").forEach(instance -> {
                if (instance.get("name").asString().equals(info.at("/instance/name").asString())) {
                    self.add(instance);
                }
            });
            assertThat(self).singleElement().satisfies(instance -> {
                assertThat(instance.get("state").asString()).isEqualTo("RUNNING");
                assertThat(instance.get("version").asString()).isEqualTo(info.at("/build/version").asString());
                assertThat(instance.get("commit").asString()).isEqualTo(info.at("/git/commit/id/full").asString());
            });
            assertThat(roster.get("versions").get(0).asString()).isEqualTo(info.at("/build/version").asString());
        }

        /** HEAD of the repository the build ran in, as git says now. */
        private static String headCommit() throws IOException, InterruptedException {
            var git = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();
            var out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(git.waitFor()).as("git rev-parse HEAD: " + out).isZero();
            return out;
        }
    }

    private HttpResponse<String> get(String path, String user) throws IOException, InterruptedException {
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
        if (user != null) {
            request.header("X-Forwarded-User", user);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Pretty-printed with the keys of every object sorted, ending in a newline: a stable text to compare and diff. */
    static String canonical(String json) {
        return JSON.writeValueAsString(sorted(JSON.readTree(json))) + "\n";
    }

    private static Object sorted(JsonNode node) {
        if (node.isObject()) {
            var map = new TreeMap<String, Object>();
            node.properties().forEach(e -> map.put(e.getKey(), sorted(e.getValue())));
            return map;
        }
        if (node.isArray()) {
            var list = new java.util.ArrayList<Object>();
            node.forEach(element -> list.add(sorted(element)));
            return list;
        }
        return node;
    }
}
