package io.changeflow.application.query;

import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.port.out.GrantRecords.Cursor;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The operators' audit export (issue 32, item 6): the life of every grant requested in a time range or in effect at
 * some instant of it ({@link GrantLife}, {@link GrantRecords#grantsOverlapping}), handed to a sink one grant at a time as pages of {@link #PAGE_SIZE} are read (three reads a
 * page: the grants, the requests that took them over, and the histories of both), so an export never holds more than one
 * page. One export hands at most {@link #MAX_GRANTS} grants; the rest is the next export's, from the cursor it
 * returns.
 */
public final class ExportGrantLives {

    /** Grants read at once. */
    public static final int PAGE_SIZE = 500;
    /** Grants one export hands at most. */
    public static final int MAX_GRANTS = 10_000;
    /** The longest time range one export covers. */
    public static final Duration MAX_RANGE = Duration.ofDays(366);

    /** The grants of the range from {@code from} to {@code to} (excluded), after {@code after} when continuing. */
    public record Command(Instant from, Instant to, Optional<Cursor> after) {
        public Command {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(after, "after");
        }
    }

    /** What an export handed: how many grants, and where the next export starts when there are more. */
    public record Outcome(int grants, Optional<Cursor> next) {}

    /** Why a range cannot be exported. */
    public enum Refusal {
        /** {@code to} is not after {@code from}. */
        EMPTY_RANGE,
        /** The range is longer than {@link #MAX_RANGE}. */
        RANGE_TOO_LONG
    }

    private final GrantRecords records;
    private final int pageSize;
    private final int maxGrants;

    public ExportGrantLives(GrantRecords records) {
        this(records, PAGE_SIZE, MAX_GRANTS);
    }

    /** With other sizes (tests): {@code pageSize} grants read at once, at most {@code maxGrants} handed. */
    public ExportGrantLives(GrantRecords records, int pageSize, int maxGrants) {
        this.records = records;
        this.pageSize = Math.max(1, pageSize);
        this.maxGrants = Math.max(1, maxGrants);
    }

    /** Why {@code command}'s range cannot be exported, or empty when it can. */
    public static Optional<Refusal> check(Command command) {
        if (!command.to().isAfter(command.from())) {
            return Optional.of(Refusal.EMPTY_RANGE);
        }
        if (Duration.between(command.from(), command.to()).compareTo(MAX_RANGE) > 0) {
            return Optional.of(Refusal.RANGE_TOO_LONG);
        }
        return Optional.empty();
    }

    /**
     * Hands the lives of the range's grants to {@code sink}, oldest request first.
     *
     * @throws IllegalArgumentException when {@link #check} refuses the range
     */
    public Outcome export(Command command, Consumer<GrantLife> sink) {
        check(command).ifPresent(refusal -> {
            throw new IllegalArgumentException("the range cannot be exported: " + refusal);
        });
        var after = command.after();
        var handed = 0;
        while (handed < maxGrants) {
            var limit = Math.min(pageSize, maxGrants - handed);
            var grants = records.grantsOverlapping(new GrantRecords.Page(command.from(), command.to(), after, limit + 1));
            var page = grants.subList(0, Math.min(limit, grants.size()));
            hand(page, sink);
            handed += page.size();
            if (grants.size() <= limit) {
                return new Outcome(handed, Optional.empty());
            }
            var last = page.getLast();
            after = Optional.of(new Cursor(last.createdAt(), last.id()));
        }
        return new Outcome(handed, after);
    }

    private void hand(List<Operation> grants, Consumer<GrantLife> sink) {
        if (grants.isEmpty()) {
            return;
        }
        var ids = grants.stream().map(Operation::id).toList();
        var takers = records.takingOver(ids);
        var byGrant = new HashMap<OperationId, List<Operation>>();
        for (var taker : takers) {
            taker.removes().ifPresent(grant -> byGrant.computeIfAbsent(grant, g -> new ArrayList<>()).add(taker));
        }
        var everyone = new ArrayList<>(ids);
        takers.forEach(taker -> everyone.add(taker.id()));
        Map<OperationId, List<io.changeflow.domain.operation.HistoryEntry>> histories = records.histories(everyone);
        for (var grant : grants) {
            sink.accept(GrantLife.of(grant, histories.getOrDefault(grant.id(), List.of()),
                    byGrant.getOrDefault(grant.id(), List.of()), histories));
        }
    }
}
