package io.changeflow.application.grant;

import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Binding;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How many grants expire soon, for the operators (issue 18, item 5): the grants in effect whose expiry is within
 * {@code within} of the database clock (those already past it that the expiry job has not taken yet included), and
 * the soonest of them. Counted in the database in one statement ({@link Operations#expiringWithin}).
 */
public final class ListExpiringGrants {

    /** The window operators look at by default. */
    public static final Duration DEFAULT_WITHIN = Duration.ofHours(24);
    /** The longest window asked for; longer asks are refused (a count over the whole table is not this query's job). */
    public static final Duration MAX_WITHIN = Duration.ofDays(31);
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 500;

    /**
     * @param within how far ahead; positive, at most {@link #MAX_WITHIN}
     * @param limit  how many grants to list; clamped to 1..{@link #MAX_LIMIT}
     */
    public record Command(Duration within, int limit) {
        public Command {
            Objects.requireNonNull(within, "within");
        }
    }

    /** The answer. */
    public sealed interface Result {

        /** The count and the first grants of the window, soonest expiry first. */
        record Listed(Duration within, long count, List<Binding> first) implements Result {
            public Listed {
                first = List.copyOf(first);
            }

            /** True when more grants are in the window than listed. */
            public boolean hasMore() {
                return count > first.size();
            }
        }

        /** The window is zero, negative or longer than {@link #MAX_WITHIN}: nothing was read. */
        record OutOfRange(Duration within) implements Result {}
    }

    private final Operations operations;

    public ListExpiringGrants(Operations operations) {
        this.operations = operations;
    }

    public Result list(Command command) {
        var within = command.within();
        if (within.isZero() || within.isNegative() || within.compareTo(MAX_WITHIN) > 0) {
            return new Result.OutOfRange(within);
        }
        var found = operations.expiringWithin(within, Math.clamp(command.limit(), 1, MAX_LIMIT));
        return new Result.Listed(within, found.count(), found.first());
    }
}
