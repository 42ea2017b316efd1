package io.changeflow.sandbox.deploy;

import static io.changeflow.sandbox.support.CallbackRecorder.deployOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.support.CallbackRecorder;
import io.changeflow.sandbox.support.SimulatorHttpTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

class DeployPipelineSimulatorTest extends SimulatorHttpTest {

    @Autowired
    DeployPipelineSimulator simulator;

    @AfterEach
    void tearDown() {
        faults.clear();
        simulator.lostShare(0);
        simulator.includeOperationIds(true);
        simulator.reset();
        recorder.clear();
    }

    @Test
    void callsBackInMergeOrderWithTheOperationIdsOfTheDescription() {
        var project = project();
        var operationIds = new ArrayList<String>();
        for (long iid = 1; iid <= 12; iid++) {
            var operationId = UUID.randomUUID().toString();
            operationIds.add(operationId);
            simulator.merged(project, iid, "Grant access\n\nChangeflow-Operation: " + operationId.toUpperCase() + "\n");
        }

        var callbacks = bodies(recorder.await(deployOf(project), 12, WAIT));

        assertThat(callbacks).extracting(b -> b.get("mrIid").asLong()).containsExactly(LongStream.rangeClosed(1, 12).boxed()
                .toArray(Long[]::new));
        assertThat(callbacks).extracting(b -> b.get("status").asString()).containsOnly("success");
        assertThat(callbacks).extracting(b -> b.get("operationIds").get(0).asString()).containsExactlyElementsOf(operationIds);
    }

    /** Issue 37: a deploy of the default branch at a commit, asked for under /sandbox/faults; a bad sha is refused. */
    @Test
    void reportsADeployOfMainAtACommitWhenAskedAndRefusesABadSha() {
        var project = project();
        var sha = "0123456789abcdef0123456789abcdef01234567";

        var sent = http.post("/sandbox/faults/deploy/commit-reports", "{\"projectId\":\"" + project + "\",\"sha\":\"" + sha + "\"}");

        assertThat(sent.status()).isEqualTo(202);
        var body = bodies(recorder.await(deployOf(project), 1, WAIT)).getFirst();
        assertThat(body.get("sha").asString()).isEqualTo(sha);
        assertThat(body.get("ref").asString()).isEqualTo("main");
        assertThat(body.get("status").asString()).isEqualTo("success");
        assertThat(body.has("mrIid")).isFalse();
        assertThat(http.post("/sandbox/faults/deploy/commit-reports", "{\"projectId\":\"" + project + "\",\"sha\":\"abc\"}")
                .status()).isEqualTo(400);
        assertThat(http.post("/sandbox/faults/deploy/commit-reports", "{\"sha\":\"" + sha + "\"}").status()).isEqualTo(400);
    }

    @Test
    void recordsEveryReportItSendsWithTheOperationsItNamesAndNotTheLostOnes() {
        var project = project();
        var named = UUID.randomUUID().toString();
        simulator.merged(project, 1, "Changeflow-Operation: " + named.toUpperCase());
        simulator.lostShare(1);
        simulator.merged(project, 2, "Changeflow-Operation: " + UUID.randomUUID());
        simulator.lostShare(0);
        simulator.includeOperationIds(false);
        simulator.merged(project, 3, "Changeflow-Operation: " + UUID.randomUUID());

        assertThat(simulator.sentReports()).extracting(DeployPipelineSimulator.SentReport::mrIid).containsExactly(1L, 3L);
        assertThat(simulator.sentReports().getFirst().operationIds()).containsExactly(named);
        assertThat(simulator.sentReports().getLast().operationIds()).isEmpty();
        assertThat(simulator.sentReports()).allSatisfy(r -> assertThat(r.project()).isEqualTo(project));
        recorder.await(deployOf(project), 2, WAIT);
        simulator.reset();
        assertThat(simulator.sentReports()).isEmpty();
    }

    @Test
    void omitsOperationIdsWhenSwitchedOffOrNoneAreListed() {
        var project = project();
        simulator.merged(project, 1, "no marker here");
        simulator.includeOperationIds(false);
        simulator.merged(project, 2, "Changeflow-Operation: " + UUID.randomUUID());

        var callbacks = bodies(recorder.await(deployOf(project), 2, WAIT));

        assertThat(callbacks).allSatisfy(body -> assertThat(body.has("operationIds")).isFalse());
        assertThat(callbacks.getFirst().get("projectId").asString()).isEqualTo(project);
    }

    @Test
    void parsesEveryOperationLineOfABatchDescription() {
        var first = UUID.randomUUID().toString();
        var second = UUID.randomUUID().toString();

        var ids = DeployPipelineSimulator.operationIds("""
                Batch of 2
                Changeflow-Operation: %s
                  Changeflow-Operation:   %s \r
                Changeflow-Operation: not-a-uuid
                See Changeflow-Operation: %s inline""".formatted(first, second, UUID.randomUUID()));

        assertThat(ids).containsExactly(first, second);
    }

    @Test
    void losesTheConfiguredShareAndKeepsTheRestInOrder() {
        var project = project();
        faults.reseed(20260101);
        simulator.lostShare(0.5);

        for (long iid = 1; iid <= 40; iid++) {
            simulator.merged(project, iid, "");
        }

        var lost = simulator.lostCallbacks().stream().filter(l -> l.project().equals(project))
                .map(DeployPipelineSimulator.LostCallback::mrIid).toList();
        assertThat(lost.size()).isBetween(8, 32);
        var delivered = bodies(recorder.await(deployOf(project), 40 - lost.size(), WAIT)).stream()
                .map(b -> b.get("mrIid").asLong()).toList();
        assertThat(delivered).isSorted().doesNotContainAnyElementsOf(lost);
        assertThat(delivered.size() + lost.size()).isEqualTo(40);
    }

    @Test
    void deployFaultSettingsDuplicateAndLoseCallbacks() {
        var duplicated = project();
        faults.configure(Faults.DEPLOY, new FaultSettings(0, 0, 0, 1, 0, 0, 0));
        simulator.merged(duplicated, 1, "");
        var twice = recorder.await(deployOf(duplicated), 2, WAIT);
        assertThat(twice.get(0).header("webhook-id")).isEqualTo(twice.get(1).header("webhook-id"));

        var lost = project();
        faults.configure(Faults.DEPLOY, new FaultSettings(0, 0, 0, 0, 0, 1, 0));
        simulator.merged(lost, 1, "");
        faults.clear();
        simulator.merged(lost, 2, "");

        var delivered = bodies(recorder.await(deployOf(lost), 1, WAIT));
        assertThat(delivered).extracting(b -> b.get("mrIid").asLong()).containsExactly(2L);
        assertThat(simulator.lostCallbacks()).contains(new DeployPipelineSimulator.LostCallback(lost, 1));
    }

    @Test
    void lateCallbackIsOvertakenByTheNextMerge() {
        var project = project();
        simulator.callbacks().delayNext(1, Duration.ofMillis(500));

        simulator.merged(project, 1, "");
        simulator.merged(project, 2, "");

        var callbacks = bodies(recorder.await(deployOf(project), 2, WAIT));
        assertThat(callbacks).extracting(b -> b.get("mrIid").asLong()).containsExactly(2L, 1L);
    }

    @Test
    void controlsEndpointChangesTheLostShareAndValidatesIt() {

        var changed = http.put("/sandbox/faults/deploy/controls", "{\"lostShare\": 0.25, \"includeOperationIds\": false}");
        var invalid = http.put("/sandbox/faults/deploy/controls", "{\"lostShare\": 2}");

        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().get("data").get("lostShare").asDouble()).isEqualTo(0.25);
        assertThat(simulator.lostShare()).isEqualTo(0.25);
        assertThat(simulator.includeOperationIds()).isFalse();
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(simulator.lostShare()).isEqualTo(0.25);
    }

    private static String project() {
        return "platform/test-" + UUID.randomUUID();
    }

    private static List<JsonNode> bodies(List<CallbackRecorder.Received> received) {
        return received.stream().map(r -> JSON.readTree(r.body())).toList();
    }
}
