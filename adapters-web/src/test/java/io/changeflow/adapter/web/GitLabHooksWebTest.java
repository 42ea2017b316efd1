package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.request.OperationId;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/**
 * GitLab's project webhook (issue 33 item 3): the token, the dedup, the body bound, events Changeflow does not wait for.
 * Payloads shaped as GitLab's {@code doc/user/project/integrations/webhook_events.md} ("Pipeline events", "Merge request
 * events") shows them, headers as {@code app/services/web_hook_service.rb} sends them.
 */
class GitLabHooksWebTest extends WebTestSupport {

    static final String SECRET = "hook-secret-for-the-web-tests";
    private static final java.util.concurrent.atomic.AtomicInteger SUBJECTS = new java.util.concurrent.atomic.AtomicInteger();

    private static String newSubject() {
        return "hooked" + SUBJECTS.incrementAndGet();
    }

    private static MockHttpServletRequestBuilder hook(String event, String body) {
        return post("/callbacks/gitlab").contentType(MediaType.APPLICATION_JSON).content(body)
                .header("X-Gitlab-Event", event)
                .header("X-Gitlab-Instance", "https://gitlab.example.com")
                .header("X-Gitlab-Webhook-UUID", UUID.randomUUID().toString())
                .header("X-Gitlab-Event-UUID", UUID.randomUUID().toString())
                .header("User-Agent", "GitLab/18.6.0");
    }

    private static MockHttpServletRequestBuilder signed(MockHttpServletRequestBuilder request) {
        return request.header("X-Gitlab-Token", SECRET);
    }

    private String pipelineEvent(OperationId id, String status) {
        return """
                {"object_kind": "pipeline",
                 "object_attributes": {"id": 31, "iid": 3, "ref": "%s", "tag": false,
                   "sha": "bcbb5ec396a2c0f828686f14fac9b80b780504f2", "source": "merge_request_event", "status": "%s",
                   "detailed_status": "passed", "stages": ["test"], "duration": 63},
                 "merge_request": {"id": 1, "iid": %d, "title": "Grant", "source_branch": "%s", "target_branch": "main",
                   "state": "opened", "detailed_merge_status": "mergeable"},
                 "user": {"id": 1, "name": "Administrator", "username": "root"},
                 "project": {"id": 77, "name": "access-config", "path_with_namespace": "%s", "default_branch": "main"},
                 "builds": []}
                """.formatted(MergeRequestTexts.branchOf(id), status, app.mr(id).iid(), MergeRequestTexts.branchOf(id),
                FakeTargets.PROJECT);
    }

    private Instant due(OperationId id) {
        return app.queue.pending(StepKind.CREATE, id.value()).orElseThrow().due();
    }

    private ResultActions answers(ResultActions result, int status, String code) throws Exception {
        return result.andExpect(status().is(status)).andExpect(jsonPath("$.code").value(code));
    }

    @Test
    void aPipelineEventWithTheTokenWakesTheStepWaitingOnItsMergeRequest() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        assertThat(due(id)).isAfter(app.clock.instant());

        answers(mvc.perform(signed(hook("Pipeline Hook", pipelineEvent(id, "success")))), 200, "PROCESSED")
                .andExpect(jsonPath("$.data.woken").value(1));

        assertThat(due(id)).isEqualTo(app.clock.instant());
    }

    @Test
    void aMissingWrongOrRepeatedTokenIs401InvalidTokenAndWakesNothing() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        var due = due(id);
        var body = pipelineEvent(id, "success");

        answers(mvc.perform(hook("Pipeline Hook", body)), 401, "INVALID_TOKEN");
        answers(mvc.perform(hook("Pipeline Hook", body).header("X-Gitlab-Token", SECRET + "x")), 401, "INVALID_TOKEN");
        answers(mvc.perform(hook("Pipeline Hook", body).header("X-Gitlab-Token", "short")), 401, "INVALID_TOKEN");
        answers(mvc.perform(hook("Pipeline Hook", body).header("X-Gitlab-Token", SECRET.toUpperCase())), 401, "INVALID_TOKEN");
        answers(mvc.perform(hook("Pipeline Hook", body).header("X-Gitlab-Token", SECRET).header("X-Gitlab-Token", SECRET)),
                401, "INVALID_TOKEN");

        assertThat(due(id)).isEqualTo(due);
        assertThat(registry.count(MeterNames.CALLBACKS_REFUSED, "source", "gitlab", "reason", "invalid_token")).isEqualTo(5.0);
    }

    @Test
    void aRetriedEventIsADuplicateByItsIdempotencyKeyAndWakesNothingAgain() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        var body = pipelineEvent(id, "success");
        var key = UUID.randomUUID().toString();

        answers(mvc.perform(signed(hook("Pipeline Hook", body)).header("Idempotency-Key", key)), 200, "PROCESSED");
        app.queue.runDue();
        var after = app.queue.pending(StepKind.CREATE, id.value()).map(p -> p.due());
        // GitLab's retry of the same event: the same Idempotency-Key, a new X-Gitlab-Webhook-UUID
        answers(mvc.perform(signed(hook("Pipeline Hook", body)).header("Idempotency-Key", key)), 200, "DUPLICATE")
                .andExpect(jsonPath("$.data.woken").value(0));

        assertThat(app.queue.pending(StepKind.CREATE, id.value()).map(p -> p.due())).isEqualTo(after);
    }

    @Test
    void withoutAnIdempotencyKeyTheEventUuidAndTheBodyTellARepeatFromAnotherEventOfTheSameRequest() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        var uuid = UUID.randomUUID().toString();

        answers(mvc.perform(signed(hook("Pipeline Hook", pipelineEvent(id, "failed"))).header("X-Gitlab-Event-UUID", uuid)),
                200, "PROCESSED");
        answers(mvc.perform(signed(hook("Pipeline Hook", pipelineEvent(id, "failed"))).header("X-Gitlab-Event-UUID", uuid)),
                200, "DUPLICATE");
        // another event fired by the same GitLab request carries the same X-Gitlab-Event-UUID with another body
        answers(mvc.perform(signed(hook("Pipeline Hook", pipelineEvent(id, "success"))).header("X-Gitlab-Event-UUID", uuid)),
                200, "PROCESSED");
    }

    @Test
    void aBodyOverTheWebhookBoundIs413WhileOneOverTheGeneralBoundIsRead() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        var padding = ",\"description\":\"" + "x".repeat(3000) + "\"}";
        var overGeneral = pipelineEvent(id, "success").strip().replaceFirst("}$", padding);
        var overWebhook = pipelineEvent(id, "success").strip().replaceFirst("}$",
                ",\"description\":\"" + "x".repeat(9000) + "\"}");

        answers(mvc.perform(signed(hook("Pipeline Hook", overGeneral))), 200, "PROCESSED");
        answers(mvc.perform(signed(hook("Pipeline Hook", overWebhook))), 413, "PAYLOAD_TOO_LARGE");
    }

    @Test
    void eventsAboutWhatChangeflowDoesNotKnowOrWaitForAre200AndIgnored() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        var due = due(id);
        var otherMergeRequest = """
                {"object_kind": "merge_request", "event_type": "merge_request",
                 "project": {"id": 77, "path_with_namespace": "%s"},
                 "object_attributes": {"iid": 99999, "source_branch": "feature/other", "target_branch": "main",
                   "action": "update", "detailed_merge_status": "mergeable"}}
                """.formatted(FakeTargets.PROJECT);
        var push = """
                {"object_kind": "push", "ref": "refs/heads/main", "project": {"id": 77, "path_with_namespace": "%s"}}
                """.formatted(FakeTargets.PROJECT);

        answers(mvc.perform(signed(hook("Merge Request Hook", otherMergeRequest))), 200, "IGNORED_STALE")
                .andExpect(jsonPath("$.data.woken").value(0));
        answers(mvc.perform(signed(hook("Push Hook", push))), 200, "IGNORED_STALE");
        answers(mvc.perform(signed(hook("Pipeline Hook", pipelineEvent(id, "running")))), 200, "IGNORED_STALE")
                .andExpect(jsonPath("$.data.woken").value(0));

        assertThat(due(id)).isEqualTo(due);
    }

    @Test
    void aMergeRequestEventWakesByItsNumberAndABodyThatIsNoEventIs400() throws Exception {
        var id = app.openedWithPipelineRunning(newSubject());
        var mergeRequest = """
                {"object_kind": "merge_request", "event_type": "merge_request",
                 "project": {"id": 77, "path_with_namespace": "%s"},
                 "object_attributes": {"iid": %d, "source_branch": "%s", "action": "update"}}
                """.formatted(FakeTargets.PROJECT, app.mr(id).iid(), MergeRequestTexts.branchOf(id));

        answers(mvc.perform(signed(hook("Merge Request Hook", mergeRequest))), 200, "PROCESSED");
        assertThat(due(id)).isEqualTo(app.clock.instant());

        answers(mvc.perform(signed(hook("Pipeline Hook", "[1, 2]"))), 400, "INVALID_REQUEST");
        answers(mvc.perform(signed(hook("Pipeline Hook", "{\"object_kind\": \"pipeline\"}"))), 400, "INVALID_REQUEST");
    }
    /** Finding S9: a merge request event whose action is {@code reopen} about an ended request's merge request. */
    @Test
    void aReopenEventAboutTheMergeRequestOfARefusedRequestSchedulesItsCloseAndAnUpdateEventDoesNot() throws Exception {
        var id = app.rejected(newSubject());
        app.queue.runUntilIdle();
        var event = """
                {"object_kind": "merge_request", "event_type": "merge_request",
                 "project": {"id": 77, "path_with_namespace": "%s"},
                 "object_attributes": {"iid": %d, "source_branch": "%s", "state": "opened", "action": "%s"}}
                """;
        var update = event.formatted(FakeTargets.PROJECT, app.mr(id).iid(), MergeRequestTexts.branchOf(id), "update");
        var reopen = event.formatted(FakeTargets.PROJECT, app.mr(id).iid(), MergeRequestTexts.branchOf(id), "reopen");

        mvc.perform(signed(hook("Merge Request Hook", update)));
        assertThat(app.queue.pending(StepKind.CLOSE, id.value())).isEmpty();
        answers(mvc.perform(signed(hook("Merge Request Hook", reopen))), 200, "PROCESSED")
                .andExpect(jsonPath("$.data.woken").value(1));

        assertThat(app.queue.pending(StepKind.CLOSE, id.value())).isPresent();
    }
}
