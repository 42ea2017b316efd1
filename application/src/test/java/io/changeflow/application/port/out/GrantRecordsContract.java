package io.changeflow.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link GrantRecords} contract (the audit export's reads), against the in-memory fake ({@code FakeGrantRecordsTest})
 * and the jOOQ adapter on the real database ({@code JooqGrantRecordsContractTest}): each test starts on an empty store,
 * written through {@link Operations}.
 */
public abstract class GrantRecordsContract {

    private static final AtomicInteger IDS = new AtomicInteger();
    private static final TargetKey TARGET = TargetKey.of("db-prod-readonly");

    private Operations operations;
    private GrantRecords records;

    /** A fresh, empty store. */
    protected abstract Operations operations();

    /** The grant records of the store {@link #operations()} returned last. */
    protected abstract GrantRecords records();

    @BeforeEach
    void empty() {
        operations = operations();
        records = records();
    }

    private static OperationId newId() {
        return OperationId.of(String.format("a0d1e000-0000-4000-8000-%012d", IDS.incrementAndGet()));
    }

    private Operation submitted(String subject) {
        var result = operations.open(new ChangeRequest(newId(), "alice", TARGET, SubjectId.of(subject), "the audit",
                Optional.empty()), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted");
        assertThat(result).isInstanceOf(OpenResult.Opened.class);
        return ((OpenResult.Opened) result).operation();
    }

    private Operation rejected(String subject) {
        var op = submitted(subject);
        operations.apply(op.id(), op.version(), WorkflowEvent.APPROVAL_REJECTED, StepNote.system("rejected"));
        return operations.find(op.id()).orElseThrow();
    }

    private Operation driftRemovalOf(Operation grant) {
        var result = operations.openDriftRemoval(new ChangeRequest(newId(), "system", TARGET, grant.subject(), "drift",
                Optional.empty()), grant.id(), "merged before approval");
        return ((OpenResult.Opened) result).operation();
    }

    /** A range around every request of the test, whatever clock the store has. */
    private GrantRecords.Page around(Operation op, Optional<GrantRecords.Cursor> after, int limit) {
        return new GrantRecords.Page(op.createdAt().minus(Duration.ofDays(1)), op.createdAt().plus(Duration.ofDays(1)),
                after, limit);
    }

    @Test
    void grantsAreReadPageByPageByRequestTimeThenIdAndRemovalsAreNotGrants() {
        var grants = new ArrayList<Operation>();
        for (var subject : List.of("ann", "ben", "cal", "dot", "eli")) {
            grants.add(submitted(subject));
        }
        var refused = rejected("fay");
        grants.add(refused);
        var removal = driftRemovalOf(refused);
        var first = grants.getFirst();

        var all = records.grantsOverlapping(around(first, Optional.empty(), 100));
        assertThat(all).extracting(Operation::id)
                .containsExactlyInAnyOrderElementsOf(grants.stream().map(Operation::id).toList())
                .doesNotContain(removal.id());
        assertThat(all).isSortedAccordingTo(Comparator.comparing(Operation::createdAt).thenComparing(op -> op.id().value()));
        assertThat(all).allSatisfy(op -> assertThat(op.kind()).isEqualTo(ChangeKind.GRANT));

        var paged = new ArrayList<Operation>();
        Optional<GrantRecords.Cursor> after = Optional.empty();
        for (var pages = 0; pages < 10; pages++) {
            var page = records.grantsOverlapping(around(first, after, 4));
            paged.addAll(page);
            if (page.size() < 4) {
                break;
            }
            var last = page.getLast();
            after = Optional.of(new GrantRecords.Cursor(last.createdAt(), last.id()));
        }
        assertThat(paged).extracting(Operation::id).containsExactlyElementsOf(all.stream().map(Operation::id).toList());
    }

    @Test
    void theRangeIsFromInclusiveToExclusive() {
        var op = submitted("gil");
        var at = records.grantsOverlapping(around(op, Optional.empty(), 10)).getFirst().createdAt();

        assertThat(records.grantsOverlapping(new GrantRecords.Page(at, at.plusMillis(1), Optional.empty(), 10)))
                .extracting(Operation::id).containsExactly(op.id());
        assertThat(records.grantsOverlapping(new GrantRecords.Page(at.minusSeconds(60), at, Optional.empty(), 10))).isEmpty();
        assertThat(records.grantsOverlapping(new GrantRecords.Page(at.plusMillis(1), at.plusSeconds(60), Optional.empty(), 10)))
                .isEmpty();
    }

    @Test
    void historiesAreEachOperationsOwnOldestFirstAndTheRequestsThatTookAGrantOverAreFound() {
        var refused = rejected("hal");
        var other = submitted("ida");
        var removal = driftRemovalOf(refused);

        var histories = records.histories(List.of(refused.id(), other.id(), removal.id(), newId()));

        assertThat(histories).containsOnlyKeys(refused.id(), other.id(), removal.id());
        assertThat(histories.get(refused.id())).isEqualTo(operations.history(refused.id()));
        assertThat(histories.get(removal.id())).isEqualTo(operations.history(removal.id()));
        assertThat(records.takingOver(List.of(refused.id(), other.id()))).extracting(Operation::id)
                .containsExactly(removal.id());
        assertThat(records.takingOver(List.of(other.id()))).isEmpty();
        assertThat(records.histories(List.of())).isEmpty();
        assertThat(records.takingOver(List.of())).isEmpty();
    }
}
