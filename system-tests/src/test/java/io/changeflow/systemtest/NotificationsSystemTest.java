package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.FreePorts;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Issue 32 acceptance on the packaged jar as {@code ./start} runs it (sandbox profile, its own SMTP server and chat
 * webhook receiver): a request in effect gives one e-mail and one webhook message, each with the request page's
 * link; with the mail server down the next request still reaches VALIDATED, and its mail arrives once the server
 * is back.
 */
class NotificationsSystemTest {

    private static AppInstance app;

    @BeforeAll
    static void start() throws IOException {
        var output = Path.of(System.getProperty("system.output", "target/system-tests"))
                .resolve(NotificationsSystemTest.class.getSimpleName()).toAbsolutePath();
        deleteRecursively(output.resolve("notify"));
        app = AppInstance.prepare("notify", InstanceSettings.empty().set("spring.profiles.active", "sandbox")
                .set("sandbox.mail.port", String.valueOf(FreePorts.pick())), output, null);
        app.start(Duration.ofSeconds(300)); // an upper bound: about 30 s on an idle machine, minutes on a loaded 2-core one
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    private static JsonNode received() {
        var answer = app.client(null).get("/sim/notifications");
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        return answer.data();
    }

    private static List<JsonNode> mailsAbout(String id, String subject) {
        var out = new ArrayList<JsonNode>();
        received().path("mails").forEach(m -> {
            if (m.path("body").asString().contains("/requests/" + id) && m.path("subject").asString().equals(subject)) {
                out.add(m);
            }
        });
        return out;
    }

    private static List<JsonNode> chatAbout(String id) {
        var out = new ArrayList<JsonNode>();
        received().path("chat").forEach(m -> {
            if (m.path("text").asString().contains("/requests/" + id)) {
                out.add(m);
            }
        });
        return out;
    }

    private static String validated(String subject) {
        var alice = app.client("alice");
        var submitted = alice.submit("db-prod-readonly", subject, "system test: notifications");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var done = Poll.until("request " + id + " VALIDATED", Duration.ofSeconds(120), Duration.ofMillis(500),
                () -> alice.request(id), RequestView::isAtRest);
        assertThat(done.status()).as(done.toString()).isEqualTo("VALIDATED");
        return id;
    }

    @Test
    void aRequestInEffectIsMailedAndPostedOnceWithItsLinkAndAMailServerThatIsDownChangesNothingInTheWorkflow() {
        var login = app.client(null).post("/sandbox/login", Map.of("user", "alice"));
        assertThat(login.code()).isEqualTo("SIGNED_IN");

        var first = validated("alice");
        var started = System.nanoTime();
        var mails = Poll.until("the in-effect mail of " + first, Duration.ofSeconds(20), Duration.ofMillis(500),
                () -> mailsAbout(first, "[Changeflow] In effect"), list -> !list.isEmpty());
        Poll.until("the webhook message of " + first, Duration.ofSeconds(20), Duration.ofMillis(500),
                () -> chatAbout(first), list -> !list.isEmpty());
        Figures.record("notifications: VALIDATED to the mail in the sandbox mailbox",
                (System.nanoTime() - started) / 1_000_000 + " ms (job every 5 s)");
        assertThat(mails).singleElement().satisfies(m -> assertThat(m.path("to").asString()).isEqualTo("alice@corp.example"));
        assertThat(mailsAbout(first, "[Changeflow] Request accepted")).hasSize(1);
        assertThat(chatAbout(first)).singleElement().satisfies(m -> {
            assertThat(m.path("channel").asString()).isEqualTo("requests");
            assertThat(m.path("text").asString()).contains("In effect").contains("/requests/" + first + "|");
        });
        var page = app.client(null).get("/sim/notifications/page", Map.of("Accept", "text/html"));
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("[Changeflow] In effect").contains("/requests/" + first);

        var down = app.client(null).post("/sim/notifications/mail-server", Map.of("running", false));
        assertThat(down.status()).as(down.toString()).isEqualTo(200);
        var second = validated("svc-notify-down");
        assertThat(mailsAbout(second, "[Changeflow] In effect")).as("the server is down").isEmpty();
        var up = app.client(null).post("/sim/notifications/mail-server", Map.of("running", true));
        assertThat(up.status()).as(up.toString()).isEqualTo(200);

        var late = Poll.until("the in-effect mails of " + second + " once the server is back", Duration.ofSeconds(30),
                Duration.ofMillis(500), () -> mailsAbout(second, "[Changeflow] In effect"), list -> list.size() >= 2);
        assertThat(late).as("the requester and the subject, once each").extracting(m -> m.path("to").asString())
                .containsExactlyInAnyOrder("alice@corp.example", "svc-notify-down@corp.example");
        assertThat(app.client("alice").request(second).status()).isEqualTo("VALIDATED");
        assertThat(mailsAbout(first, "[Changeflow] In effect")).as("still once").hasSize(1);
        assertThat(chatAbout(first)).as("still once").hasSize(1);
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
