package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.guard.RateLimit;
import io.changeflow.domain.identity.Identity;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.StringSchema;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

/**
 * What the OpenAPI document learns from each handler method: a stable operationId and tag (controller and
 * method name), the summary and the successful answers ({@link Answers}), and the error codes the handler's signature implies:
 * a verified caller ({@link Identity} parameter: 401, 403), a rate limit ({@link RateLimit}: 429), a body or
 * query parameters (400; a body also 413, 415). {@link OpenApiDocument} adds what the path implies and renders the
 * codes, which it finds in the operation's {@value #ERRORS} extension.
 *
 * <p>It also records the response records it met, by their schema name, so the document can say which of
 * their properties are always present and which may be null.
 */
public final class OpenApiOperations implements OperationCustomizer {

    /** The error codes found here, handed to {@link OpenApiDocument} (which removes the extension). */
    static final String ERRORS = "x-changeflow-errors";

    private final Map<String, Class<?>> responseRecords = new ConcurrentHashMap<>();

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        var method = handler.getMethod();
        var controller = handler.getBeanType().getSimpleName().replace("Controller", "");
        operation.setOperationId(Character.toLowerCase(controller.charAt(0)) + controller.substring(1)
                + Character.toUpperCase(method.getName().charAt(0)) + method.getName().substring(1));
        operation.setTags(List.of(controller.replaceAll("([a-z])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT)));
        var errors = new TreeSet<ErrorCode>();
        var answers = method.getAnnotation(Answers.class);
        if (answers != null) {
            operation.setSummary(answers.summary());
            errors.addAll(List.of(answers.errors()));
            success(operation, answers.status(), List.of(answers.codes()));
            if (answers.conditional()) {
                conditional(operation, answers.status());
            }
        } else {
            // a handler of the sandbox's simulators (that module cannot see this annotation)
            operation.setSummary("Sandbox simulator: " + controller.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT)
                    + ", " + method.getName());
        }
        if (Arrays.asList(method.getParameterTypes()).contains(Identity.class)) {
            errors.addAll(Set.of(ErrorCode.UNAUTHENTICATED, ErrorCode.ACCESS_DENIED));
        }
        var rateLimit = method.getAnnotation(RateLimit.class);
        if (rateLimit != null) {
            errors.add(ErrorCode.RATE_LIMITED);
            operation.addExtension("x-rate-limit", Map.of("bucket", rateLimit.bucket(), "limitKey", rateLimit.limitKey(),
                    "defaultLimit", rateLimit.defaultLimit()));
        }
        if (operation.getRequestBody() != null) {
            errors.addAll(Set.of(ErrorCode.INVALID_REQUEST, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE));
        }
        if (operation.getParameters() != null && operation.getParameters().stream().anyMatch(p -> "query".equals(p.getIn()))) {
            errors.add(ErrorCode.INVALID_REQUEST);
        }
        operation.addExtension(ERRORS, errors);
        collect(method.getGenericReturnType());
        return operation;
    }

    /** The response records met so far, by schema name (their simple name); a name two records share fails. */
    Map<String, Class<?>> responseRecords() {
        return Map.copyOf(responseRecords);
    }

    /** Moves the generated success answer to its status and narrows its envelope code to the listed ones. */
    private static void success(Operation operation, int status, List<String> codes) {
        var responses = operation.getResponses();
        var generated = responses.remove("200");
        if (generated == null) {
            return;
        }
        if (!codes.isEmpty() && generated.getContent() != null) {
            generated.setDescription("Envelope code " + String.join(" or ", codes) + ".");
            generated.getContent().values().forEach(media -> media.setSchema(OpenApiDocument.withCodes(media.getSchema(), codes)));
        }
        responses.addApiResponse(String.valueOf(status), generated);
    }

    /** The entity tag of the successful answer and the 304 of a conditional read ({@link ConditionalReads}). */
    private static void conditional(Operation operation, int status) {
        var etag = new Header().description("Weak entity tag of what the answer shows (W/\"...\"); send it back in "
                + "If-None-Match to get 304 while nothing shown changed.").schema(new StringSchema());
        var cacheControl = new Header().description("private, no-cache: revalidate every time").schema(new StringSchema());
        var success = operation.getResponses().get(String.valueOf(status));
        if (success != null) {
            success.addHeaderObject("ETag", etag).addHeaderObject("Cache-Control", cacheControl);
        }
        operation.getResponses().addApiResponse("304", new io.swagger.v3.oas.models.responses.ApiResponse()
                .description("Not modified: If-None-Match names the current entity tag. No body; the same ETag.")
                .addHeaderObject("ETag", etag).addHeaderObject("Cache-Control", cacheControl));
    }

    private void collect(Type type) {
        switch (type) {
            case ParameterizedType parameterized -> {
                collect(parameterized.getRawType());
                Arrays.stream(parameterized.getActualTypeArguments()).forEach(this::collect);
            }
            case Class<?> plain when plain.isRecord() && plain != ApiResponse.class -> {
                var known = responseRecords.putIfAbsent(plain.getSimpleName(), plain);
                if (known == null) {
                    Arrays.stream(plain.getRecordComponents()).forEach(c -> collect(c.getGenericType()));
                } else if (known != plain) {
                    throw new IllegalStateException("two response records share the schema name " + plain.getSimpleName()
                            + ": " + known.getName() + ", " + plain.getName());
                }
            }
            default -> {
                // not a record of ours: a JDK type (String, List, Map) or the envelope, whose arguments were walked
            }
        }
    }
}
