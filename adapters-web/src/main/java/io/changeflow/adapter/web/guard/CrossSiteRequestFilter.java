package io.changeflow.adapter.web.guard;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.envelope.JsonResponses;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses cross-site writes (CSRF) before anything runs: a state-changing request (any method but
 * GET, HEAD, OPTIONS, TRACE) must carry what a page of another site cannot send without a CORS
 * preflight, which this service never grants: a JSON body ({@code application/json} or
 * {@code +json}) or the custom header {@value #HEADER}. When the browser says where the request comes
 * from, that must be this site: {@code Sec-Fetch-Site} {@code same-origin}, {@code same-site} or
 * {@code none}, and an {@code Origin} equal to the request's own host (or listed in
 * {@code changeflow.web.allowed-origins}); {@code Origin: null} (sandboxed frames, redirects,
 * {@code file:} pages) is refused. Refused: 403 {@code CROSS_SITE_REQUEST}, counted in
 * {@code changeflow.web.cross_site.refused{reason}}.
 *
 * <p>Not checked: the signed callbacks ({@code /callbacks/}, authenticated by their signatures, never
 * by a cookie) and the machine APIs of the sandbox's simulated systems ({@code /sim/gitlab/},
 * {@code /sim/approval/api/}), which the service's own adapters call server to server, as the real
 * systems would be.
 */
public final class CrossSiteRequestFilter extends OncePerRequestFilter {

    /** The custom header that marks a request as sent by a script of this site (any non-blank value). */
    public static final String HEADER = "X-Requested-With";

    public static final List<String> UNCHECKED_PREFIXES = List.of("/callbacks/", "/sim/gitlab/", "/sim/approval/api/");

    private static final Logger log = LoggerFactory.getLogger(CrossSiteRequestFilter.class);
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final Set<String> SAME_SITE_FETCHES = Set.of("same-origin", "same-site", "none");

    private final Set<String> allowedOrigins;
    private final JsonResponses responses;
    private final SafeMeters meters;

    public CrossSiteRequestFilter(Collection<String> allowedOrigins, JsonResponses responses, SafeMeters meters) {
        this.allowedOrigins = parseOrigins(allowedOrigins);
        this.responses = responses;
        this.meters = meters;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        if (SAFE_METHODS.contains(request.getMethod().toUpperCase(Locale.ROOT))) {
            return true;
        }
        var path = request.getRequestURI();
        return UNCHECKED_PREFIXES.stream().anyMatch(path::startsWith);
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var refusal = refusal(request);
        if (refusal.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        meters.increment(MeterNames.CROSS_SITE_REFUSED, Map.of("reason", refusal.get()));
        log.info("Refused a cross-site {} {} ({})", request.getMethod(), request.getRequestURI(), refusal.get());
        responses.writeError(request, response, ErrorCode.CROSS_SITE_REQUEST);
    }

    /** Why {@code request} looks cross-site (a bounded reason for the metric), or empty when it may pass. */
    Optional<String> refusal(HttpServletRequest request) {
        var fetchSite = request.getHeader("Sec-Fetch-Site");
        if (fetchSite != null && !SAME_SITE_FETCHES.contains(fetchSite.strip().toLowerCase(Locale.ROOT))) {
            return Optional.of("fetch_site");
        }
        var origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && !sameSite(origin, request.getHeader(HttpHeaders.HOST))) {
            return Optional.of("origin");
        }
        if (!json(request.getContentType()) && blank(request.getHeader(HEADER))) {
            return Optional.of("no_script_marker");
        }
        return Optional.empty();
    }

    private boolean sameSite(String origin, String host) {
        var normalized = normalizeOrigin(origin);
        if (normalized.isEmpty()) {
            return false;
        }
        if (allowedOrigins.contains(normalized.get())) {
            return true;
        }
        if (host == null || host.isBlank()) {
            return false;
        }
        // The Host header as the browser sent it (the login proxy passes it on): same authority, scheme as the origin's.
        var scheme = normalized.get().substring(0, normalized.get().indexOf(':'));
        return normalizeOrigin(scheme + "://" + host.strip()).equals(normalized);
    }

    /** {@code scheme://host:port} in lower case with the port made explicit, or empty for anything else ({@code null} included). */
    static Optional<String> normalizeOrigin(String raw) {
        try {
            var uri = new URI(raw.strip());
            var scheme = uri.getScheme();
            var host = uri.getHost();
            if (scheme == null || host == null || uri.getRawUserInfo() != null
                    || (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !"/".equals(uri.getRawPath()))
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                return Optional.empty();
            }
            scheme = scheme.toLowerCase(Locale.ROOT);
            var port = uri.getPort();
            if (port < 0) {
                port = switch (scheme) {
                    case "https" -> 443;
                    case "http" -> 80;
                    default -> -1;
                };
            }
            if (port < 0) {
                return Optional.empty();
            }
            return Optional.of(scheme + "://" + host.toLowerCase(Locale.ROOT) + ":" + port);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static Set<String> parseOrigins(Collection<String> configured) {
        var origins = new LinkedHashSet<String>();
        for (var entry : configured) {
            var origin = normalizeOrigin(entry);
            if (origin.isPresent()) {
                origins.add(origin.get());
            } else {
                // Fail safe: an entry that is not an origin allows nothing (rather than stopping start-up or matching loosely).
                log.warn("changeflow.web.allowed-origins: '{}' is not an origin (scheme://host[:port]) and is ignored", entry);
            }
        }
        return Set.copyOf(origins);
    }

    private static boolean json(String contentType) {
        if (contentType == null) {
            return false;
        }
        var type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
