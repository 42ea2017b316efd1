package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.OperatorParameters;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operators' batch endpoints on the application's batch use cases (in-memory fakes). The
 * application is shared by the whole suite, so every test batches in a partition of its own (one
 * batchable target per partition) and no test sees another's batches.
 */
class BatchesWebTest extends WebTestSupport {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private String partition;
    private TargetKey target;

    @BeforeEach
    void anOperatorAndAPartitionOfThisTest() {
        permissions.grant("otto", "ops.operator");
        partition = "web-batches-" + SEQUENCE.incrementAndGet();
        target = batchableTarget(partition);
    }

    /** An approved request of this test's partition, waiting for a batch round. */
    private OperationId waiting() {
        return waitingForARound(target, "batcher" + SEQUENCE.incrementAndGet());
    }

    private MockHttpServletRequestBuilder round() {
        return post("/ops/batch-rounds").param("partition", partition);
    }

    /** A round started over HTTP by otto: the claimed batch. */
    private Batch claimedOverHttp() throws Exception {
        var body = mvc.perform(as(round(), "otto"))
                .andExpect(answers(status().isOk(), "CLAIMED"))
                .andReturn().getResponse().getContentAsString();
        var batchId = JsonMapper.builder().build().readTree(body).get("data").get("batchId").longValue();
        return app.batches.find(batchId).orElseThrow();
    }

    /** A claimed batch whose merge request is open, its pipeline still running. */
    private Batch openBatch() throws Exception {
        waiting();
        waiting();
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var batch = claimedOverHttp();
        for (var i = 0; i < 100 && app.batches.find(batch.id()).orElseThrow().mergeRequest().isEmpty(); i++) {
            app.queue.runNext();
        }
        var open = app.batches.find(batch.id()).orElseThrow();
        assertThat(open.mergeRequest()).isPresent();
        assertThat(open.status()).isEqualTo(BatchStatus.RUNNING);
        return open;
    }

    private MockHttpServletRequestBuilder settle(long batchId) {
        return post("/ops/batches/" + batchId + "/settle");
    }

    @Test
    void aBatchRoundClaimsTheWaitingRequestsOfThePartitionAndSchedulesTheBatchStepAsTheLoggedInOperator() throws Exception {
        var first = waiting();
        var second = waiting();

        var body = mvc.perform(as(round().param(OperatorParameters.RESERVED, "mallory").param("reason", "release day"), "otto"))
                .andExpect(answers(status().isOk(), "CLAIMED"))
                .andExpect(jsonPath("$.data.partition").value(partition))
                .andExpect(jsonPath("$.data.batchId").isNumber())
                .andExpect(jsonPath("$.data.members").value(Matchers.contains(first.value(), second.value())))
                .andExpect(jsonPath("$.data.scheduled").value(true))
                .andReturn().getResponse().getContentAsString();
        var batchId = JsonMapper.builder().build().readTree(body).get("data").get("batchId").longValue();

        assertThat(app.batches.find(batchId)).hasValueSatisfying(batch -> {
            assertThat(batch.partition()).isEqualTo(partition);
            assertThat(batch.status()).isEqualTo(BatchStatus.RUNNING);
        });
        assertThat(app.queue.pending(StepKind.BATCH, String.valueOf(batchId))).isPresent();
        assertThat(app.audit.about("partition:" + partition)).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("BATCH_ROUND");
            assertThat(entry.parameters()).containsEntry("result", "Claimed").containsEntry("batchId", String.valueOf(batchId))
                    .containsEntry("reason", "release day").containsEntry(OperatorParameters.RESERVED, "otto");
            assertThat(entry.parameters().values()).doesNotContain("mallory");
        });
        assertThat(auditLog.entries).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("POST /ops/batch-rounds");
        });
    }

    @Test
    void aRoundWhileTheBatchOfThePartitionRunsAnswersSlotOccupiedAndClaimsNothing() throws Exception {
        var running = openBatch();
        var late = waiting();

        mvc.perform(as(round(), "otto"))
                .andExpect(answers(status().isOk(), "SLOT_OCCUPIED"))
                .andExpect(jsonPath("$.data.batchId").value(Matchers.nullValue()));

        assertThat(app.batches.isWaiting(late)).isTrue();
        assertThat(app.batches.find(running.id()).orElseThrow().members()).doesNotContain(late);
        mvc.perform(as(settle(running.id()), "otto")).andExpect(jsonPath("$.data.outcome").value("FAILED"));
        mvc.perform(as(round(), "otto")).andExpect(jsonPath("$.code").value("CLAIMED"))
                .andExpect(jsonPath("$.data.members").value(Matchers.hasItem(late.value())));
    }

    @Test
    void aRoundInAPartitionWhereNothingWaitsAnswersNothingToClaim() throws Exception {
        var claims = app.batches.claims();
        mvc.perform(as(round(), "otto"))
                .andExpect(answers(status().isOk(), "NOTHING_TO_CLAIM"))
                .andExpect(jsonPath("$.data.partition").value(partition));
        assertThat(app.batches.claims()).isEqualTo(claims);
    }

    @Test
    void aRoundWithoutPartitionRunsInTheDefaultPartitionAndATooLongPartitionIsRefused() throws Exception {
        mvc.perform(as(post("/ops/batch-rounds"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.partition").value(Target.DEFAULT_PARTITION));
        var audited = app.audit.all().size();
        mvc.perform(as(post("/ops/batch-rounds").param("partition", "p".repeat(65)), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("partition"));
        assertThat(app.audit.all()).hasSize(audited);
    }

    @Test
    void settlingAnOpenBatchClosesItsMergeRequestAndTheMembersWaitAgainWithoutBlame() throws Exception {
        var batch = openBatch();
        var mr = batch.mergeRequest().orElseThrow();

        mvc.perform(as(settle(batch.id()).param("reason", "stuck since lunch"), "otto"))
                .andExpect(answers(status().isOk(), "SETTLED"))
                .andExpect(jsonPath("$.data.batchId").value(batch.id()))
                .andExpect(jsonPath("$.data.outcome").value("FAILED"))
                .andExpect(jsonPath("$.data.batchStatus").value("FAILED"))
                .andExpect(jsonPath("$.data.failureKind").value("TRANSIENT"))
                .andExpect(jsonPath("$.data.plan").value("REQUEUE_ALL"));

        assertThat(app.gitlab.find(mr.project(), mr.iid()).orElseThrow().state()).isEqualTo(MergeRequestState.CLOSED);
        assertThat(batch.members()).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING));
        assertThat(app.audit.about("batch:" + batch.id())).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("SETTLE_BATCH");
            assertThat(entry.parameters()).containsEntry("result", "Failed").containsEntry("reason", "stuck since lunch");
        });
        assertThat(auditLog.entries).last().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("POST /ops/batches/{id}/settle");
            assertThat(entry.subject()).isEqualTo(String.valueOf(batch.id()));
        });
    }

    @Test
    void settlingABatchThatHadAlreadyEndedIs409AlreadySettledAndChangesNothing() throws Exception {
        var batch = openBatch();
        mvc.perform(as(settle(batch.id()), "otto")).andExpect(status().isOk());
        var closes = app.gitlab.closes();
        var settlements = app.batches.settlements();

        mvc.perform(as(settle(batch.id()), "otto"))
                .andExpect(answers(status().isConflict(), "ALREADY_SETTLED"))
                .andExpect(jsonPath("$.data").value(Matchers.nullValue()));

        assertThat(app.gitlab.closes()).isEqualTo(closes);
        assertThat(app.batches.settlements()).isEqualTo(settlements);
    }

    @Test
    void aMergeRacingTheSettlementWinsAndTheBatchIsRecordedAsMerged() throws Exception {
        var batch = openBatch();
        var mr = batch.mergeRequest().orElseThrow();
        app.gitlab.beforeNext("close", () -> app.gitlab.mergeExternally(mr.project(), mr.iid()));

        mvc.perform(as(settle(batch.id()), "otto"))
                .andExpect(answers(status().isOk(), "SETTLED"))
                .andExpect(jsonPath("$.data.outcome").value("MERGED_WINS"))
                .andExpect(jsonPath("$.data.batchStatus").value("SUCCEEDED"));

        assertThat(batch.members()).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.MERGED));
    }

    @Test
    void gitLabUnreachableAnswersRetryLaterAndLeavesTheBatchRunning() throws Exception {
        var batch = openBatch();
        app.gitlab.failNext("get", ExternalCallException.status("gitlab", 503, "Service Unavailable"));

        mvc.perform(as(settle(batch.id()), "otto"))
                .andExpect(answers(status().isOk(), "SETTLED"))
                .andExpect(jsonPath("$.data.outcome").value("RETRY_LATER"))
                .andExpect(jsonPath("$.data.batchStatus").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.message").value(Matchers.containsString("GitLab")));

        assertThat(app.batches.find(batch.id()).orElseThrow().status()).isEqualTo(BatchStatus.RUNNING);
        // leaves nothing running into later tests: the batch ends here
        mvc.perform(as(settle(batch.id()), "otto")).andExpect(jsonPath("$.data.outcome").value("FAILED"));
    }

    @Test
    void settlingAnUnknownOrMalformedBatchIs404() throws Exception {
        mvc.perform(as(settle(Long.MAX_VALUE), "otto"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
        mvc.perform(as(post("/ops/batches/twelve/settle"), "otto"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
    }

    @Test
    void batchesAreListedNewestFirstWithTheirMembersRequestViews() throws Exception {
        var older = waiting();
        var first = claimedOverHttp();
        app.queue.runUntilIdle();
        assertThat(app.batches.find(first.id()).orElseThrow().status()).isEqualTo(BatchStatus.SUCCEEDED);
        var member = waiting();
        var newest = claimedOverHttp();

        mvc.perform(as(get("/ops/batches").param("limit", "500"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[0].id").value(newest.id()))
                .andExpect(jsonPath("$.data[0].partition").value(partition))
                .andExpect(jsonPath("$.data[0].status").value("RUNNING"))
                .andExpect(jsonPath("$.data[0].depth").value(0))
                .andExpect(jsonPath("$.data[0].members[0].operationId").value(member.value()))
                .andExpect(jsonPath("$.data[0].members[0].targetKey").value(target.value()))
                .andExpect(jsonPath("$.data[0].members[0].status").value("BATCHED"))
                .andExpect(jsonPath("$.data[0].members[0].batchId").value(newest.id()))
                .andExpect(jsonPath("$.data[0].members[0].hint.code").isNotEmpty())
                .andExpect(jsonPath("$.data[0].members[0].timeline").doesNotExist())
                .andExpect(jsonPath("$.data[0].createdAt").isNotEmpty())
                .andExpect(jsonPath("$.data[?(@.id==" + first.id() + ")].status").value("SUCCEEDED"))
                .andExpect(jsonPath("$.data[?(@.id==" + first.id() + ")].members[0].operationId").value(older.value()))
                .andExpect(jsonPath("$.data[?(@.id==" + first.id() + ")].mergeRequest.iid").isNotEmpty());
        mvc.perform(as(get("/ops/batches").param("limit", "1"), "otto"))
                .andExpect(jsonPath("$.data.length()").value(1));
    }

    @Test
    void batchesAreFilteredByStatusAndPartitionAndAFilterThatCannotBeOneIsAStable400() throws Exception {
        waiting();
        var first = claimedOverHttp();
        app.queue.runUntilIdle();
        waiting();
        var newest = claimedOverHttp();

        mvc.perform(as(get("/ops/batches").param("partition", partition).param("status", "succeeded").param("limit", "1"),
                        "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.length()").value(1))
                .andExpect(jsonPath("$.data[0].id").value(first.id()));
        mvc.perform(as(get("/ops/batches").param("partition", " " + partition + " ").param("status", "RUNNING"), "otto"))
                .andExpect(jsonPath("$.data.length()").value(1))
                .andExpect(jsonPath("$.data[0].id").value(newest.id()));
        mvc.perform(as(get("/ops/batches").param("partition", partition).param("status", ""), "otto"))
                .andExpect(jsonPath("$.data.length()").value(2));
        mvc.perform(as(get("/ops/batches").param("partition", partition + "-none"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.length()").value(0));
        mvc.perform(as(get("/ops/batches").param("status", "MERGED"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("status", "INVALID_VALUE"));
        mvc.perform(as(get("/ops/batches").param("partition", "p".repeat(65)), "otto"))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("partition", "INVALID_VALUE"));
    }

    @Test
    void everyBatchEndpointIs401WithoutIdentityAnd403WithoutPermissionAndRunsNothing() throws Exception {
        waiting();
        var requests = List.of(get("/ops/batches"), round(), settle(1));
        var claims = app.batches.claims();
        var settlements = app.batches.settlements();
        var audited = app.audit.all().size();
        for (var request : requests) {
            mvc.perform(request).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
            mvc.perform(as(request, "alice")).andExpect(answers(status().isForbidden(), "ACCESS_DENIED"))
                    .andExpect(jsonPath("$.message").value("Access denied"));
        }
        assertThat(app.batches.claims()).isEqualTo(claims);
        assertThat(app.batches.settlements()).isEqualTo(settlements);
        assertThat(app.audit.all()).hasSize(audited);
        assertThat(auditLog.entries).isEmpty();
    }
}
