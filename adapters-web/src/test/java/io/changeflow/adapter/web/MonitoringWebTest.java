package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Monitoring is not public: the health status and its probe groups answer anyone with the status only;
 * details and every other actuator endpoint ({@code /actuator/metrics} stands in for the Prometheus scrape
 * here) are for operators, and so is the OpenAPI document under {@code /v3/}.
 */
class MonitoringWebTest extends WebTestSupport {

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    @Test
    void theHealthStatusAndItsProbesArePublicWithTheStatusOnly() throws Exception {
        for (var path : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
            var body = mvc.perform(get(path)).andExpect(status().isOk()).andExpect(jsonPath("$.status").value("UP"))
                    .andReturn().getResponse().getContentAsString();
            assertThat(body).as(path).doesNotContain("components").doesNotContain("details");
            var asAlice = mvc.perform(as(get(path), "alice")).andReturn().getResponse().getContentAsString();
            assertThat(asAlice).as(path + " as a person without permission").doesNotContain("components");
        }
    }

    @Test
    void anOperatorSeesTheHealthDetails() throws Exception {
        mvc.perform(as(get("/actuator/health"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.components").exists());
    }

    @Test
    void everyOtherActuatorEndpointIsForOperatorsOnly() throws Exception {
        for (var path : List.of("/actuator/metrics", "/actuator", "/actuator/health/ping")) {
            mvc.perform(get(path)).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
            mvc.perform(as(get(path), "alice")).andExpect(answers(status().isForbidden(), "ACCESS_DENIED"));
            mvc.perform(get(path).header(CallerIdentity.EMAIL_HEADER, "otto@evil.example")).andExpect(status().isForbidden());
            mvc.perform(as(get(path), "E9999")).andExpect(status().isForbidden());
        }
        mvc.perform(as(get("/actuator/metrics"), "otto")).andExpect(status().isOk());
    }

    @Test
    void theOpenApiDocumentIsForOperatorsOnlyLikeTheScrape() throws Exception {
        for (var path : List.of("/v3/api-docs", "/v3/api-docs.yaml", "/v3/api-docs/swagger-config", "/v3")) {
            mvc.perform(get(path)).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
            mvc.perform(as(get(path), "alice")).andExpect(answers(status().isForbidden(), "ACCESS_DENIED"));
            mvc.perform(as(get(path), "E9999")).andExpect(status().isForbidden());
        }
        mvc.perform(as(get("/v3/api-docs"), "otto")).andExpect(status().isOk())
                .andExpect(jsonPath("$.components.schemas.ErrorEnvelope").exists())
                .andExpect(jsonPath("$.components.securitySchemes.forwardedUser.name").value(CallerIdentity.USER_HEADER));
    }

    @Test
    void aSlowOrFailingPermissionServiceClosesMonitoring() throws Exception {
        permissions.failure = new IllegalStateException("permission service down");
        mvc.perform(as(get("/actuator/metrics"), "otto")).andExpect(status().isForbidden());
        mvc.perform(as(get("/actuator/health"), "otto")).andExpect(status().isOk())
                .andExpect(jsonPath("$.components").doesNotExist());
    }

    @Test
    void anEncodedOrDottedPathIsNoWayAround() throws Exception {
        for (var path : List.of("/actuator/%6detrics", "/actuator/./metrics", "/actuator/health/../metrics", "/actuator;x=1/metrics",
                "//actuator/metrics")) {
            var answer = sendRawWithHeaders("GET", path, List.of(), null);
            assertThat(answer.status()).as(path + ": " + answer.text()).isIn(400, 401, 404);
            assertThat(answer.text()).as(path).doesNotContain("\"names\"");
        }
    }
}
