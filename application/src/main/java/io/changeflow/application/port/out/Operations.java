package io.changeflow.application.port.out;

import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Requests and their two state layers (operation = step, binding = external state). Every state
 * write goes through the domain's transition table and is guarded by the state and version read;
 * writes that touch both layers happen in one local transaction that locks the operation row first
 * and the binding row second (the same order everywhere, so no deadlocks).
 */
public interface Operations {

    /**
     * Opens a request (first application or re-application), in one transaction: reads the
     * subject-target row; refuses when the table does not allow {@code submitEvent} from it (an
     * active row, or a failed one awaiting recovery, keeps its owner); otherwise inserts the
     * operation, inserts the row or resets a {@link BindingStatus#REAPPLIABLE} row in place with the
     * new owner (pinning the exact status and version read), and appends to the binding history.
     *
     * @return the opened operation, or the row that blocks it
     * @throws PreemptedException when a concurrent application changed or created the row first, or
     *                            an operation with this ID already exists (nothing was written)
     */
    OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail);

    /** What {@link #open} did. */
    sealed interface OpenResult {
        record Opened(Operation operation) implements OpenResult {}

        record Blocked(Binding existing) implements OpenResult {}
    }

    Optional<Operation> find(OperationId id);

    /**
     * Applies {@code event} to the operation if it is still at {@code expectedVersion}: both layers,
     * one transaction, history appended.
     *
     * @return the operation after the write
     * @throws PreemptedException         the operation's version (or its binding's state) changed since it was read
     * @throws IllegalTransitionException the table does not allow the event in the current state
     */
    Operation apply(OperationId id, long expectedVersion, WorkflowEvent event, StepNote note);

    /**
     * Applies {@code event} to whatever state the operation is in now, if the table allows it there;
     * otherwise does nothing. Reads and writes under row locks (operation, then binding), so of two
     * racing callers exactly one flips the state.
     *
     * @return the operation after the write only when this call changed the state; empty when the
     *         event was not allowed (already applied, stale, replaced owner) or the operation does not exist.
     *         The write is committed when this method returns, so callers may emit side effects
     *         (metrics, notifications) right after a non-empty answer.
     */
    Optional<Operation> applyIfAllowed(OperationId id, WorkflowEvent event, StepNote note);

    /** The subject-target row, whoever owns it. */
    Optional<Binding> binding(SubjectId subject, TargetKey target);

    /** Rows of one subject ("my bindings"). */
    List<Binding> bindingsOf(SubjectId subject);

    /** Requests made by one requester, newest first ("my records"). */
    List<Operation> requestedBy(String requester, int offset, int limit);

    /** Both layers' history of one operation, oldest first. */
    List<HistoryEntry> history(OperationId id);

    /**
     * Operations whose binding is in one of {@code statuses} and whose last state write is older than
     * {@code stuckFor} by the database clock, oldest first. An empty set means any non-terminal status.
     */
    List<Operation> stuck(Set<BindingStatus> statuses, Duration stuckFor, int limit);

    /**
     * Merged operations last written inside the reconciliation window (older than {@code minAge},
     * younger than {@code maxAge}, database clock), with their merge requests: one query.
     */
    List<Operation> mergedBetween(Duration minAge, Duration maxAge, int limit);

    /**
     * How many subject-target rows are in each binding status now (each relationship once, in its
     * current owner's status), in one aggregate query. Statuses without rows are absent.
     */
    Map<BindingStatus, Long> countByStatus();

    /** Operations by ID in one query (missing IDs are left out). */
    List<Operation> findAll(Collection<OperationId> ids);

    /**
     * Operations whose recorded merge request is {@code iid} in {@code project} (one for a single
     * request, every member for a batch merge request), in one query; empty when none.
     */
    List<Operation> findByMergeRequest(String project, long iid);

    /**
     * Remembers the operation's merge request. Idempotent; refuses to replace a different merge request
     * already recorded.
     *
     * @return true when {@code mergeRequest} is the operation's merge request now (recorded now or
     *         before); false when another merge request is recorded (nothing changed) or no operation
     *         has the ID {@code id}
     */
    boolean recordMergeRequest(OperationId id, MergeRequestRef mergeRequest);

    /** Remembers the approval system's ticket for the operation. Idempotent. */
    void recordApprovalTicket(OperationId id, String ticket);

    /**
     * What a state write records besides the state: a person-readable note (never an exception
     * message) and who caused it ({@code system} for the workflow itself).
     */
    record StepNote(String detail, String actor) {
        public static StepNote system(String detail) {
            return new StepNote(detail, "system");
        }
    }
}
