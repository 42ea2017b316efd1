package io.changeflow.application.query;

import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.state.BindingStatus;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Counts of the subject-target relationships by their current status, for the legacy statistics
 * page: one aggregate query, nothing per row.
 */
public final class ShowStats {

    /** No parameters: the whole service. */
    public record Command() {}

    /**
     * @param byStatus every status, 0 when no relationship is in it
     */
    public record Stats(Map<BindingStatus, Long> byStatus) {

        public Stats {
            var all = new EnumMap<BindingStatus, Long>(BindingStatus.class);
            for (var status : BindingStatus.values()) {
                all.put(status, Math.max(0, byStatus.getOrDefault(status, 0L)));
            }
            byStatus = Map.copyOf(all);
        }

        /** Every relationship, whatever its status. */
        public long total() {
            return sum(status -> true);
        }

        /** Still moving or waiting on a system ({@link BindingStatus#isInProgress}). */
        public long inProgress() {
            return sum(BindingStatus::isInProgress);
        }

        /** Stopped at a failure that needs someone ({@link BindingStatus#isFailed}). */
        public long failed() {
            return sum(BindingStatus::isFailed);
        }

        public long count(BindingStatus status) {
            return byStatus.get(status);
        }

        private long sum(Predicate<BindingStatus> which) {
            return byStatus.entrySet().stream().filter(e -> which.test(e.getKey())).mapToLong(Map.Entry::getValue).sum();
        }
    }

    private final Operations operations;

    public ShowStats(Operations operations) {
        this.operations = operations;
    }

    public Stats show(Command command) {
        return new Stats(operations.countByStatus());
    }
}
