package io.changeflow.adapter.web.envelope;

import java.util.Optional;

/**
 * Failures that say the request itself could not be read, raised by the servlet container or by Spring
 * while it looks at the request, not by our code: they are the client's error (4xx), never a 500.
 *
 * <ul>
 *   <li>a query string or form body the container cannot decode ({@code ?page=%zz}, {@code ?=x}): Tomcat's
 *       {@code InvalidParameterException}, raised by whoever reads a parameter first (a filter, an
 *       interceptor, argument binding): 400 INVALID_REQUEST;</li>
 *   <li>a {@code multipart/*} request: no endpoint takes one (multipart parsing is off), and a malformed one
 *       made Spring raise {@code MultipartException}: 415 UNSUPPORTED_MEDIA_TYPE;</li>
 *   <li>a wildcard {@code Content-Type} ({@code *}{@code /*}, {@code application/*}): Spring refuses to put it
 *       into the request's headers with an {@code IllegalArgumentException} ("cannot contain wildcard"), or
 *       cannot parse it at all ({@code InvalidMediaTypeException}): 415 UNSUPPORTED_MEDIA_TYPE.</li>
 * </ul>
 * Matched by class name and origin, so nothing here needs Tomcat on the compile path and no other
 * {@code IllegalArgumentException} (a bug of ours) is ever taken for the client's.
 */
public final class MalformedInput {

    private static final String TOMCAT_INVALID_PARAMETER = "org.apache.tomcat.util.http.InvalidParameterException";
    private static final String SPRING_MULTIPART = "org.springframework.web.multipart.MultipartException";
    private static final String SPRING_INVALID_MEDIA_TYPE = "org.springframework.http.InvalidMediaTypeException";

    private MalformedInput() {
    }

    /** The client error {@code failure} (or one of its causes) stands for, if it is one of the above. */
    public static Optional<ErrorCode> codeFor(Throwable failure) {
        for (var cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (isA(cause, TOMCAT_INVALID_PARAMETER)) {
                return Optional.of(ErrorCode.INVALID_REQUEST);
            }
            if (isA(cause, SPRING_MULTIPART) || isA(cause, SPRING_INVALID_MEDIA_TYPE) || isWildcardContentType(cause)) {
                return Optional.of(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
            }
        }
        return Optional.empty();
    }

    private static boolean isWildcardContentType(Throwable t) {
        return t instanceof IllegalArgumentException && t.getMessage() != null
                && t.getMessage().startsWith("Content-Type cannot contain wildcard");
    }

    private static boolean isA(Throwable t, String className) {
        for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }
}
