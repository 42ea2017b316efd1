package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.OperatorParameters;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.json.JsonCompareMode;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

class AuthorizationWebTest extends WebTestSupport {

    @org.springframework.beans.factory.annotation.Autowired
    io.changeflow.application.port.out.Permissions permissionsBean;
    @org.springframework.beans.factory.annotation.Autowired
    io.changeflow.application.port.out.Directory directoryBean;

    private static final String DENIED = "{\"code\":\"ACCESS_DENIED\",\"message\":\"Access denied\",\"data\":null}";

    private static MockHttpServletRequestBuilder opsWrite(String body) {
        return post("/ops/test-actions/op-42").contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private static void expectDenied(ResultActions result) throws Exception {
        result.andExpect(status().isForbidden()).andExpect(content().json(DENIED, JsonCompareMode.LENIENT));
    }

    @Test
    void noIdentityIs401() throws Exception {
        mvc.perform(get("/ops/test-read"))
                .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
    }

    @Test
    void anUnreadableIdentityIs401() throws Exception {
        mvc.perform(as(get("/ops/test-read"), "not a name!")).andExpect(status().isUnauthorized());
        mvc.perform(get("/ops/test-read").header(CallerIdentity.USER_HEADER, "otto").header(CallerIdentity.USER_HEADER, "eve"))
                .andExpect(status().isUnauthorized());
    }

    @Test
    void aThrowingLoginSourceIs401NotA500() throws Exception {
        permissions.grant("otto", "ops.operator");
        directory.failure = new IllegalStateException("LDAP timeout at ldap://corp");
        mvc.perform(as(get("/ops/test-read"), "E1004"))
                .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        assertThat(permissions.calls).isEmpty();
    }

    @Test
    void aHungDirectoryIsALoginFailureAfterItsDeadlineNotAHeldRequest() throws Exception {
        permissions.grant("otto", "ops.operator");
        directory.hold = new java.util.concurrent.CountDownLatch(1);
        try {
            mvc.perform(as(get("/ops/test-read"), "E1004"))
                    .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
            assertThat(permissions.calls).isEmpty();
            assertThat(directory.lookups.get()).isEqualTo(1);
        } finally {
            directory.hold.countDown();
        }
    }

    @Test
    void thePortBeansThemselvesCarryTheDeadlineSoEveryCallerHasIt() {
        assertThat(permissionsBean).isInstanceOf(IdentityPortDeadlines.TimeBoxedPermissions.class);
        assertThat(directoryBean).isInstanceOf(IdentityPortDeadlines.TimeBoxedDirectory.class);
    }

    @Test
    void aThrowingLoginSourceIsNeverReplacedByTheEmailHeader() throws Exception {
        permissions.grant("otto", "ops.operator");
        directory.failure = new IllegalStateException("directory down");
        mvc.perform(as(get("/ops/test-read"), "E1004").header(CallerIdentity.EMAIL_HEADER, "otto@corp.example"))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("UNAUTHENTICATED"));
    }

    @Test
    void identityHeadersFromAnUntrustedPeerAreIgnored() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(get("/ops/test-read"), "otto").with(peer("203.0.113.5"))).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/test-read"), "otto").with(peer("10.9.3.4"))).andExpect(status().isOk());
    }

    @Test
    void anIdentityWithoutTheRuleCodeIs403WithExactlyAccessDenied() throws Exception {
        expectDenied(mvc.perform(as(get("/ops/test-read"), "alice")));
    }

    @Test
    void anUnverifiedEmployeeIdIs403AndNeverAsksThePermissionService() throws Exception {
        permissions.grant("E9999", "ops.operator");
        expectDenied(mvc.perform(as(get("/ops/test-read"), "E9999")));
        assertThat(permissions.calls).isEmpty();
    }

    @Test
    void aThrowingPermissionServiceIs403() throws Exception {
        permissions.grant("otto", "ops.operator");
        permissions.failure = new IllegalStateException("permission service 500: stack trace here");
        expectDenied(mvc.perform(as(get("/ops/test-read"), "otto")));
    }

    @Test
    void aSlowPermissionServiceIs403AfterItsDeadline() throws Exception {
        permissions.grant("otto", "ops.operator");
        permissions.delay = Duration.ofSeconds(3);
        var started = System.nanoTime();
        expectDenied(mvc.perform(as(get("/ops/test-read"), "otto")));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(2500));
    }

    @Test
    void aPermissionServiceAnsweringNullOrNullElementsIs403NeverA500() throws Exception {
        permissions.answerNull = true;
        expectDenied(mvc.perform(as(get("/ops/test-read"), "otto")));
        permissions.answerNull = false;
        permissions.answerWithNullElement = true;
        expectDenied(mvc.perform(as(get("/ops/test-read"), "otto")));
    }

    @Test
    void eitherRuleCodeGrantsAccessCheckedInOneRoundTrip() throws Exception {
        permissions.grant("otto", "ops.operator");
        permissions.grant("ada", "ops.admin");
        mvc.perform(as(get("/ops/test-read"), "otto")).andExpect(status().isOk()).andExpect(jsonPath("$.data").value("read"));
        mvc.perform(as(get("/ops/test-read"), "ada")).andExpect(status().isOk());
        assertThat(permissions.calls).hasSize(2).allSatisfy(codes -> assertThat(codes).isEqualTo(Set.of("ops.operator", "ops.admin")));
    }

    @Test
    void aMalformedBodyOnAProtectedPathIs401Then403Then400() throws Exception {
        var malformed = "{\"reason\": ";
        mvc.perform(opsWrite(malformed)).andExpect(status().isUnauthorized());
        expectDenied(mvc.perform(as(opsWrite(malformed), "alice")));
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(opsWrite(malformed), "otto")).andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"));
    }

    @Test
    void aForgedOperatorParameterIsOverwrittenWithTheLoginIdentity() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(opsWrite("{\"reason\":\"stuck\"}").param(OperatorParameters.RESERVED, "mallory").param("note", "retry"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.operatorParameter").value("otto"))
                .andExpect(jsonPath("$.data.operatorAttribute").value("otto"));
        assertThat(auditLog.entries).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("POST /ops/test-actions/{operationId}");
            assertThat(entry.subject()).isEqualTo("op-42");
            assertThat(entry.parameters()).containsEntry(OperatorParameters.RESERVED, "otto").containsEntry("note", "retry");
            assertThat(entry.at()).isEqualTo(clock.instant());
        });
    }

    @Test
    void theOperatorParameterIsAbsentWithoutAuthorization() throws Exception {
        mvc.perform(post("/test/json").contentType(MediaType.APPLICATION_JSON).content("{}").param(OperatorParameters.RESERVED, "mallory"))
                .andExpect(status().isOk());
    }

    @Test
    void theAuditHoldsOnlyMaskedTruncatedParameters() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(opsWrite("{}")
                        .param("gitlabToken", "glpat-abcdef")
                        .param("password", "hunter2")
                        .param("note", "Bearer eyJhbGciOi")
                        .param("comment", "c".repeat(500)), "otto"))
                .andExpect(status().isOk());
        var parameters = auditLog.entries.getFirst().parameters();
        assertThat(parameters).containsEntry("gitlabToken", OperatorParameters.MASK)
                .containsEntry("password", OperatorParameters.MASK)
                .containsEntry("note", OperatorParameters.MASK);
        assertThat(parameters.get("comment")).hasSize(OperatorParameters.MAX_AUDITED_VALUE_LENGTH + 3).endsWith("...");
        assertThat(parameters.values()).noneMatch(v -> v.contains("hunter2") || v.contains("glpat-"));
    }

    @Test
    void anOpsWriteIsRefusedWith503WhenTheAuditLogFails() throws Exception {
        permissions.grant("otto", "ops.operator");
        auditLog.failure = new IllegalStateException("INSERT INTO audit failed");
        mvc.perform(as(opsWrite("{}"), "otto")).andExpect(answers(status().isServiceUnavailable(), "UNAVAILABLE"));
    }

    @Test
    void opsReadsAreNotAudited() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(get("/ops/test-read"), "otto")).andExpect(status().isOk());
        assertThat(auditLog.entries).isEmpty();
    }

    @Test
    void theSandboxFaultSwitchIsProtectedLikeOps() throws Exception {
        mvc.perform(put("/sandbox/faults").contentType(MediaType.APPLICATION_JSON).content("{\"gitlab\":\"down\"}"))
                .andExpect(status().isUnauthorized());
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(put("/sandbox/faults").contentType(MediaType.APPLICATION_JSON).content("{\"gitlab\":\"down\"}"), "otto"))
                .andExpect(status().isOk());
        assertThat(auditLog.entries).singleElement().satisfies(e -> assertThat(e.action()).isEqualTo("PUT /sandbox/faults"));
    }

    @Test
    void anUnknownOpsPathAsksForIdentityBeforeSayingNotFound() throws Exception {
        mvc.perform(get("/ops/does-not-exist")).andExpect(status().isUnauthorized());
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(get("/ops/does-not-exist"), "otto")).andExpect(status().isNotFound());
    }

    @Test
    void aLegacyRawMapEndpointIsProtectedWithoutChangingItsShape() throws Exception {
        expectDenied(mvc.perform(as(get("/ops/legacy-stats"), "alice")));
        permissions.grant("otto", "ops.operator");
        mvc.perform(as(get("/ops/legacy-stats"), "otto"))
                .andExpect(status().isOk())
                .andExpect(content().json("{\"requests\":3}", JsonCompareMode.STRICT));
    }

    @Test
    void withoutTheSandboxPropertyThereIsNoDemoLoginAndTheCookieIsIgnored() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(post("/sandbox/login").contentType(MediaType.APPLICATION_JSON).content("{\"user\":\"otto\"}"))
                .andExpect(status().isNotFound());
        mvc.perform(get("/ops/test-read").cookie(new jakarta.servlet.http.Cookie(CallerIdentity.DEMO_COOKIE, "otto")))
                .andExpect(status().isUnauthorized());
    }
}
