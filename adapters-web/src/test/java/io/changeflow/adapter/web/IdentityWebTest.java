package io.changeflow.adapter.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

/**
 * Email domains: only an address of an accepted domain ({@code corp.example} in the test context)
 * names the local account; a guest of another domain with the operator's local part is never the operator.
 * Identity fails closed: a user header that is sent decides alone (issue 37).
 */
class IdentityWebTest extends WebTestSupport {

    @Test
    void anOperatorsNameAtAForeignDomainIsRefusedOperationsAccess() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(get("/ops/test-read").header(CallerIdentity.EMAIL_HEADER, "otto@evil.example"))
                .andExpect(answers(status().isForbidden(), "ACCESS_DENIED"))
                .andExpect(jsonPath("$.message").value("Access denied"));
        mvc.perform(as(get("/ops/test-read"), "Otto@Evil.Example")).andExpect(status().isForbidden());
        mvc.perform(get("/ops/test-read").header(CallerIdentity.EMAIL_HEADER, "otto@corp.example.evil.example"))
                .andExpect(status().isForbidden());
        // the control: the accepted domain, any case
        mvc.perform(get("/ops/test-read").header(CallerIdentity.EMAIL_HEADER, "Otto@Corp.Example")).andExpect(status().isOk());
    }

    @Test
    void aForeignAddressIsAnUnverifiedCallerWithoutPermissions() throws Exception {
        permissions.grant("otto", "ops.operator");
        mvc.perform(get("/api/me").header(CallerIdentity.EMAIL_HEADER, "otto@evil.example"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.verified").value(false))
                .andExpect(jsonPath("$.data.account").value("otto@evil.example"))
                .andExpect(jsonPath("$.data.permissions").value(Matchers.empty()));
        mvc.perform(get("/api/bindings").header(CallerIdentity.EMAIL_HEADER, "otto@evil.example"))
                .andExpect(status().isForbidden());
    }

    @Test
    void aSentUserHeaderThatNamesNobodyIs401AndNeverFallsBackToTheEmailHeader() throws Exception {
        permissions.grant("otto", "ops.operator");
        var operatorEmail = "otto@corp.example";
        mvc.perform(get("/ops/test-read").header(CallerIdentity.USER_HEADER, "alice", "bob")
                        .header(CallerIdentity.EMAIL_HEADER, operatorEmail))
                .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        mvc.perform(as(get("/ops/test-read"), "Not A Name").header(CallerIdentity.EMAIL_HEADER, operatorEmail))
                .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        mvc.perform(as(get("/api/me"), " ").header(CallerIdentity.EMAIL_HEADER, operatorEmail))
                .andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        // an employee ID the directory does not know stays itself (unverified), never the address beside it
        mvc.perform(as(get("/ops/test-read"), "E4242").header(CallerIdentity.EMAIL_HEADER, operatorEmail))
                .andExpect(answers(status().isForbidden(), "ACCESS_DENIED"));
    }
}
