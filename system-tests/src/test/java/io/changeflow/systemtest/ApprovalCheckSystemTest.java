package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's acceptance for the approval check, on the packaged application in the sandbox profile
 * (embedded database, simulators in the same process): with every approval callback lost
 * ({@code PUT /sandbox/faults/approval {"lostCallbackRate": 1}}) a request still reaches VALIDATED
 * within {@code approval-check.after} + 1 minute, with nothing done by hand: the approval check asks
 * the approval system and finds the decision.
 */
class ApprovalCheckSystemTest {

    private static final Duration AFTER = Duration.ofSeconds(15);
    private static final Duration BOUND = AFTER.plus(Duration.ofMinutes(1));

    private static AppInstance app;

    @BeforeAll
    static void start() {
        var output = Path.of(System.getProperty("system.output", "target/system-tests"))
                .resolve(ApprovalCheckSystemTest.class.getSimpleName()).toAbsolutePath();
        app = AppInstance.prepare("approval-check", InstanceSettings.empty()
                .set("spring.profiles.active", "sandbox")
                .set("changeflow.workflow.approval-check.after", AFTER.toSeconds() + "s")
                .set("changeflow.workflow.approval-check.every", "5s"), output, null);
        // generous: on a loaded 2-core host the JVM alone can take over a minute to start
        app.start(Duration.ofMinutes(5));
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aRequestWhoseApprovalCallbacksAreAllLostReachesValidatedWithinTheCheckDelayPlusAMinute() {
        var otto = app.client("otto");
        var faults = otto.put("/sandbox/faults/approval", Map.of("lostCallbackRate", 1));
        assertThat(faults.status()).as(faults.toString()).isEqualTo(200);

        var alice = app.client("alice");
        var submitted = alice.submit("db-prod-readonly", "alice", "approval callbacks are lost");
        assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
        var id = submitted.data().path("operationId").asString();
        var started = System.nanoTime();

        var done = Poll.until("request " + id + " VALIDATED although every approval callback is lost",
                BOUND.plusSeconds(30), Duration.ofSeconds(1), () -> alice.request(id),
                v -> "VALIDATED".equals(v.status()) || v.isTerminal());
        var took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(done.status()).as(done.toString()).isEqualTo("VALIDATED");
        assertThat(took).as("approval-check.after (" + AFTER + ") + 1 minute").isLessThanOrEqualTo(BOUND);
        var granted = 0;
        for (var entry : otto.operation(id).path("history")) {
            if (entry.path("event").asString("").startsWith("APPROVAL_GRANTED")) {
                granted++;
            }
        }
        assertThat(granted).as("the approval was applied exactly once").isEqualTo(1);
        Figures.record("approval callbacks all lost (sandbox, approval-check.after " + AFTER.toSeconds() + "s)",
                "VALIDATED " + took.toMillis() + " ms after submission, nothing done by hand");
    }
}
