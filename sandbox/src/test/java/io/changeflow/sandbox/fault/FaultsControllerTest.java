package io.changeflow.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.support.SimulatorHttpTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultsControllerTest extends SimulatorHttpTest {

    @AfterEach
    void tearDown() {
        faults.clear();
    }

    @Test
    void listsTheSettingsOfEverySystem() {
        var answer = http.get("/sandbox/faults");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("code").asString()).isEqualTo("OK");
        assertThat(answer.json().get("data").propertyNames()).containsExactly("gitlab", "approval", "deploy");
        assertThat(answer.json().get("data").get("gitlab").get("errorRate").asDouble()).isZero();
    }

    @Test
    void replacesTheSettingsOfOneSystem() {
        var answer = http.put("/sandbox/faults/approval", """
                {"latencyMillis": 250, "errorRate": 0.1, "lostResponseRate": 0.2, "duplicateRate": 0.3,
                 "lateRate": 0.4, "lateMillis": 5000}""");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(faults.settings(Faults.APPROVAL)).isEqualTo(new FaultSettings(250, 0.1, 0.2, 0.3, 0.4, 0, 5000));
        assertThat(http.get("/sandbox/faults").json().get("data").get("approval").get("lateMillis").asLong())
                .isEqualTo(5000);
        assertThat(faults.settings(Faults.DEPLOY)).isEqualTo(FaultSettings.NONE);
    }

    @Test
    void refusesBadValuesWith400AndKeepsTheOldSettings() {
        faults.configure(Faults.DEPLOY, new FaultSettings(0, 0, 0, 0.5, 0, 0, 0));

        assertThat(http.put("/sandbox/faults/deploy", "{\"duplicateRate\": 1.5}").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "{\"errorRate\": -0.1}").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "{\"latencyMillis\": -1}").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "{\"latencyMillis\": 1.5}").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "{\"errorRate\": \"high\"}").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "{\"errorrate\": 0.5}").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "[1, 2]").status()).isEqualTo(400);
        assertThat(http.put("/sandbox/faults/deploy", "{not json").status()).isEqualTo(400);
        var unknownSystem = http.put("/sandbox/faults/jenkins", "{}");

        assertThat(unknownSystem.status()).isEqualTo(400);
        assertThat(unknownSystem.json().get("code").asString()).isEqualTo("INVALID_REQUEST");
        assertThat(unknownSystem.json().get("data").isNull()).isTrue();
        assertThat(faults.settings(Faults.DEPLOY)).isEqualTo(new FaultSettings(0, 0, 0, 0.5, 0, 0, 0));
    }

    @Test
    void clearsAndReseeds() {
        faults.configure(Faults.GITLAB, new FaultSettings(10, 0, 0, 0, 0, 0, 0));

        assertThat(http.delete("/sandbox/faults").status()).isEqualTo(200);
        assertThat(faults.all()).isEmpty();
        assertThat(http.post("/sandbox/faults/seed", "{\"seed\": 42}").status()).isEqualTo(200);
        assertThat(http.post("/sandbox/faults/seed", "{\"seed\": \"x\"}").status()).isEqualTo(400);
    }
}
