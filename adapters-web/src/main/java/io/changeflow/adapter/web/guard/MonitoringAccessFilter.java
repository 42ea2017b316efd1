package io.changeflow.adapter.web.guard;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.identity.CallerIdentity;
import io.changeflow.adapter.web.identity.PermissionChecks;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Monitoring is not public. On the application's port, {@code /actuator/health} and its probe groups
 * {@code /actuator/health/liveness} and {@code /actuator/health/readiness} answer anyone, with the
 * status only; everything else under {@code /actuator} (the Prometheus scrape, health components) is for
 * callers holding one of {@code changeflow.monitoring.rule-codes} (default {@code ops.operator},
 * {@code ops.admin}): 401 UNAUTHENTICATED without identity, 403 ACCESS_DENIED otherwise, also for an
 * unverified identity and when the permission service fails or is slow (fail closed). Such a caller
 * also sees the health details: the request carries them as its principal, which Boot's
 * {@code show-details: when-authorized} reads. A separate management port
 * ({@code management.server.port}) is meant for the monitoring network only (docs/operations.md). The OpenAPI
 * document under {@code /v3/} stays on the application's port and is for the same callers as the scrape.
 */
public final class MonitoringAccessFilter extends OncePerRequestFilter {

    static final String PREFIX = "/actuator";
    /** The OpenAPI document ({@code /v3/api-docs}, {@code /v3/api-docs.yaml}): for the same callers as the scrape. */
    static final String API_DOCS_PREFIX = "/v3";
    static final Set<String> PUBLIC_PATHS = Set.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness");

    private static final Logger log = LoggerFactory.getLogger(MonitoringAccessFilter.class);

    private final CallerIdentity identities;
    private final PermissionChecks permissions;
    private final Set<String> ruleCodes;
    private final JsonResponses responses;
    private final SafeMeters meters;

    public MonitoringAccessFilter(CallerIdentity identities, PermissionChecks permissions, Set<String> ruleCodes,
            JsonResponses responses, SafeMeters meters) {
        this.identities = identities;
        this.permissions = permissions;
        this.ruleCodes = Set.copyOf(ruleCodes);
        this.responses = responses;
        this.meters = meters;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        var path = path(request);
        return !(under(path, PREFIX) || under(path, API_DOCS_PREFIX));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var open = PUBLIC_PATHS.contains(stripTrailingSlash(path(request)));
        var caller = identities.current(request);
        if (!(caller instanceof CallerIdentity.Caller.Known(var identity))) {
            if (open) {
                chain.doFilter(request, response);
                return;
            }
            meters.increment(MeterNames.AUTHORIZATION_DENIED, Map.of("status", "401"));
            responses.writeError(request, response, ErrorCode.UNAUTHENTICATED);
            return;
        }
        var answer = permissions.check(identity, ruleCodes);
        if (answer instanceof PermissionChecks.Answer.Failed(var reason, var cause)) {
            log.warn("permission service failed ({}) for {} on {}; monitoring access denied", reason, identity,
                    request.getRequestURI(), cause);
        }
        var held = answer.heldOrNone();
        if (!held.isEmpty()) {
            chain.doFilter(new Monitor(request, identity.account(), held), response);
            return;
        }
        if (open) {
            chain.doFilter(request, response);
            return;
        }
        log.info("monitoring access denied {} for {}", request.getRequestURI(), identity);
        meters.increment(MeterNames.AUTHORIZATION_DENIED, Map.of("status", "403"));
        responses.writeError(request, response, ErrorCode.ACCESS_DENIED);
    }

    /** The decoded, normalized path the dispatcher matches ({@code /actuator/./prometheus}, {@code %61ctuator} included). */
    private static String path(HttpServletRequest request) {
        var servletPath = request.getServletPath() == null ? "" : request.getServletPath();
        var pathInfo = request.getPathInfo() == null ? "" : request.getPathInfo();
        var path = servletPath + pathInfo;
        return path.isEmpty() ? request.getRequestURI() : path;
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    private static String stripTrailingSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /** The request of a caller allowed to monitor: a principal (for {@code when-authorized}) and the codes held as roles. */
    private static final class Monitor extends HttpServletRequestWrapper {

        private final Principal principal;
        private final Set<String> roles;

        Monitor(HttpServletRequest request, String account, Set<String> roles) {
            super(request);
            this.principal = () -> account;
            this.roles = roles;
        }

        @Override
        public Principal getUserPrincipal() {
            return principal;
        }

        @Override
        public String getRemoteUser() {
            return principal.getName();
        }

        @Override
        public boolean isUserInRole(String role) {
            return roles.contains(role);
        }
    }
}
