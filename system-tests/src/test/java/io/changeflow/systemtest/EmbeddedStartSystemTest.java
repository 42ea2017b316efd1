package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The newcomer's path of the README: {@code java -jar changeflow.jar --spring.profiles.active=sandbox}
 * (what {@code ./start} runs) in an empty working directory, no database configured. It starts its
 * own MariaDB under {@code data/mariadb}, is healthy within 60 s, serves the web app at {@code /},
 * signs in demo users, takes a request to VALIDATED with the simulators in the same process, and
 * stops cleanly on SIGTERM, taking its MariaDB with it.
 */
class EmbeddedStartSystemTest {

    private static AppInstance app;

    @BeforeAll
    static void startInAnEmptyDirectory() throws IOException {
        var output = Path.of(System.getProperty("system.output", "target/system-tests"))
                .resolve(EmbeddedStartSystemTest.class.getSimpleName()).toAbsolutePath();
        deleteRecursively(output.resolve("newcomer"));
        app = AppInstance.prepare("newcomer", InstanceSettings.empty().set("spring.profiles.active", "sandbox"), output, null);
    }

    @AfterAll
    static void cleanUp() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void theSandboxStartsWithItsOwnDatabaseServesTheWebAppAndTakesARequestToValidated() {
        app.start(Duration.ofSeconds(60));
        Figures.record("embedded default run (sandbox profile, fresh MariaDB)", "healthy after "
                + app.lastStartup().toMillis() + " ms");
        assertThat(app.workDir().resolve("data/mariadb")).isDirectory();
        assertThat(app.workDir().resolve("config/dynamic.properties")).as("created on first start").isRegularFile();

        var page = app.client(null).get("/", Map.of("Accept", "text/html"));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.header("Cache-Control")).contains("no-store");
        assertThat(page.body()).contains("<div id=\"root\"></div>").contains("<title>Changeflow</title>");

        var users = app.client(null).get("/sandbox/demo-users");
        assertThat(users.status()).isEqualTo(200);
        assertThat(users.body()).contains("\"alice\"").contains("\"otto\"");
        var login = app.client(null).post("/sandbox/login", Map.of("user", "alice"));
        assertThat(login.code()).isEqualTo("SIGNED_IN");
        assertThat(login.header("Set-Cookie")).contains("cf_demo_user=alice");

        var alice = app.client("alice");
        var me = alice.get("/api/me");
        assertThat(me.data().path("sandbox").asBoolean()).isTrue();
        assertThat(me.data().path("submissionsOpen").asBoolean()).isTrue();
        var submitted = alice.submit("db-prod-readonly", "alice", "first day");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var started = System.nanoTime();
        var done = Poll.until("the newcomer's request VALIDATED", Duration.ofSeconds(60), Duration.ofMillis(500),
                () -> alice.request(id), RequestView::isAtRest);
        assertThat(done.status()).as(done.toString()).isEqualTo("VALIDATED");
        Figures.record("embedded default run: a request with the in-process simulators",
                "VALIDATED " + (System.nanoTime() - started) / 1_000_000 + " ms after submission (sandbox timings)");

        var exit = app.stop(Duration.ofSeconds(40));
        assertThat(exit).as("exit code after SIGTERM").isIn(0, 143);
        assertThat(app.survivingChildren()).as("the embedded MariaDB stops with the app").isEmpty();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (var path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
