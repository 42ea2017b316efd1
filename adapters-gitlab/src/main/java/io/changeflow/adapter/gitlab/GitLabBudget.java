package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.ClusterRateLimits;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GitLab calls all instances together may make per minute ({@code changeflow.gitlab.max-calls-per-minute}),
 * counted in the shared database through {@link ClusterRateLimits} (the sliding-window log the web rate limiter
 * uses, under its own key). Every call takes a slot before it is made; when none is free the call is not made
 * and fails at once with kind RATE_LIMITED carrying the time until a slot frees up, so the step runs again
 * after it: never a wait inside the call, never a breaker failure. Fails open: when the database cannot be
 * asked, the call is made (GitLab's own 429 still protects it).
 */
final class GitLabBudget {

    static final String KEY = "gitlab:api-calls";
    static final Duration WINDOW = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(GitLabBudget.class);

    /** No budget: every call is made (no database round trip). */
    static final GitLabBudget UNLIMITED = new GitLabBudget(null, 0);

    private final ClusterRateLimits limits;
    private final int perMinute;

    /**
     * @param perMinute calls per minute for all instances; 0 or less (or no {@code limits}): unlimited
     */
    GitLabBudget(ClusterRateLimits limits, int perMinute) {
        this.limits = limits;
        this.perMinute = limits == null ? 0 : Math.max(0, perMinute);
    }

    boolean limited() {
        return perMinute > 0;
    }

    int perMinute() {
        return perMinute;
    }

    /** Takes one slot for {@code operation}, or throws RATE_LIMITED with the wait until one frees up. */
    void take(String operation) {
        refusal(operation).ifPresent(refused -> {
            throw refused;
        });
    }

    private Optional<ExternalCallException> refusal(String operation) {
        if (!limited()) {
            return Optional.empty();
        }
        ClusterRateLimits.Decision decision;
        try {
            decision = limits.tryAcquire(KEY, perMinute, WINDOW);
        } catch (RuntimeException e) {
            LOG.warn("GitLab call budget not readable ({}); {} is made without it", e.getClass().getSimpleName(), operation);
            return Optional.empty();
        }
        if (decision.allowed()) {
            return Optional.empty();
        }
        var wait = decision.retryAfter().isZero() ? Duration.ofSeconds(1) : decision.retryAfter();
        return Optional.of(new ExternalCallException(GitLabCalls.SYSTEM, Kind.RATE_LIMITED, 0,
                operation + ": the GitLab call budget (" + perMinute + " a minute, all instances) is used up, "
                        + "the call was not made; a slot frees up in " + wait, null, wait));
    }
}
