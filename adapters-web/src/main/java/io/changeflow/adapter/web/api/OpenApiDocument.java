package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.RequestTraceFilter;
import io.changeflow.adapter.web.guard.CrossSiteRequestFilter;
import io.changeflow.adapter.web.identity.AuthorizationRules;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import io.swagger.v3.oas.models.tags.Tag;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * The OpenAPI document's parts that hold for many endpoints at once, described here once instead of on every
 * handler: the envelope and the stable error codes as schemas, the error answers each endpoint has by its kind
 * (its path in the authorization table: 401, 403; a write: 403 CROSS_SITE_REQUEST and {@code X-Requested-With};
 * a callback: the Standard Webhooks headers, 401 INVALID_SIGNATURE; every endpoint: 500, 503 and
 * {@code X-Trace-Id}), the trusted-proxy identity headers as security schemes, the monitoring endpoints, and
 * which properties of the response records are always present or may be null ({@link RecordSchemas}).
 * The prose stays in docs/api.md; the checked-in copy is docs/openapi.json.
 */
public final class OpenApiDocument implements OpenApiCustomizer {

    static final String ERROR_ENVELOPE = "ErrorEnvelope";
    static final String IDENTITY = "forwardedUser";
    static final String IDENTITY_EMAIL = "forwardedEmail";
    static final String DEMO_COOKIE = "demoUserCookie";
    static final String SIGNATURE = "webhookSignature";
    static final String GITLAB_TOKEN = "gitlabToken";
    private static final String REF = "#/components/";
    private static final Set<PathItem.HttpMethod> WRITES = Set.of(PathItem.HttpMethod.POST, PathItem.HttpMethod.PUT,
            PathItem.HttpMethod.PATCH, PathItem.HttpMethod.DELETE);

    private static final Map<String, String> TAGS = Map.of(
            "requests", "The requester's side: submit, follow, list, preview.",
            "user", "The signed-in person, the catalog, my grants.",
            "grants", "Ending a grant before its expiry.",
            "operations", "Operators: find and recover requests.",
            "batches", "Operators: merge batches.",
            "overdue", "Operators: requests past a deadline.",
            "config", "Operators: the dynamic settings.",
            "callbacks", "Signed webhooks of the approval system and the deploy pipeline.",
            "monitoring", "Health for load balancers; the scrape and this document for operators.");

    private final AuthorizationRules rules;
    private final OpenApiOperations operations;
    private final List<String> monitoringRuleCodes;
    private final boolean demoLogin;

    public OpenApiDocument(AuthorizationRules rules, OpenApiOperations operations, Collection<String> monitoringRuleCodes,
            boolean demoLogin) {
        this.rules = rules;
        this.operations = operations;
        this.monitoringRuleCodes = List.copyOf(new TreeSet<>(monitoringRuleCodes));
        this.demoLogin = demoLogin;
    }

    /** The document's head: title, the relative server (whatever host serves it), the security schemes. */
    public OpenAPI head() {
        var components = new Components()
                .addSecuritySchemes(IDENTITY, header(CallerIdentity.USER_HEADER, "The login identity (account, employee ID "
                        + "or email), set by the login proxy; honoured only from a trusted proxy "
                        + "(changeflow.identity.trusted-proxies). A header sent twice is ignored."))
                .addSecuritySchemes(IDENTITY_EMAIL, header(CallerIdentity.EMAIL_HEADER, "The login email, set by the login "
                        + "proxy; honoured only from a trusted proxy and for the accepted domains "
                        + "(changeflow.identity.email-domains); any other domain is an unverified identity."))
                .addSecuritySchemes(SIGNATURE, header("webhook-signature", "Standard Webhooks: v1,<base64 HMAC-SHA256 of "
                        + "'<webhook-id>.<webhook-timestamp>.<body>'> (several space-separated accepted), with the "
                        + "webhook-id and webhook-timestamp headers; 5-minute tolerance either way."))
                .addSecuritySchemes(GITLAB_TOKEN, header(GitLabHooksController.TOKEN, "GitLab's project webhook: the "
                        + "secret token of the hook (changeflow.gitlab.webhooks.secret), compared in constant time."));
        if (demoLogin) {
            components.addSecuritySchemes(DEMO_COOKIE, new SecurityScheme().type(SecurityScheme.Type.APIKEY)
                    .in(SecurityScheme.In.COOKIE).name(CallerIdentity.DEMO_COOKIE)
                    .description("Sandbox profile only: the demo sign-in's cookie (POST /sandbox/login), used when no "
                            + "identity header is present."));
        }
        return new OpenAPI()
                .info(new Info().title("Changeflow").version("1")
                        .description("Self-service changes, applied as code. Every JSON answer but GET /ops/stats is the "
                                + "envelope {code, message, data, traceId}: code is stable and machine-readable (the error "
                                + "codes: schema ErrorCode), message is safe to show, traceId (also the X-Trace-Id header) "
                                + "finds the server's log lines. Payload fields may grow; codes and paths do not change. "
                                + "The prose, the order of the checks and the rate-limit and cross-site rules: docs/api.md."))
                .servers(List.of(new Server().url("/")))
                .components(components);
    }

    @Override
    public void customise(OpenAPI api) {
        var components = api.getComponents();
        errorSchemas(components);
        components.addHeaders("TraceId", new Header().description("The request's traceId, as in the envelope and the "
                + "server's log lines.").schema(typed("string")));
        MonitoringPaths.addTo(api, monitoringRuleCodes);
        api.getPaths().forEach((path, item) -> item.readOperationsMap().forEach((method, operation) ->
                describe(path, method, operation)));
        new RecordSchemas(operations.responseRecords()).applyTo(components.getSchemas());
        var sandboxOnly = new TreeMap<String, Boolean>();
        api.getPaths().forEach((path, item) -> item.readOperations().forEach(operation -> operation.getTags().forEach(tag ->
                sandboxOnly.merge(tag, path.startsWith("/sandbox/") || path.startsWith("/sim/"), Boolean::logicalAnd))));
        api.setTags(sandboxOnly.entrySet().stream().map(tag -> new Tag().name(tag.getKey())
                .description(TAGS.getOrDefault(tag.getKey(), tag.getValue() ? "Sandbox profile only." : tag.getKey())))
                .toList());
    }

    /** A copy of {@code envelope} whose {@code code} is one of {@code codes}. */
    static Schema<?> withCodes(Schema<?> envelope, List<String> codes) {
        var code = typed("string");
        code.setEnum(new ArrayList<>(codes));
        return new JsonSchema().allOf(List.of(envelope)).addProperty("code", code);
    }

    private void describe(String path, PathItem.HttpMethod method, Operation operation) {
        var errors = new TreeSet<ErrorCode>();
        if (operation.getExtensions() != null && operation.getExtensions().remove(OpenApiOperations.ERRORS) instanceof Set<?> found) {
            found.forEach(code -> errors.add((ErrorCode) code));
        }
        var ruleCodes = rules.ruleCodesFor(path);
        ruleCodes.ifPresent(codes -> {
            errors.add(ErrorCode.UNAUTHENTICATED);
            errors.add(ErrorCode.ACCESS_DENIED);
            operation.setDescription(join(operation.getDescription(), "Needs one of the rule codes "
                    + String.join(", ", new TreeSet<>(codes)) + " (changeflow.authorization.rules)."));
        });
        var gitLabHook = path.equals(GitLabHooksController.PATH);
        var callback = path.startsWith("/callbacks/") && !gitLabHook;
        if (gitLabHook) {
            errors.addAll(Set.of(ErrorCode.WEBHOOKS_OFF, ErrorCode.INVALID_TOKEN, ErrorCode.INVALID_REQUEST,
                    ErrorCode.PAYLOAD_TOO_LARGE));
            operation.setSecurity(List.of(new SecurityRequirement().addList(GITLAB_TOKEN)));
        } else if (callback) {
            CallbacksController.SIGNATURE_HEADERS.forEach(name -> operation.addParametersItem(new HeaderParameter()
                    .name(name).required(true).schema(typed("string"))
                    .description("Standard Webhooks signature header; verified over the raw body before anything is read.")));
            errors.addAll(Set.of(ErrorCode.INVALID_SIGNATURE, ErrorCode.INVALID_REQUEST, ErrorCode.UNAVAILABLE));
            operation.setSecurity(List.of(new SecurityRequirement().addList(SIGNATURE)));
        } else if (errors.contains(ErrorCode.UNAUTHENTICATED)) {
            operation.setSecurity(identity());
        } else {
            operation.setSecurity(List.of());
        }
        if (WRITES.contains(method) && CrossSiteRequestFilter.UNCHECKED_PREFIXES.stream().noneMatch(path::startsWith)) {
            errors.add(ErrorCode.CROSS_SITE_REQUEST);
            if (operation.getRequestBody() == null) {
                operation.addParametersItem(new HeaderParameter().name(CrossSiteRequestFilter.HEADER).required(true)
                        .schema(typed("string")).example("XMLHttpRequest")
                        .description("Any non-blank value: a write without a JSON body needs it (cross-site requests are "
                                + "refused, docs/api.md)."));
            }
        }
        errors.addAll(Set.of(ErrorCode.INTERNAL_ERROR, ErrorCode.UNAVAILABLE));
        errorAnswers(operation.getResponses(), errors);
        operation.getResponses().values().forEach(answer -> answer.addHeaderObject(RequestTraceFilter.HEADER,
                new Header().$ref(REF + "headers/TraceId")));
    }

    /** Either identity header (or, in the sandbox, the demo cookie) identifies the caller. */
    private List<SecurityRequirement> identity() {
        var either = new ArrayList<>(List.of(new SecurityRequirement().addList(IDENTITY),
                new SecurityRequirement().addList(IDENTITY_EMAIL)));
        if (demoLogin) {
            either.add(new SecurityRequirement().addList(DEMO_COOKIE));
        }
        return either;
    }

    /** One answer per status, its envelope's {@code code} one of the codes of that status; a status described already stays. */
    static void errorAnswers(ApiResponses responses, Collection<ErrorCode> errors) {
        var byStatus = errors.stream().collect(Collectors.groupingBy(code -> code.status().value(), TreeMap::new,
                Collectors.toCollection(TreeSet::new)));
        byStatus.forEach((status, codes) -> {
            if (responses.containsKey(String.valueOf(status))) {
                return;
            }
            var envelope = withCodes(new JsonSchema().$ref(REF + "schemas/" + ERROR_ENVELOPE),
                    codes.stream().map(Enum::name).toList());
            var answer = new io.swagger.v3.oas.models.responses.ApiResponse()
                    .description(codes.stream().map(code -> code.name() + ": " + code.defaultMessage())
                            .collect(Collectors.joining("\n")))
                    .content(new Content().addMediaType(org.springframework.http.MediaType.APPLICATION_JSON_VALUE,
                            new MediaType().schema(envelope)));
            if (codes.contains(ErrorCode.RATE_LIMITED)) {
                answer.addHeaderObject("Retry-After", integerHeader("Seconds until a retry can succeed."));
                answer.addHeaderObject("RateLimit-Policy", textHeader("Quota and window, e.g. \"apply\";q=10;w=60."));
                answer.addHeaderObject("RateLimit", textHeader("Remaining and seconds until the oldest counted "
                        + "attempt leaves the window, e.g. \"apply\";r=0;t=42."));
            }
            responses.addApiResponse(String.valueOf(status), answer);
        });
    }

    /** ErrorCode (every code with its status and message), FieldError, and the error envelope. */
    private static void errorSchemas(Components components) {
        var code = typed("string").description(java.util.Arrays.stream(ErrorCode.values())
                .map(c -> c.name() + " (" + c.status().value() + "): " + c.defaultMessage())
                .collect(Collectors.joining("\n")));
        code.setEnum(java.util.Arrays.stream(ErrorCode.values()).map(Enum::name).toList());
        components.addSchemas("ErrorCode", code);
        components.addSchemas("FieldError", object(Map.of(
                "field", text("The field or parameter, e.g. targetKey."),
                "code", text("REQUIRED, INVALID_FORMAT, TOO_LONG, INVALID_CHARACTERS, IN_THE_PAST, TOO_FAR, UNKNOWN, "
                        + "INVALID_VALUE, UNKNOWN_USER."),
                "message", text("Safe to show."))));
        var fieldErrors = object(Map.of("fieldErrors", typed("array")
                .items(new JsonSchema().$ref(REF + "schemas/FieldError"))))
                .description("INVALID_REQUEST where the fields are known.");
        var retryAfter = object(Map.of("retryAfterSeconds", typed("integer")))
                .description("RATE_LIMITED.");
        components.addSchemas(ERROR_ENVELOPE, object(Map.of(
                "code", new JsonSchema().$ref(REF + "schemas/ErrorCode"),
                "message", text("Safe to show to a person; never an exception message or upstream body."),
                "data", new JsonSchema().oneOf(List.of(typed("null"), fieldErrors, retryAfter)),
                "traceId", text("Quote it: it finds the server's log lines of the request.")))
                .description("Every error answer (Content-Type application/json, Cache-Control no-store)."));
    }

    static Schema<Object> object(Map<String, Schema> properties) {
        var schema = typed("object");
        new TreeMap<>(properties).forEach(schema::addProperty);
        schema.setRequired(new ArrayList<>(new TreeSet<>(properties.keySet())));
        return schema;
    }

    /** A schema of one JSON type (OpenAPI 3.1: the type list). */
    static Schema<Object> typed(String type) {
        var schema = new JsonSchema();
        schema.addType(type);
        return schema;
    }

    static Schema<Object> text(String description) {
        return typed("string").description(description);
    }

    private static Header integerHeader(String description) {
        return new Header().description(description).schema(typed("integer"));
    }

    private static Header textHeader(String description) {
        return new Header().description(description).schema(typed("string"));
    }

    private static SecurityScheme header(String name, String description) {
        return new SecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER).name(name)
                .description(description);
    }

    private static String join(String first, String second) {
        return first == null || first.isBlank() ? second : first + " " + second;
    }
}
