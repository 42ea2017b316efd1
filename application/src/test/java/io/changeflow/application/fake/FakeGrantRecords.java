package io.changeflow.application.fake;

import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link GrantRecords} read from a {@link FakeOperations}, as the jOOQ adapter reads the same tables. */
public final class FakeGrantRecords implements GrantRecords {

    private static final Comparator<Operation> REQUESTED = Comparator.comparing(Operation::createdAt)
            .thenComparing(op -> op.id().value());

    private final FakeOperations operations;

    public FakeGrantRecords(FakeOperations operations) {
        this.operations = operations;
    }

    @Override
    public List<Operation> grantsOverlapping(Page page) {
        return operations.all().stream()
                .filter(op -> op.kind() == ChangeKind.GRANT)
                .filter(op -> op.createdAt().isBefore(page.to()))
                .filter(op -> !op.createdAt().isBefore(page.from()) || inEffectBefore(op, page.to()) && !endedBefore(op, page.from()))
                .filter(op -> page.after().map(after -> op.createdAt().isAfter(after.requestedAt())
                        || op.createdAt().equals(after.requestedAt()) && op.id().value().compareTo(after.id().value()) > 0)
                        .orElse(true))
                .sorted(REQUESTED).limit(Math.max(0, page.limit())).toList();
    }

    private boolean inEffectBefore(Operation grant, Instant to) {
        return operations.history(grant.id()).stream()
                .anyMatch(h -> h.toBinding().filter(BindingStatus.VALIDATED::equals).isPresent() && h.at().isBefore(to));
    }

    private boolean endedBefore(Operation grant, Instant from) {
        return takingOver(List.of(grant.id())).stream().anyMatch(taker -> operations.history(taker.id()).stream()
                .anyMatch(h -> h.at().isBefore(from) && h.toBinding().filter(s -> taker.kind() == ChangeKind.GRANT
                        ? s == BindingStatus.VALIDATED : s == BindingStatus.EXPIRED || s == BindingStatus.REVOKED).isPresent()));
    }

    @Override
    public Map<OperationId, List<HistoryEntry>> histories(Collection<OperationId> ids) {
        var histories = new LinkedHashMap<OperationId, List<HistoryEntry>>();
        for (var id : new HashSet<>(ids)) {
            var history = operations.history(id);
            if (!history.isEmpty()) {
                histories.put(id, history);
            }
        }
        return histories;
    }

    @Override
    public List<Operation> takingOver(Collection<OperationId> grants) {
        var wanted = new HashSet<>(grants);
        return operations.all().stream().filter(op -> op.removes().filter(wanted::contains).isPresent())
                .sorted(REQUESTED).toList();
    }
}
