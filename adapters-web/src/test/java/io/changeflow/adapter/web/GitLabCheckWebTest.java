package io.changeflow.adapter.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeProjectSetup;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.ProjectSetup.BotRights;
import io.changeflow.application.port.out.ProjectSetup.BotRole;
import io.changeflow.application.port.out.ProjectSetup.ProjectSettings;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** {@code GET /ops/gitlab-check}: the setup check's findings for operators, in the usual envelope. */
class GitLabCheckWebTest extends WebTestSupport {

    @Autowired
    FakeProjectSetup setup;

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    @AfterEach
    void aCleanProjectAgain() {
        setup.set(FakeProjectSetup.clean(FakeTargets.PROJECT));
    }

    @Test
    void aCleanCatalogAnswersNoFinding() throws Exception {
        mvc.perform(as(get("/ops/gitlab-check"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.blocking").value(0))
                .andExpect(jsonPath("$.data.findings").isEmpty());
    }

    @Test
    void aBotWithoutMergeRightsAndMergeTrainsAreListedWithSeverityAndWhatToDo() throws Exception {
        setup.set(new ProjectSettings(FakeTargets.PROJECT, "main", "merge", true, false, Optional.of(false),
                List.of(new BotRights("changeflow-bot", BotRole.AUTHOR, 30, false))));

        mvc.perform(as(get("/ops/gitlab-check"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.blocking").value(2))
                .andExpect(jsonPath("$.data.findings[0].project").value(FakeTargets.PROJECT))
                .andExpect(jsonPath("$.data.findings[0].what").value("AUTHOR_MAY_NOT_MERGE"))
                .andExpect(jsonPath("$.data.findings[0].severity").value("BLOCKS"))
                .andExpect(jsonPath("$.data.findings[0].action").value(org.hamcrest.Matchers.containsString(
                        "Maintainer or allow it on the protected branch main")))
                .andExpect(jsonPath("$.data.findings[1].what").value("MERGE_TRAINS"))
                .andExpect(jsonPath("$.data.findings[1].why").isNotEmpty());
    }

    @Test
    void itIsForOperatorsOnly() throws Exception {
        mvc.perform(get("/ops/gitlab-check")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/gitlab-check"), "alice")).andExpect(status().isForbidden());
    }
}
