package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import java.time.Duration;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /ops/overdue}: requests past the deadline of whoever owns their next move, for operators only. */
class OverdueWebTest extends WebTestSupport {

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    @Test
    void aRequestWhoseStepWasLostIsListedOnceItsDeadlinePassedWithItsOwnerAndDeadline() throws Exception {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.submitAccepted(FakeTargets.SINGLE, "overdue-1");
        app.queue.lose(StepKind.SUBMIT_APPROVAL, id.value());

        mvc.perform(as(get("/ops/overdue"), "otto")).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.overdue[?(@.operationId == '" + id.value() + "')]").isEmpty());

        app.clock.advance(Duration.ofHours(3));
        mvc.perform(as(get("/ops/overdue").param("limit", "5000"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.examined").value(Matchers.greaterThanOrEqualTo(1)))
                .andExpect(jsonPath("$.data.overdue[?(@.operationId == '" + id.value() + "')].owner").value("SERVICE"))
                .andExpect(jsonPath("$.data.overdue[?(@.operationId == '" + id.value() + "')].deadline").value("STEP_SILENCE"))
                .andExpect(jsonPath("$.data.overdue[?(@.operationId == '" + id.value() + "')].deadlineKey")
                        .value("changeflow.workflow.sweep.fail-after"))
                .andExpect(jsonPath("$.data.overdue[?(@.operationId == '" + id.value() + "')].overdueSeconds").value(3600));
    }

    @Test
    void itIsForOperatorsOnlyAndAGarbledLimitIsA400() throws Exception {
        mvc.perform(get("/ops/overdue")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/overdue"), "alice")).andExpect(status().isForbidden());
        var answer = mvc.perform(as(get("/ops/overdue").param("limit", "lots"), "otto")).andReturn().getResponse();
        assertThat(answer.getStatus()).isEqualTo(400);
        assertThat(answer.getContentAsString()).doesNotContain("Exception", "java.");
    }
}
