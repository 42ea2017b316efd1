package io.changeflow.adapter.web.api;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

/**
 * Conditional reads (issue 33): an answer that can be polled carries a weak {@code ETag} made of the version of what
 * it shows and {@code Cache-Control: private, no-cache} (any cache must ask again; only the browser keeps it); a
 * request whose {@code If-None-Match} names the current version gets 304 with no body, decided from the version
 * alone, before any view is built. Weak because the comparison is semantic: the envelope's {@code traceId} differs
 * between two answers of the same version, and a compressing proxy may re-encode the body. GitHub's REST API is the
 * model: a 304 is cheap for both sides.
 */
final class ConditionalReads {

    /** Must revalidate every time, and only the browser may keep the answer (it is one person's). */
    static final CacheControl REVALIDATE = CacheControl.noCache().cachePrivate();

    private ConditionalReads() {
    }

    /** The weak entity tag of {@code version}. */
    static String etag(String version) {
        return "W/\"" + version + "\"";
    }

    /**
     * Whether {@code ifNoneMatch} (the header as sent: a list of entity tags, or {@code *}) names {@code etag}, by
     * the weak comparison of RFC 9110 section 13.1.2 (the {@code W/} prefix is ignored on both sides). A malformed
     * header matches nothing: the full answer is always a correct one.
     */
    static boolean matches(@Nullable String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        var wanted = opaque(etag);
        for (var candidate : ifNoneMatch.split(",")) {
            var tag = candidate.strip();
            if (tag.equals("*") || opaque(tag).equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    /** 304 with the entity tag and no body, when {@code ifNoneMatch} names the current {@code version}. */
    static <T> Optional<ResponseEntity<T>> notModified(@Nullable String ifNoneMatch, Optional<String> version) {
        return version.map(ConditionalReads::etag).filter(etag -> matches(ifNoneMatch, etag))
                .map(etag -> ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).cacheControl(REVALIDATE).build());
    }

    /** 200 with {@code body}, its entity tag and {@link #REVALIDATE}. */
    static <T> ResponseEntity<T> ok(T body, String version) {
        return ResponseEntity.ok().eTag(etag(version)).cacheControl(REVALIDATE).body(body);
    }

    private static String opaque(String tag) {
        var strong = tag.startsWith("W/") ? tag.substring(2) : tag;
        return strong.length() >= 2 && strong.startsWith("\"") && strong.endsWith("\"") ? strong : "\u0000" + strong;
    }
}
