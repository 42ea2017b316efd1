package io.changeflow.application.batch;

import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.query.RequestView;
import io.changeflow.domain.batch.Batch;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The newest batches with their members as they are now, for operators ({@code GET /ops/batches}), by status and
 * partition when asked:
 * two queries for the batches and their membership, one (chunked) for every member of every batch.
 */
public final class ListBatches {

    public static final int MAX_LIMIT = 500;

    /** @param filter which batches: by status and partition, each when given */
    public record Command(int limit, Batches.Filter filter) {
        public Command(int limit) {
            this(limit, Batches.Filter.ANY);
        }
    }

    /** One batch; {@code members} in claim order (a member that no longer exists is left out). */
    public record BatchView(Batch batch, List<RequestView> members) {}

    private final Batches batches;
    private final Operations operations;

    public ListBatches(Batches batches, Operations operations) {
        this.batches = batches;
        this.operations = operations;
    }

    public List<BatchView> list(Command command) {
        var recent = batches.recent(command.filter(), Math.clamp(command.limit(), 1, MAX_LIMIT));
        var ids = recent.stream().map(Batch::members).flatMap(Collection::stream).distinct().toList();
        Map<OperationId, Operation> members = ids.isEmpty()
                ? Map.of()
                : operations.findAll(ids).stream().collect(Collectors.toMap(Operation::id, Function.identity()));
        return recent.stream()
                .map(b -> new BatchView(b, b.members().stream().filter(members::containsKey)
                        .map(id -> RequestView.summaryOf(members.get(id))).toList()))
                .toList();
    }
}
