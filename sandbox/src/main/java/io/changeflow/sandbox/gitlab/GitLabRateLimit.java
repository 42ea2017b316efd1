package io.changeflow.sandbox.gitlab;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * GitLab's authenticated API rate limit as the simulator applies it: at most {@code perMinute} calls per
 * account (token) in any minute; beyond that GitLab answers 429 "Retry later" with {@code Retry-After}
 * (seconds until the oldest counted call leaves the minute) and the {@code RateLimit-*} headers
 * ({@code RateLimit-Name}, {@code -Limit}, {@code -Observed}, {@code -Remaining}, {@code -Reset} as a Unix
 * time, {@code -ResetTime} as an HTTP date), per GitLab's {@code doc/administration/settings/user_and_ip_rate_limits.md}.
 * Refused calls are not counted. Off (0) by default.
 *
 * <p>The limit is counted over GitLab's "rate limit period" ({@code throttle_authenticated_api_period_in_seconds};
 * {@code sandbox.gitlab.rate-limit-period}, default one minute): over a shorter period the same rate allows
 * {@code perMinute × period / 1 min} calls (rounded up, at least one), so that tests see 429s with a short
 * {@code Retry-After}.
 */
public final class GitLabRateLimit {

    static final Duration WINDOW = Duration.ofMinutes(1);

    /** A refusal: what the 429's headers say. */
    record Refusal(int limit, int observed, Duration retryAfter, Instant resetAt) {}

    private final Clock clock;
    private final Map<String, ArrayDeque<Instant>> callsByAccount = new HashMap<>();
    private volatile int perMinute;
    private volatile Duration period = WINDOW;
    private volatile boolean headersOnEveryAnswer;
    private long refused;

    GitLabRateLimit(Clock clock, int perMinute) {
        this.clock = clock;
        this.perMinute = Math.max(0, perMinute);
    }

    /** Calls per minute per account; 0 or less: no limit. */
    public void setPerMinute(int perMinute) {
        this.perMinute = Math.max(0, perMinute);
        synchronized (this) {
            callsByAccount.clear();
        }
    }

    public int perMinute() {
        return perMinute;
    }

    /** The period the limit is counted over; null, zero or negative: one minute (GitLab's period as here by default). */
    public void setPeriod(Duration period) {
        this.period = period == null || period.isZero() || period.isNegative() ? WINDOW : period;
        synchronized (this) {
            callsByAccount.clear();
        }
    }

    public Duration period() {
        return period;
    }

    /** Calls allowed per {@link #period()} at {@code perMinute} a minute: rounded up, at least one. */
    private static int perPeriod(int perMinute, Duration period) {
        var calls = (long) perMinute * period.toMillis();
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (calls + WINDOW.toMillis() - 1) / WINDOW.toMillis()));
    }

    /** How many calls were answered 429 so far. */
    public synchronized long refused() {
        return refused;
    }

    /** Counts one call of {@code account}; a refusal when it is over the limit (then not counted). */
    synchronized Optional<Refusal> admit(String account) {
        if (perMinute <= 0) {
            return Optional.empty();
        }
        var window = period;
        var limit = perPeriod(perMinute, window);
        var now = clock.instant();
        var calls = callsInWindow(account, window, now);
        if (calls.size() < limit) {
            calls.addLast(now);
            return Optional.empty();
        }
        refused++;
        var resetAt = calls.peekFirst().plus(window);
        return Optional.of(new Refusal(limit, calls.size(), Duration.between(now, resetAt), resetAt));
    }

    /** {@code account}'s calls within the window that ends {@code now} (older ones dropped). */
    private ArrayDeque<Instant> callsInWindow(String account, Duration window, Instant now) {
        var calls = callsByAccount.computeIfAbsent(account, key -> new ArrayDeque<>());
        while (!calls.isEmpty() && !calls.peekFirst().plus(window).isAfter(now)) {
            calls.removeFirst();
        }
        return calls;
    }

    /** What an answer's {@code RateLimit-*} headers say of an account's budget in the current period. */
    public record Budget(int limit, int observed, int remaining, Instant resetAt) {}

    /**
     * Whether admitted answers carry the {@code RateLimit-*} headers too (not only the 429s): GitLab's feature flag
     * {@code rate_limiting_headers_for_unthrottled_requests} (spec/requests/rack_attack_headers_spec.rb, lib/gitlab/
     * rack_attack.rb; read at 19.1-pre): {@code RateLimit-Name}, {@code -Limit}, {@code -Observed}, {@code -Remaining},
     * {@code -Reset}, never {@code Retry-After} nor {@code -ResetTime}. Off by default, as on GitLab before it.
     */
    public void setHeadersOnEveryAnswer(boolean on) {
        this.headersOnEveryAnswer = on;
    }

    public boolean headersOnEveryAnswer() {
        return headersOnEveryAnswer;
    }

    /** {@code account}'s budget now (after the call just admitted); empty while no limit is set. */
    public synchronized Optional<Budget> budget(String account) {
        if (perMinute <= 0) {
            return Optional.empty();
        }
        var window = period;
        var limit = perPeriod(perMinute, window);
        var now = clock.instant();
        var calls = callsInWindow(account, window, now);
        var resetAt = calls.isEmpty() ? now.plus(window) : calls.peekFirst().plus(window);
        return Optional.of(new Budget(limit, calls.size(), Math.max(0, limit - calls.size()), resetAt));
    }

    /**
     * Counts calls of {@code account} (a token) as made now until {@code remaining} are left in the current period
     * (a test's "the budget is nearly used up"); needs a limit set. Calls already counted stay.
     */
    public synchronized void setRemaining(String account, int remaining) {
        if (perMinute <= 0) {
            throw new IllegalStateException("no rate limit is set");
        }
        var limit = perPeriod(perMinute, period);
        var calls = callsByAccount.computeIfAbsent(account, key -> new ArrayDeque<>());
        var now = clock.instant();
        while (calls.size() < limit - Math.max(0, remaining)) {
            calls.addLast(now);
        }
    }

    /** Forgets the counted calls and refusals. */
    public synchronized void reset() {
        callsByAccount.clear();
        refused = 0;
    }
}
