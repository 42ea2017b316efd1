package io.changeflow.adapter.web.guard;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits how often one caller may invoke the annotated handler method: at most the configured
 * number of calls per sliding window, per {@link #bucket()} and caller (login identity, else the
 * client address). Enforced by the rate-limit interceptor, the first interceptor, so a rejected
 * request costs nothing downstream and never reaches argument binding or the handler.
 *
 * <p>Rate limiting runs <em>before</em> the idempotency check: a duplicate submission that is over
 * quota gets 429 RATE_LIMITED, not DUPLICATE_SUBMIT. This is deliberate (a retry storm must not
 * reach the database); say so in a comment where the annotation is used.
 *
 * <p>The limit is read from dynamic configuration on every request ({@link #limitKey()}): a cleared
 * key means {@link #defaultLimit()}; zero, negative or unparsable means no limiting.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RateLimit {

    /** The quota's name, shared by every method that names it; also the policy name in the headers. */
    String bucket();

    /** The dynamic configuration key holding the limit, e.g. {@code APPLY_RATE_LIMIT}. */
    String limitKey();

    /** The limit while {@link #limitKey()} is missing or blank; 0 or less means no limiting. */
    int defaultLimit();

    /** Shown to the person who hit the limit (the 429 envelope's {@code message}). */
    String message() default "Too many requests; please try again later.";
}
