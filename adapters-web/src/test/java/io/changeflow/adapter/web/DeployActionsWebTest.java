package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The operators' two deploy actions: confirm in effect, mark the rollout failed (issue 20 item 3). */
class DeployActionsWebTest extends WebTestSupport {

    private static final AtomicInteger PEOPLE = new AtomicInteger();

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    private OperationId unconfirmed() {
        var id = merged();
        app.clock.advance(Duration.ofHours(3));
        app.deployDeadline.run(new DeployDeadline.Command());
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);
        return id;
    }

    private static String confirmPath(OperationId id) {
        return "/ops/operations/" + id.value() + "/confirm-deployed";
    }

    private static String markFailedPath(OperationId id) {
        return "/ops/operations/" + id.value() + "/mark-deploy-failed";
    }

    @Test
    void bothActionsAre401WithoutIdentityAnd403WithoutPermissionAndChangeNothing() throws Exception {
        var id = unconfirmed();
        var validated = app.metrics.total("validated");
        for (var path : new String[] {confirmPath(id), markFailedPath(id)}) {
            mvc.perform(post(path)).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
            mvc.perform(as(post(path), "alice")).andExpect(answers(status().isForbidden(), "ACCESS_DENIED"));
        }
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);
        assertThat(app.metrics.total("validated")).isEqualTo(validated);
        assertThat(app.audit.about(id.value())).isEmpty();
        assertThat(auditLog.entries).isEmpty();
    }

    @Test
    void confirmMakesAnUnconfirmedRequestValidatedOnceAuditedAndASecondConfirmIsAClear409() throws Exception {
        var id = unconfirmed();
        var validated = app.metrics.total("validated");

        mvc.perform(as(post(confirmPath(id)).param("reason", "checked the live config"), "otto"))
                .andExpect(answers(status().isOk(), "CONFIRMED"))
                .andExpect(jsonPath("$.data.operationId").value(id.value()))
                .andExpect(jsonPath("$.data.status").value("VALIDATED"));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.total("validated")).isEqualTo(validated + 1);
        assertThat(app.audit.about(id.value())).last().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("CONFIRM_DEPLOYED");
            assertThat(entry.parameters()).containsEntry("reason", "checked the live config").containsEntry("result", "Confirmed");
        });
        assertThat(auditLog.entries).singleElement().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("POST /ops/operations/{operationId}/confirm-deployed");
            assertThat(entry.subject()).isEqualTo(id.value());
            assertThat(entry.actor()).isEqualTo("otto");
        });

        mvc.perform(as(post(confirmPath(id)), "otto"))
                .andExpect(answers(status().isConflict(), "ALREADY_IN_EFFECT"))
                .andExpect(jsonPath("$.message").value(Matchers.containsString("already in effect")));
        assertThat(app.metrics.total("validated")).isEqualTo(validated + 1);
    }

    @Test
    void markFailedMovesAMergedRequestToDeployFailedAndThenAnswersAlreadyMarked() throws Exception {
        var id = merged();

        mvc.perform(as(post(markFailedPath(id)), "otto"))
                .andExpect(answers(status().isOk(), "MARKED_FAILED"))
                .andExpect(jsonPath("$.data.status").value("DEPLOY_FAILED"));
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_FAILED);
        assertThat(app.audit.about(id.value())).last().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("MARK_DEPLOY_FAILED");
        });

        mvc.perform(as(post(markFailedPath(id)), "otto"))
                .andExpect(answers(status().isConflict(), "ALREADY_MARKED_FAILED"));
        mvc.perform(as(post(confirmPath(id)), "otto")).andExpect(answers(status().isOk(), "CONFIRMED"));
        mvc.perform(as(post(markFailedPath(id)), "otto"))
                .andExpect(answers(status().isConflict(), "ACTION_NOT_ALLOWED"));
    }

    @Test
    void aRequestThatIsNotMergedIsRefusedWithoutInternalsAndAnUnknownOneIs404() throws Exception {
        var waiting = app.submitAccepted(FakeTargets.SINGLE, "deploy" + PEOPLE.incrementAndGet());
        app.queue.runUntilIdle();
        for (var path : new String[] {confirmPath(waiting), markFailedPath(waiting)}) {
            mvc.perform(as(post(path), "otto"))
                    .andExpect(answers(status().isConflict(), "ACTION_NOT_ALLOWED"))
                    .andExpect(jsonPath("$.message").value(Matchers.not(Matchers.containsString("APPROVAL_SENT"))))
                    .andExpect(jsonPath("$.message").value(Matchers.not(Matchers.containsString("Exception"))));
        }
        var unknown = OperationId.of(InMemoryChangeflow.newOperationId());
        mvc.perform(as(post(confirmPath(unknown)), "otto")).andExpect(answers(status().isNotFound(), "NOT_FOUND"));
        mvc.perform(as(post(markFailedPath(unknown)), "otto")).andExpect(status().isNotFound());
    }

    @Test
    void theRequestPageOffersTheDeployActionsOnlyWhereTheyHelp() throws Exception {
        var id = unconfirmed();
        mvc.perform(as(get("/ops/operations/" + id.value()), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.status").value("DEPLOY_UNCONFIRMED"))
                .andExpect(jsonPath("$.data.hint.code").value("CONTACT_MAINTAINERS"))
                .andExpect(jsonPath("$.data.allowedActions").value(Matchers.containsInAnyOrder("CONFIRM_DEPLOYED",
                        "MARK_DEPLOY_FAILED")));
        var waiting = app.submitAccepted(FakeTargets.SINGLE, "deploy" + PEOPLE.incrementAndGet());
        app.queue.runUntilIdle();
        mvc.perform(as(get("/ops/operations/" + waiting.value()), "otto"))
                .andExpect(jsonPath("$.data.allowedActions").value(Matchers.not(Matchers.hasItem("CONFIRM_DEPLOYED"))))
                .andExpect(jsonPath("$.data.allowedActions").value(Matchers.not(Matchers.hasItem("MARK_DEPLOY_FAILED"))));
        var subject = "deploy" + PEOPLE.incrementAndGet();
        var replaced = app.rejected(subject);
        app.submitAccepted(FakeTargets.SINGLE, subject);
        mvc.perform(as(get("/ops/operations/" + replaced.value()), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.allowedActions").value(Matchers.not(Matchers.hasItem("CONFIRM_DEPLOYED"))))
                .andExpect(jsonPath("$.data.allowedActions").value(Matchers.not(Matchers.hasItem("MARK_DEPLOY_FAILED"))));
    }
}
