package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static io.changeflow.adapter.web.WebTestSupport.answers;
import static io.changeflow.adapter.web.WebTestSupport.firstFieldError;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.local.FileDynamicConfig;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.config.AccessMode;
import jakarta.servlet.http.Cookie;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * The embedded default run: file directory, configured permissions, demo login on, and a dynamic
 * configuration file that cannot be created (its parent is a regular file).
 */
@SpringBootTest(classes = SandboxTestApplication.class, properties = {
        "changeflow.sandbox.demo-login=true",
        "changeflow.identity.email-domains=corp.example",
        "changeflow.identity.headers=X-Forwarded-User, X-Forwarded-Email",
        "changeflow.permissions.grants.otto=ops.operator",
        "changeflow.permissions.grants.amy=approvals.approver",
        "spring.main.banner-mode=off"})
@AutoConfigureMockMvc
@ActiveProfiles("sandbox")
class SandboxDemoLoginTest {

    @Autowired
    MockMvc mvc;
    @Autowired
    Settings settings;
    @Autowired
    FileDynamicConfig dynamicConfig;

    @DynamicPropertySource
    static void uncreatableConfigFile(DynamicPropertyRegistry registry) throws IOException {
        var blocker = Path.of("target/web-test/not-a-directory");
        Files.createDirectories(blocker.getParent());
        Files.writeString(blocker, "a file where a directory should be");
        registry.add("changeflow.dynamic-config.file", () -> blocker.resolve("dynamic.properties").toString());
    }

    @Test
    void theDemoUsersComeFromTheDemoDirectory() throws Exception {
        mvc.perform(get("/sandbox/demo-users"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.account=='alice')].employeeId").value("E1001"))
                .andExpect(jsonPath("$.data[?(@.account=='alice')].email").value("alice@corp.example"))
                .andExpect(jsonPath("$.data[?(@.account=='bob')].employeeId").value("E1002"))
                .andExpect(jsonPath("$.data[?(@.account=='amy')].role").value("approver"))
                .andExpect(jsonPath("$.data[?(@.account=='otto')].role").value("operator"));
    }

    @Test
    void signingInSetsAnHttpOnlyLaxCookieThatStandsInForTheHeader() throws Exception {
        var login = mvc.perform(post("/sandbox/login").contentType(MediaType.APPLICATION_JSON).content("{\"user\":\"otto\"}"))
                .andExpect(answers(status().isOk(), "SIGNED_IN"))
                .andReturn().getResponse();
        var setCookie = login.getHeader("Set-Cookie");
        assertThat(setCookie).startsWith("cf_demo_user=otto").contains("HttpOnly").contains("SameSite=Lax").contains("Path=/");

        mvc.perform(get("/ops/config").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "otto"))).andExpect(status().isOk());
        mvc.perform(get("/ops/config").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "alice"))).andExpect(status().isForbidden());
        mvc.perform(get("/ops/config")).andExpect(status().isUnauthorized());
    }

    @Test
    void anIdentityHeaderWinsOverTheDemoCookie() throws Exception {
        mvc.perform(get("/ops/config").header(CallerIdentity.USER_HEADER, "alice").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "otto")))
                .andExpect(status().isForbidden());
    }

    @Test
    void signingOutExpiresTheCookie() throws Exception {
        mvc.perform(post("/sandbox/logout"))
                .andExpect(answers(status().isOk(), "SIGNED_OUT"))
                .andExpect(header().string("Set-Cookie", org.hamcrest.Matchers.containsString("Max-Age=0")));
    }

    @Test
    void signingInAsSomeoneOutsideTheDemoDirectoryIs400() throws Exception {
        mvc.perform(post("/sandbox/login").contentType(MediaType.APPLICATION_JSON).content("{\"user\":\"mallory\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(firstFieldError("user", "UNKNOWN_USER"));
        mvc.perform(post("/sandbox/login").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isBadRequest());
    }

    @Test
    void theEmbeddedDirectoryMapsEmployeeIdsAndTheConfiguredGrantsApply() throws Exception {
        mvc.perform(get("/ops/config").header(CallerIdentity.USER_HEADER, "E1004")).andExpect(status().isOk());
        mvc.perform(get("/ops/config").header(CallerIdentity.USER_HEADER, "E1001")).andExpect(status().isForbidden());
        mvc.perform(get("/ops/config").header(CallerIdentity.USER_HEADER, "amy")).andExpect(status().isForbidden());
    }

    @Test
    void aConfigFileThatCannotBeCreatedLeavesEveryKeyMissingAndTheServiceUp() throws Exception {
        assertThat(Files.exists(dynamicConfig.file())).isFalse();
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.TEST_WINDOW);
        mvc.perform(post("/test/gated")).andExpect(answers(status().isForbidden(), "SERVICE_CLOSED"));
        mvc.perform(get("/ops/config").header(CallerIdentity.USER_HEADER, "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data[?(@.key=='ACCESS_MODE')].rule").value("missing: restricted default TEST_WINDOW"));
    }

    @Test
    void theDefaultRulesLetTheDemoApproverIntoTheInboxAndNotIntoOperations() throws Exception {
        var amy = new Cookie(CallerIdentity.DEMO_COOKIE, "amy");
        mvc.perform(get("/sim/approval/inbox").cookie(amy)).andExpect(status().isOk());
        mvc.perform(get("/sim/approval/inbox").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "otto"))).andExpect(status().isOk());
        mvc.perform(get("/sim/approval/inbox").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "bob"))).andExpect(status().isForbidden());
        mvc.perform(get("/ops/config").cookie(amy)).andExpect(status().isForbidden());
        mvc.perform(get("/sim/gitlab/api/v4/projects/1")).andExpect(status().isOk());
    }

    @Test
    void meTellsTheSpaItRunsInTheSandboxAndWhatTheDemoUserMayDo() throws Exception {
        mvc.perform(get("/api/me").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "amy")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.account").value("amy"))
                .andExpect(jsonPath("$.data.sandbox").value(true))
                .andExpect(jsonPath("$.data.permissions[0]").value("approvals.approver"));
        mvc.perform(get("/api/me").header(CallerIdentity.USER_HEADER, "E1004"))
                .andExpect(jsonPath("$.data.account").value("otto"))
                .andExpect(jsonPath("$.data.permissions[0]").value("ops.operator"));
    }
}
