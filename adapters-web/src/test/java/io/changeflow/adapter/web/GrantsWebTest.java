package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Giving a grant up and an operator's revocation over HTTP (issue 18, item 3). */
class GrantsWebTest extends WebTestSupport {

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    private OperationId validated(String subject) {
        var id = approvedAndDeployed(app.submitAccepted(FakeTargets.SINGLE, subject));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        return id;
    }

    private BindingStatus statusOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().status();
    }

    @Test
    void theSubjectGivesItsGrantUpWithoutApprovalAndASecondGiveUpIsAClear409() throws Exception {
        var grant = validated("alice");
        mvc.perform(as(post("/api/bindings/" + FakeTargets.SINGLE.value() + "/give-up"), "alice"))
                .andExpect(answers(status().isAccepted(), "REMOVAL_ACCEPTED"))
                .andExpect(jsonPath("$.data.status").value("REVOKING"))
                .andExpect(jsonPath("$.data.requester").value("alice"))
                .andExpect(header().string("Location", org.hamcrest.Matchers.startsWith("/api/requests/")));
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKING);
        var removal = app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().operationId();
        assertThat(app.op(removal).kind()).isEqualTo(ChangeKind.REVOCATION);
        assertThat(app.op(removal).removes()).contains(grant);
        assertThat(app.approvals.formOf(removal)).as("no approval for giving up").isEmpty();

        mvc.perform(as(post("/api/bindings/" + FakeTargets.SINGLE.value() + "/give-up"), "alice"))
                .andExpect(answers(status().isConflict(), "GRANT_NOT_IN_EFFECT"));
    }

    @Test
    void theRequestViewSaysWhatARequestChangesAndARemovalsStory() throws Exception {
        var grant = validated("hana");
        mvc.perform(as(get("/api/requests/" + grant.value()), "hana"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.kind").value("GRANT"))
                .andExpect(jsonPath("$.data.previousGrant").isEmpty())
                .andExpect(jsonPath("$.data.removal").doesNotExist());
        mvc.perform(as(post("/ops/bindings/hana/" + FakeTargets.SINGLE.value() + "/revoke"), "otto"))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.data.kind").value("REVOCATION"))
                .andExpect(jsonPath("$.data.removal.cause").value("REVOKED"));
        var removal = app.operations.binding(SubjectId.of("hana"), FakeTargets.SINGLE).orElseThrow().operationId();
        mvc.perform(as(get("/api/requests/" + removal.value()), "hana"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.kind").value("REVOCATION"))
                .andExpect(jsonPath("$.data.previousGrant").value(grant.value()))
                .andExpect(jsonPath("$.data.removal.cause").value("REVOKED"))
                .andExpect(jsonPath("$.data.removal.by").value("otto"));
        mvc.perform(as(get("/api/requests").param("size", "5"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.items[0].kind").value("REVOCATION"))
                .andExpect(jsonPath("$.data.items[0].removal").doesNotExist());
    }

    private long expiringCount() throws Exception {
        var body = mvc.perform(as(get("/ops/grants/expiring"), "otto")).andExpect(status().isOk()).andReturn()
                .getResponse().getContentAsString();
        return com.jayway.jsonpath.JsonPath.<Number>read(body, "$.data.count").longValue();
    }

    @Test
    void operatorsSeeHowManyGrantsExpireInTheNext24HoursAndTheSoonest() throws Exception {
        var before = expiringCount();
        var now = app.clock.instant();
        var soon = app.grantInEffect("ivan-expiring", "ivan-expiring", now.plus(java.time.Duration.ofMinutes(30)));
        app.grantInEffect("jana-expiring", "jana-expiring", now.plus(java.time.Duration.ofHours(20)));
        app.grantInEffect("kurt-expiring", "kurt-expiring", now.plus(java.time.Duration.ofDays(3)));
        assertThat(expiringCount()).isEqualTo(before + 2);

        mvc.perform(as(get("/ops/grants/expiring").param("within", "P4D").param("limit", "1"), "otto"))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.within").value("PT96H"))
                .andExpect(jsonPath("$.data.count").value(before + 3))
                .andExpect(jsonPath("$.data.hasMore").value(true))
                .andExpect(jsonPath("$.data.grants.length()").value(1));
        mvc.perform(as(get("/ops/grants/expiring").param("within", "PT1H").param("limit", "500"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.grants[?(@.subjectId == 'ivan-expiring')].operationId").value(soon.value()))
                .andExpect(jsonPath("$.data.grants[?(@.subjectId == 'jana-expiring')]").isEmpty());
        mvc.perform(as(get("/ops/grants/expiring"), "alice")).andExpect(status().isForbidden());
        mvc.perform(get("/ops/grants/expiring")).andExpect(status().isUnauthorized());
    }

    @Test
    void aWindowThatIsNoDurationOrOutOfRangeIsAStable400() throws Exception {
        for (var garbled : new String[] {"24h", "tomorrow", "P", "PT24"}) {
            mvc.perform(as(get("/ops/grants/expiring").param("within", garbled), "otto"))
                    .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                    .andExpect(firstFieldError("within", "INVALID_VALUE"));
        }
        for (var outOfRange : new String[] {"PT0S", "-PT1H", "P32D"}) {
            mvc.perform(as(get("/ops/grants/expiring").param("within", outOfRange), "otto"))
                    .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                    .andExpect(firstFieldError("within", "OUT_OF_RANGE"));
        }
        mvc.perform(as(get("/ops/grants/expiring").param("limit", "many"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"));
        mvc.perform(as(get("/ops/grants/expiring").param("within", "p1d"), "otto")).andExpect(status().isOk());
        mvc.perform(as(get("/ops/grants/expiring").param("within", ""), "otto"))
                .andExpect(status().isOk()).andExpect(jsonPath("$.data.within").value("PT24H"));
    }

    @Test
    void nobodyElseCanGiveAGrantUpIs403AndAnUnknownOneIs404() throws Exception {
        validated("carol");
        mvc.perform(as(post("/api/bindings/" + FakeTargets.SINGLE.value() + "/give-up").param("subjectId", "carol"), "bob"))
                .andExpect(answers(status().isForbidden(), "NOT_ALLOWED_FOR_SUBJECT"));
        // the same answer without any grant: nothing learnt about another person's access
        mvc.perform(as(post("/api/bindings/" + FakeTargets.SINGLE.value() + "/give-up").param("subjectId", "nobody"), "bob"))
                .andExpect(answers(status().isForbidden(), "NOT_ALLOWED_FOR_SUBJECT"));
        mvc.perform(as(post("/api/bindings/no-such-target/give-up"), "carol"))
                .andExpect(status().isNotFound());
        mvc.perform(post("/api/bindings/" + FakeTargets.SINGLE.value() + "/give-up"))
                .andExpect(status().isUnauthorized());
        assertThat(statusOf("carol")).isEqualTo(BindingStatus.VALIDATED);
    }

    /** Issue 37: requesting a grant for someone else gives no right over it; this used to be allowed (202). */
    @Test
    void theRequesterOfAGrantForSomeoneElseMayNotGiveItUp() throws Exception {
        var id = io.changeflow.domain.request.OperationId.of(io.changeflow.application.fake.InMemoryChangeflow.newOperationId());
        assertThat(app.submit("alice", io.changeflow.application.fake.InMemoryChangeflow.submission(id.value(),
                FakeTargets.SINGLE, "gwen"))).isInstanceOf(io.changeflow.application.submit.SubmitChangeRequest.Result.Accepted.class);
        approvedAndDeployed(id);
        mvc.perform(as(post("/api/bindings/" + FakeTargets.SINGLE.value() + "/give-up").param("subjectId", "gwen"), "alice"))
                .andExpect(answers(status().isForbidden(), "NOT_ALLOWED_FOR_SUBJECT"));
        assertThat(statusOf("gwen")).isEqualTo(BindingStatus.VALIDATED);
    }

    @Test
    void anOperatorRevokesAGrantAsTheServerWrittenIdentityAudited() throws Exception {
        validated("erin");
        mvc.perform(as(post("/ops/bindings/erin/" + FakeTargets.SINGLE.value() + "/revoke")
                        .param("__authenticatedOperator", "mallory"), "otto"))
                .andExpect(answers(status().isAccepted(), "REMOVAL_ACCEPTED"))
                .andExpect(jsonPath("$.data.requester").value("otto"));
        assertThat(statusOf("erin")).isEqualTo(BindingStatus.REVOKING);
        assertThat(app.audit.all()).anySatisfy(e -> {
            assertThat(e.action()).isEqualTo("REVOKE_GRANT");
            assertThat(e.actor()).isEqualTo("otto");
            assertThat(e.parameters()).containsEntry("result", "REMOVAL_ACCEPTED");
        });
        mvc.perform(as(post("/ops/bindings/erin/" + FakeTargets.SINGLE.value() + "/revoke"), "alice"))
                .andExpect(status().isForbidden());
        mvc.perform(as(post("/ops/bindings/nobody/" + FakeTargets.SINGLE.value() + "/revoke"), "otto"))
                .andExpect(status().isNotFound());
    }

    /** Issue 32 item 4: an urgent revocation runs its file's removal round at once. */
    @Test
    void anUrgentRevocationRunsItsRemovalRoundAtOnce() throws Exception {
        validated("ursula");
        mvc.perform(as(post("/ops/bindings/ursula/" + FakeTargets.SINGLE.value() + "/revoke").param("urgent", "true"), "otto"))
                .andExpect(answers(status().isAccepted(), "REMOVAL_ACCEPTED"))
                .andExpect(jsonPath("$.message").value(org.hamcrest.Matchers.containsString("runs now")));
        assertThat(statusOf("ursula")).isEqualTo(BindingStatus.BATCHED);
        assertThat(app.audit.all()).anySatisfy(e -> assertThat(e.action()).isEqualTo("BATCH_ROUND"));
        validated("umberto");
        mvc.perform(as(post("/ops/bindings/umberto/" + FakeTargets.SINGLE.value() + "/revoke").param("urgent", "soon"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(firstFieldError("urgent", "INVALID_VALUE"));
        assertThat(statusOf("umberto")).isEqualTo(BindingStatus.VALIDATED);
    }

    /** Issue 32: the console sends the operator's reason as a parameter; the revocation's audit entry keeps it. */
    @Test
    void theReasonOfARevocationIsInItsAuditEntry() throws Exception {
        validated("rita");
        mvc.perform(as(post("/ops/bindings/rita/" + FakeTargets.SINGLE.value() + "/revoke").param("urgent", "false")
                        .param("reason", "left the team"), "otto"))
                .andExpect(answers(status().isAccepted(), "REMOVAL_ACCEPTED"));
        assertThat(app.audit.all()).anySatisfy(e -> {
            assertThat(e.action()).isEqualTo("REVOKE_GRANT");
            assertThat(e.subject()).contains("rita");
            assertThat(e.parameters()).containsEntry("reason", "left the team");
        });
    }

    @Test
    void aRevocationWithoutTheAppHeaderIsRefusedAsCrossSite() throws Exception {
        validated("finn");
        mvc.perform(as(post("/ops/bindings/finn/" + FakeTargets.SINGLE.value() + "/revoke")
                        .header("X-Requested-With", "").contentType("application/x-www-form-urlencoded"), "otto"))
                .andExpect(answers(status().isForbidden(), "CROSS_SITE_REQUEST"));
        assertThat(statusOf("finn")).isEqualTo(BindingStatus.VALIDATED);
    }
}
