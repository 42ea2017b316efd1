package io.changeflow.application.recovery;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.query.RequestView;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds requests for operators: those in a status (or any non-terminal one) whose last state write
 * is older than {@code stuckFor}, by the database clock, oldest first.
 */
public final class FindStuckRequests {

    public static final int MAX_LIMIT = 500;

    /**
     * @param status empty: any non-terminal status
     * @param target empty: every target
     */
    public record Command(Optional<BindingStatus> status, Optional<TargetKey> target, Duration stuckFor, int limit) {
        /** Requests in {@code status}, on every target. */
        public static Command of(BindingStatus status, Duration stuckFor, int limit) {
            return new Command(Optional.of(status), Optional.empty(), stuckFor, limit);
        }

        /** Requests in any non-terminal status, on every target. */
        public static Command any(Duration stuckFor, int limit) {
            return new Command(Optional.empty(), Optional.empty(), stuckFor, limit);
        }
    }

    private final Operations operations;

    public FindStuckRequests(Operations operations) {
        this.operations = operations;
    }

    public List<RequestView> find(Command command) {
        var stuckFor = command.stuckFor().isNegative() ? Duration.ZERO : command.stuckFor();
        var statuses = command.status().map(Set::of).orElse(Set.of());
        var limit = Math.clamp(command.limit(), 1, MAX_LIMIT);
        return command.target()
                .map(target -> operations.stuck(statuses, target, stuckFor, limit))
                .orElseGet(() -> operations.stuck(statuses, stuckFor, limit))
                .stream()
                .map(RequestView::summaryOf)
                .toList();
    }
}
