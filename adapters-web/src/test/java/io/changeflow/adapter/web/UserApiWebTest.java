package io.changeflow.adapter.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeTargets;
import java.time.Duration;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

/** Who am I, the catalog and my bindings. */
class UserApiWebTest extends WebTestSupport {

    @Test
    void meTellsTheCanonicalAccountAndTheRuleCodesHeld() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(get("/api/me"), "E1004"))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.account").value("otto"))
                .andExpect(jsonPath("$.data.verified").value(true))
                .andExpect(jsonPath("$.data.permissions").value(Matchers.contains("ops.operator")))
                .andExpect(jsonPath("$.data.sandbox").value(false));
        mvc.perform(as(get("/api/me"), "Alice"))
                .andExpect(jsonPath("$.data.account").value("alice"))
                .andExpect(jsonPath("$.data.permissions").isEmpty());
    }

    @Test
    void meAnswersAnUnverifiedEmployeeIdWithoutPermissionsAndNeverAsksForThem() throws Exception {
        permissions.grant("E9999", "ops.operator");
        mvc.perform(as(get("/api/me"), "E9999"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.account").value("E9999"))
                .andExpect(jsonPath("$.data.verified").value(false))
                .andExpect(jsonPath("$.data.permissions").isEmpty());
        org.assertj.core.api.Assertions.assertThat(permissions.calls).isEmpty();
    }

    @Test
    void meWithoutIdentityOrWithAFailingLoginSourceIs401() throws Exception {
        mvc.perform(get("/api/me")).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        directory.failure = new IllegalStateException("directory down");
        mvc.perform(as(get("/api/me"), "E1001")).andExpect(status().isUnauthorized());
    }

    @Test
    void aFailingOrSlowPermissionServiceListsNoPermissionsButStillAnswers() throws Exception {
        permissions.grant("otto", "ops.operator");
        permissions.failure = new IllegalStateException("permission service 500");
        mvc.perform(as(get("/api/me"), "otto")).andExpect(status().isOk()).andExpect(jsonPath("$.data.permissions").isEmpty());
        permissions.failure = null;
        permissions.delay = Duration.ofSeconds(2);
        mvc.perform(as(get("/api/me"), "otto")).andExpect(status().isOk()).andExpect(jsonPath("$.data.permissions").isEmpty());
    }

    @Test
    void meSaysWhetherSubmissionsAreOpenNow() throws Exception {
        mvc.perform(as(get("/api/me"), "alice")).andExpect(jsonPath("$.data.submissionsOpen").value(false));
        writeConfig("ACCESS_MODE=OPEN\n");
        mvc.perform(as(get("/api/me"), "alice")).andExpect(jsonPath("$.data.submissionsOpen").value(true));
    }

    @Test
    void theCatalogListsEveryTargetWithWhetherItIsBatched() throws Exception {
        mvc.perform(as(get("/api/targets"), "alice"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.key=='db-prod-readonly')].batchable").value(false))
                .andExpect(jsonPath("$.data[?(@.key=='wiki-editors')].batchable").value(true))
                .andExpect(jsonPath("$.data[?(@.key=='wiki-editors')].name").value("Wiki editors"))
                .andExpect(jsonPath("$.data[0].description").isNotEmpty());
        mvc.perform(get("/api/targets")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/api/targets"), "E9999")).andExpect(status().isForbidden());
    }

    @Test
    void myBindingsListTheRowsOfMySubject() throws Exception {
        var id = app.submitAccepted(FakeTargets.BATCHABLE, "bindy");
        mvc.perform(as(get("/api/bindings"), "bindy"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.length()").value(1))
                .andExpect(jsonPath("$.data[0].subjectId").value("bindy"))
                .andExpect(jsonPath("$.data[0].targetKey").value("wiki-editors"))
                .andExpect(jsonPath("$.data[0].operationId").value(id.value()))
                .andExpect(jsonPath("$.data[0].status").value("APPROVAL_SENDING"))
                .andExpect(jsonPath("$.data[0].expiresAt").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data[0].updatedAt").isNotEmpty());
        mvc.perform(as(get("/api/bindings"), "nobody-yet")).andExpect(status().isOk()).andExpect(jsonPath("$.data").isEmpty());
    }
}
