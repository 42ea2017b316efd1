package io.changeflow.adapter.web.identity;

import io.changeflow.application.port.out.Directory;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.identity.IdentityResolver;
import io.changeflow.domain.identity.LoginPrincipal;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is calling: the login proxy's fields resolved through the one domain {@link IdentityResolver}
 * (employee IDs through the {@link Directory} port), shared by rate limiting, authorization, audit
 * and metrics so a person never has two names.
 *
 * <p>An email address (in either header) names the local account of its local part only for an
 * accepted domain ({@code changeflow.identity.email-domains}); any other domain is an unverified
 * identity: it tells callers apart but is never granted operations access.
 *
 * <p>Sources: {@code X-Forwarded-User} / {@code X-Forwarded-Email}, honoured only when the direct
 * peer is a trusted proxy (a header sent by anyone else is ignored; a header sent twice is
 * ambiguous and ignored). With the sandbox demo login enabled, the {@code cf_demo_user} cookie
 * stands in for {@code X-Forwarded-User} when no identity header is present.
 *
 * <p>Failure behaviour: a directory that throws (or answers null) while an employee ID had to be
 * looked up, and no other field gave a verified identity, yields {@link Caller.LoginFailed}, as does
 * any unexpected exception; callers answer 401 for it, never 500.
 */
public final class CallerIdentity {

    public static final String USER_HEADER = "X-Forwarded-User";
    public static final String EMAIL_HEADER = "X-Forwarded-Email";
    public static final String DEMO_COOKIE = "cf_demo_user";

    private static final Logger log = LoggerFactory.getLogger(CallerIdentity.class);
    private static final String ATTRIBUTE = CallerIdentity.class.getName() + ".caller";

    private final TrustedProxies proxies;
    private final Directory directory;
    private final boolean demoLogin;
    private final Set<String> emailDomains;

    /**
     * @param emailDomains {@code changeflow.identity.email-domains}: the domains whose addresses name
     *        local accounts; an address of any other domain is an unverified identity (never operations access)
     */
    public CallerIdentity(TrustedProxies proxies, Directory directory, boolean demoLogin, Set<String> emailDomains) {
        this.proxies = proxies;
        this.directory = directory;
        this.demoLogin = demoLogin;
        var valid = IdentityResolver.validDomains(emailDomains);
        if (valid.size() < emailDomains.size()) {
            log.warn("changeflow.identity.email-domains: entries that are not domain names are ignored (they accept nothing)");
        }
        if (valid.isEmpty()) {
            log.info("No accepted email domain (changeflow.identity.email-domains): an email address alone is an unverified identity");
        }
        this.emailDomains = valid;
    }

    /** The resolution of the caller. */
    public sealed interface Caller {

        /** A readable identity (verified, or an unverified employee ID the directory did not know). */
        public record Known(Identity identity) implements Caller {}

        /** No readable identity at all. */
        record Anonymous() implements Caller {}

        /** The login source failed: the identity could not be established right now. */
        record LoginFailed() implements Caller {}

        /** The identity, if readable. */
        default Optional<Identity> readable() {
            return this instanceof Known known ? Optional.of(known.identity()) : Optional.empty();
        }
    }

    /** The caller of {@code request}, resolved once and kept for the rest of the request (business use). */
    public Caller current(HttpServletRequest request) {
        if (request.getAttribute(ATTRIBUTE) instanceof Caller cached) {
            return cached;
        }
        var caller = resolve(request);
        request.setAttribute(ATTRIBUTE, caller);
        return caller;
    }

    /**
     * Read-only access for observability: the caller already resolved for this request, else a fresh
     * resolution that is not stored, so metrics never decide what the business logic sees.
     */
    public Caller peek(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof Caller cached ? cached : resolve(request);
    }

    private Caller resolve(HttpServletRequest request) {
        try {
            var principal = principal(request);
            if (principal.user().isEmpty() && principal.email().isEmpty()) {
                return new Caller.Anonymous();
            }
            var directoryFailed = new AtomicBoolean();
            var resolver = new IdentityResolver(employeeId -> {
                try {
                    var account = directory.accountOf(employeeId);
                    if (account == null) {
                        directoryFailed.set(true);
                        return Optional.empty();
                    }
                    return account;
                } catch (RuntimeException e) {
                    directoryFailed.set(true);
                    log.warn("directory lookup failed for an employee ID", e);
                    throw e;
                }
            }, emailDomains);
            var identity = resolver.resolve(principal);
            if (directoryFailed.get() && identity.map(i -> !i.isVerified()).orElse(true)) {
                return new Caller.LoginFailed();
            }
            return identity.<Caller>map(Caller.Known::new).orElseGet(Caller.Anonymous::new);
        } catch (RuntimeException e) {
            log.warn("login identity could not be read", e);
            return new Caller.LoginFailed();
        }
    }

    private LoginPrincipal principal(HttpServletRequest request) {
        Optional<String> user = Optional.empty();
        Optional<String> email = Optional.empty();
        if (proxies.peerIsTrusted(request)) {
            user = singleHeader(request, USER_HEADER);
            email = singleHeader(request, EMAIL_HEADER);
        }
        if (demoLogin && user.isEmpty() && email.isEmpty()) {
            user = demoCookie(request);
        }
        return new LoginPrincipal(user, email);
    }

    private static Optional<String> singleHeader(HttpServletRequest request, String name) {
        var values = request.getHeaders(name);
        if (values == null) {
            return Optional.empty();
        }
        var list = Collections.list(values);
        return list.size() == 1 && !list.getFirst().isBlank() ? Optional.of(list.getFirst()) : Optional.empty();
    }

    private static Optional<String> demoCookie(HttpServletRequest request) {
        var cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie cookie : cookies) {
            if (DEMO_COOKIE.equals(cookie.getName()) && cookie.getValue() != null && !cookie.getValue().isBlank()) {
                return Optional.of(cookie.getValue());
            }
        }
        return Optional.empty();
    }
}
