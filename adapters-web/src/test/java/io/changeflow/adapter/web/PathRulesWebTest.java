package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.OperatorParameters;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

/** The default authorization table at work: operators, the approver inbox, and the open simulator APIs. */
class PathRulesWebTest extends WebTestSupport {

    @Test
    void theApproverInboxNeedsAnApproverOrAnOperatorCheckedInOneRoundTrip() throws Exception {
        permissions.grant("amy", "approvals.approver");
        permissions.grant("otto", "ops.operator");
        mvc.perform(get("/sim/approval/inbox")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/sim/approval/inbox"), "alice")).andExpect(status().isForbidden())
                .andExpect(jsonPath("$.message").value("Access denied"));
        mvc.perform(as(get("/sim/approval/inbox"), "amy")).andExpect(status().isOk()).andExpect(jsonPath("$.data").value("inbox"));
        mvc.perform(as(get("/sim/approval/inbox"), "otto")).andExpect(status().isOk());
        assertThat(permissions.calls).hasSize(3)
                .allSatisfy(codes -> assertThat(codes).isEqualTo(Set.of("approvals.approver", "ops.operator", "ops.admin")));
    }

    @Test
    void anApproverIsNoOperator() throws Exception {
        permissions.grant("amy", "approvals.approver");
        mvc.perform(as(get("/ops/config"), "amy")).andExpect(status().isForbidden());
        mvc.perform(as(get("/ops/operations"), "amy")).andExpect(status().isForbidden());
    }

    @Test
    void anInboxDecisionIsAuditedWithTheServerWrittenApprover() throws Exception {
        permissions.grant("amy", "approvals.approver");
        mvc.perform(as(post("/sim/approval/inbox/T-7/decision").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"decision\":\"APPROVE\"}").param(OperatorParameters.RESERVED, "mallory"), "amy"))
                .andExpect(status().isOk());
        assertThat(auditLog.entries).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("amy");
            assertThat(entry.subject()).isEqualTo("T-7");
            assertThat(entry.parameters()).containsEntry(OperatorParameters.RESERVED, "amy");
        });
    }

    @Test
    void theSimulatorsMachineApisStayOpen() throws Exception {
        mvc.perform(post("/sim/approval/api/approvals")).andExpect(status().isOk());
        mvc.perform(get("/sim/gitlab/api/v4/projects/42")).andExpect(status().isOk()).andExpect(jsonPath("$.data").value("42"));
        assertThat(permissions.calls).isEmpty();
    }

    @Test
    void everyFaultSwitchBelowSandboxFaultsIsForOperatorsOnly() throws Exception {
        mvc.perform(put("/sandbox/faults/gitlab").contentType(MediaType.APPLICATION_JSON).content("{\"errorRate\":1}"))
                .andExpect(status().isUnauthorized());
        mvc.perform(as(put("/sandbox/faults/gitlab").contentType(MediaType.APPLICATION_JSON).content("{\"errorRate\":1}"), "alice"))
                .andExpect(status().isForbidden());
        permissions.grant("otto", "ops.admin");
        mvc.perform(as(put("/sandbox/faults/gitlab").contentType(MediaType.APPLICATION_JSON).content("{\"errorRate\":1}"), "otto"))
                .andExpect(status().isOk());
    }
}
