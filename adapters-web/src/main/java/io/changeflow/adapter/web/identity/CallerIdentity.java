package io.changeflow.adapter.web.identity;

import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Directory;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.identity.IdentityResolver;
import io.changeflow.domain.identity.LoginPrincipal;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
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
 * <p>Sources: the headers the gateway sends ({@code changeflow.identity.headers}: {@code X-Forwarded-User}
 * by default, {@code X-Forwarded-Email} only when configured), honoured only when the direct peer is a
 * trusted proxy (a header sent by anyone else is ignored). A configured header that is not sent is
 * never believed from the client. With the sandbox demo login enabled (the sandbox profile only), the
 * {@code cf_demo_user} cookie stands in for {@code X-Forwarded-User} when no identity header is present,
 * only from a loopback or trusted-proxy peer and only for a demo person ({@link DemoPeople}).
 *
 * <p>Fails closed: a user header that is present decides alone. Sent twice, blank, garbled or unreadable,
 * it is {@link Caller.Rejected} (401), never a fall back to the email header; likewise an email header
 * sent twice or unreadable when it is the only one. A directory that throws (or answers null) while an
 * employee ID had to be looked up yields {@link Caller.LoginFailed}, as does any unexpected exception;
 * callers answer 401 for both, never 500.
 */
public final class CallerIdentity {

    public static final String USER_HEADER = "X-Forwarded-User";
    public static final String EMAIL_HEADER = "X-Forwarded-Email";
    public static final String DEMO_COOKIE = "cf_demo_user";

    private static final Logger log = LoggerFactory.getLogger(CallerIdentity.class);
    private static final String ATTRIBUTE = CallerIdentity.class.getName() + ".caller";

    /** The identity headers a gateway may send ({@code changeflow.identity.headers}). */
    public enum Header {
        /** {@value CallerIdentity#USER_HEADER}: an account, an email-style account or an employee ID. */
        USER(USER_HEADER),
        /** {@value CallerIdentity#EMAIL_HEADER}: an email address, read only when no user header is sent. */
        EMAIL(EMAIL_HEADER);

        private final String headerName;

        Header(String headerName) {
            this.headerName = headerName;
        }

        public String headerName() {
            return headerName;
        }

        /** The header named {@code name} (any case), if it is one of ours. */
        public static Optional<Header> named(String name) {
            for (var header : values()) {
                if (header.headerName.equalsIgnoreCase(name.strip())) {
                    return Optional.of(header);
                }
            }
            return Optional.empty();
        }
    }

    private static final DemoPeople NO_DEMO_PEOPLE = new DemoPeople() {
        @Override
        public List<Person> people() {
            return List.of();
        }

        @Override
        public Optional<Person> byAccount(String account) {
            return Optional.empty();
        }
    };

    /** The fail-safe default of {@code changeflow.identity.headers}: only the user header. */
    public static final Set<Header> DEFAULT_HEADERS = Set.of(Header.USER);

    private final TrustedProxies proxies;
    private final Directory directory;
    private final boolean demoLogin;
    private final Set<String> emailDomains;
    private final Set<Header> headers;
    private final DemoPeople demoPeople;

    /** With the {@linkplain #DEFAULT_HEADERS default headers} and no demo people (a demo cookie names nobody). */
    public CallerIdentity(TrustedProxies proxies, Directory directory, boolean demoLogin, Set<String> emailDomains) {
        this(proxies, directory, demoLogin, emailDomains, DEFAULT_HEADERS, NO_DEMO_PEOPLE);
    }

    /**
     * @param emailDomains {@code changeflow.identity.email-domains}: the domains whose addresses name
     *        local accounts; an address of any other domain is an unverified identity (never operations access)
     * @param headers      {@code changeflow.identity.headers}: the identity headers the gateway sends; any other is ignored
     * @param demoPeople   the accounts the demo cookie may name (with {@code demoLogin} only)
     */
    public CallerIdentity(TrustedProxies proxies, Directory directory, boolean demoLogin, Set<String> emailDomains,
            Set<Header> headers, DemoPeople demoPeople) {
        this.demoPeople = demoPeople;
        this.proxies = proxies;
        this.directory = directory;
        this.demoLogin = demoLogin;
        this.headers = Set.copyOf(headers);
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

        /** An identity header was sent but names nobody (repeated, blank, garbled): refused, never replaced by another. */
        record Rejected() implements Caller {}

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
            var sent = principal(request);
            if (sent.isEmpty()) {
                return new Caller.Rejected();
            }
            var principal = sent.get();
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
            // a header was sent and names nobody: refused (401), never anonymous
            return identity.<Caller>map(Caller.Known::new).orElseGet(Caller.Rejected::new);
        } catch (RuntimeException e) {
            log.warn("login identity could not be read", e);
            return new Caller.LoginFailed();
        }
    }

    /**
     * What the login proxy says: the user header alone when it is sent, else the email header (when the gateway
     * sends it), else the demo cookie; empty when a header that decides is sent but unusable (twice, blank).
     */
    private Optional<LoginPrincipal> principal(HttpServletRequest request) {
        if (proxies.peerIsTrusted(request)) {
            for (var header : List.of(Header.USER, Header.EMAIL)) {
                var values = headers.contains(header) ? values(request, header.headerName()) : List.<String>of();
                if (values.size() > 1 || (values.size() == 1 && values.getFirst().isBlank())) {
                    return Optional.empty();
                }
                if (values.size() == 1) {
                    var value = Optional.of(values.getFirst());
                    return Optional.of(header == Header.USER
                            ? new LoginPrincipal(value, Optional.empty()) : new LoginPrincipal(Optional.empty(), value));
                }
            }
        }
        var cookie = demoLogin && peerMaySignInAsDemo(request) ? demoCookie(request) : Optional.<String>empty();
        return Optional.of(new LoginPrincipal(cookie.filter(this::isDemoPerson), Optional.empty()));
    }

    /** Whether the cookie names a person of the demo directory, by account or employee ID (any case). */
    private boolean isDemoPerson(String value) {
        var name = value.strip();
        return demoPeople.people().stream().anyMatch(person -> name.equalsIgnoreCase(person.account())
                || (person.employeeId() != null && name.equalsIgnoreCase(person.employeeId())));
    }

    /** The demo sign-in is for the sandbox's own browser: a loopback peer, or one of the trusted proxies. */
    private boolean peerMaySignInAsDemo(HttpServletRequest request) {
        return proxies.peerIsTrusted(request)
                || IpAddresses.parse(request.getRemoteAddr()).map(java.net.InetAddress::isLoopbackAddress).orElse(false);
    }

    private static List<String> values(HttpServletRequest request, String name) {
        var values = request.getHeaders(name);
        return values == null ? List.of() : Collections.list(values);
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
