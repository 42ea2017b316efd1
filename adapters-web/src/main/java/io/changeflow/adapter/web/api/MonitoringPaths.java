package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.guard.MonitoringAccessFilter;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The monitoring endpoints in the OpenAPI document. They are Boot's (actuator) and springdoc's, not handlers
 * of ours, so they are described here: the public health status and its probe groups, and what is for
 * operators only ({@link MonitoringAccessFilter}): the Prometheus scrape, the instance's info and this document itself.
 */
final class MonitoringPaths {

    private MonitoringPaths() {
    }

    static void addTo(OpenAPI api, List<String> ruleCodes) {
        api.getComponents().addSchemas("HealthStatus", OpenApiDocument.object(Map.of("status",
                OpenApiDocument.text("UP, DOWN, OUT_OF_SERVICE or UNKNOWN. Operators also get components and details."))));
        health(api, "/actuator/health", "monitoringHealth", "The status only (public).");
        health(api, "/actuator/health/liveness", "monitoringLiveness", "Liveness (public): the process runs.");
        health(api, "/actuator/health/readiness", "monitoringReadiness", "Readiness (public): the database and the "
                + "scheduler; what a load balancer probes. A GitLab or approval outage never makes an instance unready.");
        var operators = "For operators: needs one of " + String.join(", ", new TreeSet<>(ruleCodes))
                + " (changeflow.monitoring.rule-codes).";
        forOperators(api, "/actuator/prometheus", "monitoringPrometheus", "The Prometheus scrape. " + operators,
                "text/plain", OpenApiDocument.typed("string"));
        forOperators(api, "/actuator/info", "monitoringInfo", "This instance's version (build), commit (git) and name "
                + "(instance: its row in GET /ops/instances). " + operators,
                org.springframework.http.MediaType.APPLICATION_JSON_VALUE, OpenApiDocument.typed("object"));
        forOperators(api, "/v3/api-docs", "monitoringApiDocs", "This document (also /v3/api-docs.yaml). " + operators,
                org.springframework.http.MediaType.APPLICATION_JSON_VALUE, OpenApiDocument.typed("object"));
    }

    private static void health(OpenAPI api, String path, String operationId, String summary) {
        var status = new MediaType().schema(new JsonSchema().$ref("#/components/schemas/HealthStatus"));
        var content = new Content().addMediaType(org.springframework.http.MediaType.APPLICATION_JSON_VALUE, status);
        var responses = new ApiResponses()
                .addApiResponse("200", new ApiResponse().description("UP.").content(content))
                .addApiResponse("503", new ApiResponse().description("Not UP.").content(content));
        api.path(path, new PathItem().get(operation(operationId, summary, Set.of()).responses(responses)));
    }

    private static void forOperators(OpenAPI api, String path, String operationId, String summary, String mediaType,
            Schema<?> schema) {
        var responses = new ApiResponses().addApiResponse("200", new ApiResponse().description("OK.")
                .content(new Content().addMediaType(mediaType, new MediaType().schema(schema))));
        api.path(path, new PathItem().get(operation(operationId, summary,
                Set.of(ErrorCode.UNAUTHENTICATED, ErrorCode.ACCESS_DENIED)).responses(responses)));
    }

    private static Operation operation(String operationId, String summary, Set<ErrorCode> errors) {
        var operation = new Operation().operationId(operationId).summary(summary).tags(List.of("monitoring"));
        operation.addExtension(OpenApiOperations.ERRORS, new TreeSet<>(errors));
        return operation;
    }
}
