package io.changeflow.adapter.web.metrics;

import io.changeflow.adapter.web.identity.CallerIdentity;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Interceptor 3 of 3: business activity counts, only for an explicit allowlist of
 * {@code METHOD /path/template} entries ({@code changeflow.metrics.business-activities}); wildcards
 * are refused, so unrelated traffic never enters here. {@value #RECEIVED} counts a request when it
 * arrives here (after rate limiting and authorization passed: a 429 never counts), and
 * {@value #SUCCEEDED} counts it in {@code afterCompletion} for a 2xx answer only. Tags: the
 * activity and the caller's account.
 *
 * <p>Failure behaviour: observability never interferes. {@code preHandle} always returns true and
 * never writes a response; metrics read only resolved values (the handler mapping's template and
 * the shared identity resolver, read-only through {@link CallerIdentity#peek}), never the body or
 * its parameters; an identity that is not VERIFIED (or absent) skips the count rather than
 * guessing; tags are normalized and truncated by {@link SafeMeters}; every exception is caught.
 */
public final class BusinessActivityInterceptor implements HandlerInterceptor {

    public static final String RECEIVED = "changeflow.business.requests.received";
    public static final String SUCCEEDED = "changeflow.business.requests.succeeded";

    private static final Logger log = LoggerFactory.getLogger(BusinessActivityInterceptor.class);
    private static final Pattern ENTRY = Pattern.compile("^(GET|POST|PUT|PATCH|DELETE)\\s+(/[A-Za-z0-9._~{}/-]*)$",
            Pattern.CASE_INSENSITIVE);

    /** One allowlisted activity. */
    record Activity(String method, String pathTemplate) {

        /** Parses {@code "POST /api/requests"}; empty for anything else, wildcards included. */
        static Optional<Activity> parse(String entry) {
            var matcher = ENTRY.matcher(entry.strip());
            return matcher.matches()
                    ? Optional.of(new Activity(matcher.group(1).toUpperCase(Locale.ROOT), matcher.group(2)))
                    : Optional.empty();
        }

        String tag() {
            return method + " " + pathTemplate;
        }
    }

    private final Set<Activity> allowlist;
    private final CallerIdentity identities;
    private final SafeMeters meters;

    public BusinessActivityInterceptor(Set<Activity> allowlist, CallerIdentity identities, SafeMeters meters) {
        this.allowlist = Set.copyOf(allowlist);
        this.identities = identities;
        this.meters = meters;
    }

    /** The valid entries of {@code entries}; invalid ones (wildcards included) are logged and ignored. */
    public static Set<Activity> parseAllowlist(List<String> entries) {
        var result = new ArrayList<Activity>();
        for (var entry : entries) {
            if (entry.isBlank()) {
                continue;
            }
            Activity.parse(entry).ifPresentOrElse(result::add,
                    () -> log.warn("business activity '{}' ignored: expected 'METHOD /exact/path', no wildcards", entry));
        }
        return Set.copyOf(result);
    }

    /** The path templates to register this interceptor for (an empty list must not be registered: it would match all). */
    public List<String> pathTemplates() {
        return allowlist.stream().map(Activity::pathTemplate).distinct().sorted().toList();
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        try {
            count(RECEIVED, request);
        } catch (RuntimeException e) {
            log.debug("business activity metric failed", e);
        }
        return true;
    }

    @Override
    public void afterCompletion(HttpServletRequest request, HttpServletResponse response, Object handler, Exception ex) {
        try {
            var status = response.getStatus();
            if (ex == null && status >= 200 && status < 300) {
                count(SUCCEEDED, request);
            }
        } catch (RuntimeException e) {
            log.debug("business activity metric failed", e);
        }
    }

    private void count(String metric, HttpServletRequest request) {
        if (request.getDispatcherType() != DispatcherType.REQUEST) {
            return;
        }
        var activity = new Activity(request.getMethod(),
                String.valueOf(request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)));
        if (!allowlist.contains(activity)) {
            return;
        }
        var identity = identities.peek(request).readable();
        if (identity.isEmpty() || !identity.get().isVerified()) {
            return;
        }
        var tags = new LinkedHashMap<String, String>();
        tags.put("activity", activity.tag());
        // No account tag: personal data never goes into monitoring, and one series per person would be unbounded.
        meters.increment(metric, tags);
    }
}
