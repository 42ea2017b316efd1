package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ErrorCode;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What an endpoint answers, for the OpenAPI document ({@link OpenApiOperations}): the HTTP status and the
 * envelope codes of its successful answers, and the error codes of its own beyond those the document derives
 * for every endpoint of its kind (identity, rate limit, body, cross-site, callbacks, 500 and 503).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@interface Answers {

    /** What the endpoint does, in a few words (the operation's summary). */
    String summary();

    /** The HTTP status of the successful answers. */
    int status() default 200;

    /** The envelope codes of the successful answers. */
    String[] codes() default {"OK"};

    /** The error codes this endpoint answers on its own (e.g. NOT_FOUND, a conflict). */
    ErrorCode[] errors() default {};

    /**
     * A conditional read ({@link ConditionalReads}): the successful answer carries an {@code ETag}, and an
     * {@code If-None-Match} naming it is answered 304 with no body.
     */
    boolean conditional() default false;
}
