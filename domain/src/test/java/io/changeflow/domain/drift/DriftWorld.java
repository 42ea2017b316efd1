package io.changeflow.domain.drift;

import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Records of one target for {@link DriftCheck} tests: rows and operations built the way the workflow leaves them. */
final class DriftWorld {

    static final TargetKey TARGET = TargetKey.of("db-prod-readonly");
    static final Instant WRITTEN = Instant.parse("2026-12-01T10:00:00Z");
    static final Instant SETTLED = Instant.parse("2026-12-07T03:00:00Z");
    static final Optional<Instant> UNTIL = Optional.of(Instant.parse("2027-01-01T00:00:00Z"));
    static final String HEADER = "# Access grants for target db-prod-readonly, managed by Changeflow.\n"
            + "# One line per subject: <subject> until=<ISO instant|never> op=<operationId>\n";

    private final List<Binding> rows = new ArrayList<>();
    private final Map<OperationId, Operation> operations = new HashMap<>();
    private int next = 1;

    OperationId nextId() {
        return OperationId.of(String.format("00000000-0000-4000-8000-%012d", next++));
    }

    /** A grant owning its subject's row at {@code status} (step chosen to fit). */
    Operation grant(String subject, BindingStatus status, StepOrder order) {
        var op = operation(subject, ChangeKind.GRANT, Optional.empty(), order,
                status == BindingStatus.VALIDATED ? StepStatus.CALLED_BACK : StepStatus.CREATE_STARTED, status);
        own(op, status, WRITTEN);
        return op;
    }

    Operation grant(String subject, BindingStatus status) {
        return grant(subject, status, StepOrder.APPROVE_FIRST);
    }

    /** A grant confirmed in effect that a later operation replaced (no longer owns a row). */
    Operation replaced(String subject) {
        var op = operation(subject, ChangeKind.GRANT, Optional.empty(), StepOrder.APPROVE_FIRST, StepStatus.CALLED_BACK, null);
        operations.put(op.id(), op);
        return op;
    }

    /** A removal of {@code removed}'s line owning the row at {@code status}. */
    Operation removal(Operation removed, ChangeKind kind, BindingStatus status) {
        var op = operation(removed.subject().value(), kind, Optional.of(removed.id()), StepOrder.APPROVE_FIRST,
                StepStatus.BATCH_WAITING, status);
        operations.put(removed.id(), removed);
        own(op, status, WRITTEN);
        return op;
    }

    /** A renewal of {@code renewed} owning the row at {@code status}. */
    Operation renewal(Operation renewed, BindingStatus status, Optional<Instant> until) {
        var op = new Operation(nextId(), renewed.subject().value(), renewed.subject(), TARGET, "renew", until,
                StepOrder.APPROVE_FIRST, StepStatus.CREATE_STARTED, 1, Optional.of(status), Optional.empty(),
                Optional.empty(), Optional.empty(), "", WRITTEN, WRITTEN, ChangeKind.GRANT, Optional.of(renewed.id()));
        operations.put(renewed.id(), renewed);
        own(op, status, WRITTEN);
        return op;
    }

    /** Moves the row of {@code op}'s subject to written at {@code at} (e.g. after the file was read). */
    void rewritten(Operation op, Instant at) {
        rows.replaceAll(row -> row.subject().equals(op.subject())
                ? new Binding(row.subject(), row.target(), row.operationId(), row.status(), row.version() + 1,
                row.expiresAt(), at) : row);
    }

    private Operation operation(String subject, ChangeKind kind, Optional<OperationId> removes, StepOrder order,
                                StepStatus step, BindingStatus status) {
        return new Operation(nextId(), subject, SubjectId.of(subject), TARGET, "why", UNTIL, order, step, 1,
                Optional.ofNullable(status), Optional.empty(), Optional.empty(), Optional.empty(), "", WRITTEN, WRITTEN,
                kind, removes);
    }

    private void own(Operation op, BindingStatus status, Instant at) {
        operations.put(op.id(), op);
        rows.removeIf(row -> row.subject().equals(op.subject()));
        rows.add(new Binding(op.subject(), TARGET, op.id(), status, 1, op.expiresAt(), at));
    }

    static String line(Operation op) {
        return Grant.of(op.request()).line();
    }

    static String file(String... lines) {
        return HEADER + String.join("\n", lines) + (lines.length == 0 ? "" : "\n");
    }

    DriftCheck.Records records() {
        return new DriftCheck.Records(rows, operations);
    }

    List<Finding> check(String content, DriftCheck.Baseline baseline) {
        return DriftCheck.compare(TARGET, content, records(), baseline, SETTLED);
    }

    List<Finding> check(String content) {
        return check(content, DriftCheck.Baseline.taken(List.of()));
    }
}
