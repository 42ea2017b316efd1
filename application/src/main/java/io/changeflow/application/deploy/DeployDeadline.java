package io.changeflow.application.deploy;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.PageCursor;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * The deploy deadline (issue 20): a merged request that no deploy report confirmed within
 * {@code changeflow.workflow.deploy-deadline} moves to DEPLOY_UNCONFIRMED (hint CONTACT_MAINTAINERS), pinned to the
 * version read, at most {@link Policy#pagesPerRun} pages per run. Paging and what comes next: docs/operations.md,
 * "Deploy states".
 */
public final class DeployDeadline {

    private static final System.Logger LOG = System.getLogger(DeployDeadline.class.getName());

    /**
     * @param deadline    how long a merged request may wait for its deploy report; positive
     * @param every       the pause between two runs of the job; positive
     * @param pageSize    candidates read per page; positive
     * @param pagesPerRun pages one run goes through at most; positive
     */
    public record Policy(Duration deadline, Duration every, int pageSize, int pagesPerRun) {

        public static final Duration DEFAULT_DEADLINE = Duration.ofHours(2);
        public static final Duration DEFAULT_EVERY = Duration.ofMinutes(1);
        public static final int DEFAULT_PAGE_SIZE = 200;
        public static final int DEFAULT_PAGES_PER_RUN = 10;

        private static final Pattern SIMPLE = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)?");

        public Policy {
            Objects.requireNonNull(deadline, "deadline");
            Objects.requireNonNull(every, "every");
            if (!isPositive(deadline) || !isPositive(every) || pageSize < 1 || pagesPerRun < 1) {
                throw new IllegalArgumentException("the deploy deadline, its interval and its paging must be positive");
            }
        }

        public static Policy defaults() {
            return new Policy(DEFAULT_DEADLINE, DEFAULT_EVERY, DEFAULT_PAGE_SIZE, DEFAULT_PAGES_PER_RUN);
        }

        /**
         * The policy from configuration text ({@code 2h}, {@code 90s}, {@code 500ms}, {@code PT2H}; a bare
         * number is milliseconds, like Spring's durations). Fail-safe: a missing, garbled, zero or negative
         * value means its default, never "no deadline" and never "immediately".
         */
        public static Policy of(RawValue deadline, RawValue every) {
            return new Policy(duration(deadline, DEFAULT_DEADLINE), duration(every, DEFAULT_EVERY), DEFAULT_PAGE_SIZE,
                    DEFAULT_PAGES_PER_RUN);
        }

        /** {@code text} as a positive duration, or {@code fallback} when it is missing, garbled, zero or negative. */
        static Duration duration(RawValue text, Duration fallback) {
            return text.text().map(String::strip).filter(t -> !t.isEmpty()).flatMap(Policy::parseDuration).filter(Policy::isPositive)
                    .orElse(fallback);
        }

        /**
         * Configuration text as a duration ({@code 2h}, {@code 90s}, {@code 500ms}, {@code PT2H}; a bare number is
         * milliseconds); empty when garbled. Zero and negative values are returned as read: callers decide.
         */
        public static Optional<Duration> parseDuration(String text) {
            try {
                if (text.regionMatches(true, 0, "P", 0, 1)) {
                    return Optional.of(Duration.parse(text.toUpperCase(Locale.ROOT)));
                }
                var simple = SIMPLE.matcher(text.toLowerCase(Locale.ROOT));
                if (!simple.matches()) {
                    return Optional.empty();
                }
                var amount = Long.parseLong(simple.group(1));
                return Optional.of(switch (simple.group(2) == null ? "ms" : simple.group(2)) {
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    case "d" -> Duration.ofDays(amount);
                    default -> Duration.ofMillis(amount);
                });
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }

        private static boolean isPositive(Duration duration) {
            return !duration.isNegative() && !duration.isZero();
        }
    }

    /** One scheduled run (the policy says everything). */
    public record Command() {}

    /** How many merged requests past the deadline this run looked at, and how many it moved. */
    public record Result(int examined, int unconfirmed) {}

    private final Operations operations;
    private final StateChanges changes;
    private final Policy policy;
    private final AtomicReference<PageCursor> resumeAfter = new AtomicReference<>(PageCursor.START);

    public DeployDeadline(Operations operations, StateChanges changes, Policy policy) {
        this.operations = operations;
        this.changes = changes;
        this.policy = policy;
    }

    public Result run(Command command) {
        var cursor = resumeAfter.get();
        var examined = 0;
        var unconfirmed = 0;
        for (int page = 0; page < policy.pagesPerRun(); page++) {
            var candidates = operations.mergedLongerThan(policy.deadline(), cursor, policy.pageSize());
            for (var op : candidates.operations()) {
                examined++;
                if (unconfirm(op)) {
                    unconfirmed++;
                }
            }
            cursor = candidates.next().orElse(PageCursor.START);
            if (candidates.next().isEmpty()) {
                break;
            }
        }
        resumeAfter.set(cursor);
        return new Result(examined, unconfirmed);
    }

    private boolean unconfirm(Operation op) {
        try {
            changes.apply(op, WorkflowEvent.DEPLOY_DEADLINE_PASSED, "Merged, but no deploy report confirmed it within "
                    + readable(policy.deadline()) + "; a person should check whether the change is live.");
            LOG.log(Level.WARNING, () -> op.id() + " merged but unconfirmed after " + policy.deadline());
            return true;
        } catch (PreemptedException | IllegalTransitionException e) {
            // a deploy report, reconciliation or an operator moved it since it was read: nothing to do
            return false;
        }
    }

    /** A duration as a person reads it: {@code 2 h}, {@code 90 min}, {@code 45 s}. */
    static String readable(Duration duration) {
        var seconds = Math.max(1, duration.toSeconds());
        if (seconds < 60 || seconds % 60 != 0) {
            return seconds + " s";
        }
        if (seconds < 3600 || seconds % 3600 != 0) {
            return seconds / 60 + " min";
        }
        return seconds / 3600 + " h";
    }
}
