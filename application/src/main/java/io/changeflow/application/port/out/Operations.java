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
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
     * @return the opened operation with its history and the row it replaced (as read in the same transaction), or
     *         the row that blocks it
     * @throws PreemptedException when a concurrent application changed or created the row first, or
     *                            an operation with this ID already exists (nothing was written)
     */
    OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail);

    /**
     * {@link #open(ChangeRequest, StepOrder, WorkflowEvent, String)}, and when it opens the request (only then) the
     * same transaction stores {@code outcome} for its idempotency key, as {@link IdempotencyRecords#complete} would: the
     * key claims an outcome exactly when the request it answers was written, never one without the other (issue 33: one
     * borrowed connection fewer per admission). A blocked, preempted or failed open stores nothing;
     * a key no longer stored (released, purged) is left so.
     */
    OpenResult open(ChangeRequest request, StepOrder order, WorkflowEvent submitEvent, String detail,
                    IdempotencyRecords.Outcome outcome);

    /** What {@link #open} did. */
    sealed interface OpenResult {

        /**
         * The operation as its opening transaction left it, with both layers' history (oldest first), and the
         * subject-target row it took over as that transaction read it before the write (empty: a first application,
         * no row existed). An admission answers from these without reading them again (issue 33).
         */
        record Opened(Operation operation, List<HistoryEntry> history, Optional<Binding> replaced) implements OpenResult {
            public Opened {
                Objects.requireNonNull(operation, "operation");
                history = List.copyOf(history);
                Objects.requireNonNull(replaced, "replaced");
            }
        }

        record Blocked(Binding existing) implements OpenResult {}
    }

    /**
     * Opens the removal of the grant in effect on the row {@code read} (expiry, give-up, revocation: {@code event}
     * is one of the removal events of the table), in one transaction: refuses when the table does not allow
     * {@code event} from the row's current state ({@link OpenResult.Blocked}); otherwise inserts operation
     * {@code id} of the event's kind, for the row's subject and target, with the row's expiry, recording the
     * row's owner as the grant whose line it removes ({@link Operation#removes()}); takes the row over in place
     * with the new owner, pinning the status, version and owner read ({@code read}: I5, I6), and appends both
     * histories (the replaced owner's too). Nothing is written when refused or preempted.
     *
     * @param actor  who removes it: {@code system} for an expiry, the person for a give-up, the operator for a revocation
     * @param detail the person-readable reason, stored as the removal's reason and note
     * @throws PreemptedException the row changed since {@code read} (another removal, a renewal, a re-application
     *                            won), or an operation with {@code id} exists
     */
    OpenResult openRemoval(Binding read, OperationId id, WorkflowEvent event, String actor, String detail);

    /**
     * Issue 36: opens the removal of a line drift detection found on main ({@link WorkflowEvent#DRIFT_REMOVAL}), in one
     * transaction, like {@link #open}: refused ({@link OpenResult.Blocked}) unless the subject has no row on the target
     * or a re-appliable one; otherwise inserts a {@link io.changeflow.domain.state.ChangeKind#REVOCATION} operation
     * {@code removal.operationId()} (its requester the actor, e.g. {@code system}) whose expiry is the line's until and
     * which removes {@code lineOperation} ({@link Operation#removedLine()} is then exactly the line found), and inserts
     * the row or resets it in place pinning the status and version read.
     *
     * @throws PreemptedException a concurrent change created or changed the row first, or the ID exists (nothing written)
     */
    OpenResult openDriftRemoval(ChangeRequest removal, OperationId lineOperation, String detail);

    /**
     * The subject-target rows in effect whose expiry is at or before the database clock plus {@code grace}, soonest
     * expiry first, at most {@code limit}: the candidates of the expiry job. In effect: VALIDATED, or REMOVAL_REJECTED
     * when the removal that was not approved was a revocation (the grant still expires at its until); a rejected
     * expiry is never a candidate again. Index range reads. Rows without an expiry never appear.
     */
    List<Binding> dueForExpiry(Duration grace, int limit);

    /**
     * Issue 36: the renewals that own their subject-target row in one of {@code statuses} and whose renewed grant
     * (the operation {@link Operation#removes()} names) has an expiry at or before the database clock plus
     * {@code grace}, soonest renewed expiry first, at most {@code limit}: the renewals the expiry job ends before it
     * removes the renewed grant's line. Operations as {@link #find} reads them.
     */
    List<Operation> renewalsPastRenewedExpiry(Set<BindingStatus> statuses, Duration grace, int limit);

    /**
     * The grants in effect (the rows {@link #dueForExpiry} reads) whose expiry is at or before the database clock plus {@code within}
     * (those already past it and not yet taken by the expiry job included): how many, and the first {@code limit}
     * of them, soonest expiry first. One statement, counted in the database. Rows without an expiry never count.
     */
    ExpiringGrants expiringWithin(Duration within, int limit);

    /**
     * @param count every grant in the window
     * @param first the soonest of them, at most the limit asked for
     */
    record ExpiringGrants(long count, List<Binding> first) {
        public ExpiringGrants {
            first = List.copyOf(first);
        }
    }

    Optional<Operation> find(OperationId id);

    /** The operation named by {@code id} as sent (untrusted text); empty when it is no operation ID or none has it. */
    default Optional<Operation> find(String id) {
        return OperationId.parse(id).flatMap(this::find);
    }

    /**
     * Applies {@code event} to the operation if it is still at {@code expectedVersion}: both layers,
     * one transaction, history appended.
     *
     * @return the operation after the write
     * @throws PreemptedException         the operation's version (or its binding's state) changed since it was read
     * @throws IllegalTransitionException the table does not allow the event in the current state
     */
    Operation apply(OperationId id, long expectedVersion, WorkflowEvent event, StepNote note);

    /** An operation as it was read, and the note its write records: one entry of {@link #applyAllPinned}. */
    record Pinned(Operation read, StepNote note) {
        public Pinned {
            Objects.requireNonNull(read, "read");
            Objects.requireNonNull(note, "note");
        }
    }

    /**
     * {@link #apply} for many operations, each pinned to the version it was read at: an operation still at that
     * version and allowed {@code event} where it is now is moved (both layers, history appended); one that moved
     * on meanwhile or is not allowed the event is skipped, never overwritten. The same outcome per operation as
     * calling {@link #apply} on each and treating {@link PreemptedException} and {@link IllegalTransitionException}
     * as "skip". An adapter may do it in chunks (one transaction each, a fixed number of statements per chunk);
     * only events that write nothing besides the two layers and their history (no merge order, no renewal
     * falling through: e.g. {@link WorkflowEvent#DEPLOYED}) may be passed.
     *
     * @return the IDs of the operations this call moved, each committed when this method returns
     */
    default List<OperationId> applyAllPinned(List<Pinned> reads, WorkflowEvent event) {
        var moved = new java.util.ArrayList<OperationId>(reads.size());
        for (var pinned : reads) {
            try {
                apply(pinned.read().id(), pinned.read().version(), event, pinned.note());
                moved.add(pinned.read().id());
            } catch (PreemptedException | IllegalTransitionException movedOn) {
                // moved on since it was read: skipped
            }
        }
        return moved;
    }

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

    /**
     * Every subject-target row of {@code target}, whoever owns it, by subject: what drift detection compares the
     * target's grant file on main with (issue 36). One index range read.
     */
    List<Binding> bindingsOn(TargetKey target);

    /** {@link #requestsOf(String, RequestFilter, int, int)} without a filter ("my records"). */
    default List<Operation> requestsOf(String person, int offset, int limit) {
        return requestsOf(person, RequestFilter.ANY, offset, limit);
    }

    /**
     * One person's requests, newest first, only those the filter lets through: those they made, and the requests for
     * access someone else asked for them (issue 37: the subject is told). Not the removals of their grants.
     */
    List<Operation> requestsOf(String person, RequestFilter filter, int offset, int limit);

    /**
     * What a row of a list view shows can change with (issue 33, conditional reads of my records): the operation's
     * version and last state write, the binding status it owns, and its merge request's iid (its own or its batch's,
     * recorded without a state write).
     */
    record RowVersion(OperationId id, long version, Instant updatedAt, Optional<BindingStatus> binding,
                      Optional<Long> mergeRequestIid) {

        public RowVersion {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(updatedAt, "updatedAt");
            Objects.requireNonNull(binding, "binding");
            Objects.requireNonNull(mergeRequestIid, "mergeRequestIid");
        }

        /** The row version of an operation as read. */
        public static RowVersion of(Operation op) {
            return new RowVersion(op.id(), op.version(), op.updatedAt(), op.binding(),
                    op.mergeRequest().map(MergeRequestRef::iid));
        }
    }

    /**
     * The {@link RowVersion}s of exactly the rows {@link #requestsOf(String, RequestFilter, int, int)} lists, in its
     * order, without the rows themselves: the version of a page of my records. An adapter answers it with one
     * statement of the same conditions reading only these columns.
     */
    default List<RowVersion> requestVersionsOf(String person, RequestFilter filter, int offset, int limit) {
        return requestsOf(person, filter, offset, limit).stream().map(RowVersion::of).toList();
    }

    /**
     * Which requests {@link #requestsOf(String, RequestFilter, int, int)} lists: those whose binding is in
     * {@code status} and those on {@code target}, each when given (a request a re-application replaced has no
     * status: it matches no status).
     */
    record RequestFilter(Optional<BindingStatus> status, Optional<TargetKey> target) {

        public static final RequestFilter ANY = new RequestFilter(Optional.empty(), Optional.empty());

        public RequestFilter {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(target, "target");
        }
    }

    /** Both layers' history of one operation, oldest first. */
    List<HistoryEntry> history(OperationId id);

    /** An operation and both layers' history of it, oldest first. */
    record WithHistory(Operation operation, List<HistoryEntry> history) {
        public WithHistory {
            Objects.requireNonNull(operation, "operation");
            history = List.copyOf(history);
        }
    }

    /**
     * {@link #find} and {@link #history} together: the status read every open request page polls (issue 15). An
     * adapter may answer it in one statement.
     *
     * @return empty when no operation has the ID
     */
    default Optional<WithHistory> findWithHistory(OperationId id) {
        return find(id).map(op -> new WithHistory(op, history(id)));
    }

    /**
     * Operations whose binding is in one of {@code statuses} and whose last state write is older than
     * {@code stuckFor} by the database clock, oldest first. An empty set means any non-terminal status.
     */
    List<Operation> stuck(Set<BindingStatus> statuses, Duration stuckFor, int limit);

    /** {@link #stuck(Set, Duration, int)} on {@code target} only. */
    List<Operation> stuck(Set<BindingStatus> statuses, TargetKey target, Duration stuckFor, int limit);

    /**
     * One page of a fair scan: operations whose binding is in one of {@code statuses} and whose last state
     * write is older than {@code olderThan} (database clock), with their merge requests, in a fixed order
     * (status, then last write, then row), from the start. A row that is written moves to a later position,
     * so following {@link Page#next()} run after run ({@link #scan(Set, Duration, ScanCursors.Position, int)})
     * visits every candidate within ceil(candidates / limit) + 1 pages, however many of them never move: none
     * starves behind older ones. Index range reads per status, no sort.
     *
     * @param statuses at least one
     * @return up to {@code limit} operations, and where the next page starts (empty: the scan reached the end,
     *         the next page starts from the beginning again)
     */
    Page scan(Set<BindingStatus> statuses, Duration olderThan, int limit);

    /**
     * {@link #scan(Set, Duration, int)} continuing after {@code after} (a {@link Page#next()} of this scan); a
     * garbled position reads from the start.
     */
    Page scan(Set<BindingStatus> statuses, Duration olderThan, ScanCursors.Position after, int limit);

    /** A page of {@link #scan}. */
    record Page(List<Operation> operations, Optional<ScanCursors.Position> next) {
        public Page {
            operations = List.copyOf(operations);
            Objects.requireNonNull(next, "next");
        }
    }

    /**
     * The merge order of each of {@code mergeRequests}: a number from one sequence that grows with every merge
     * request written MERGED (recorded with the first state write to MERGED of its request, or of the first
     * member of its batch), so it follows the order merges were recorded, not merge request numbers. One
     * query; merge requests without a recorded merge are absent.
     */
    Map<MergeRequestRef, Long> mergeOrders(Collection<MergeRequestRef> mergeRequests);

    /**
     * Issue 37: records {@code commit}, the commit the merge of {@code mergeRequest} put on its target branch (GitLab's
     * merged commit, {@link MergeRequests#mergedCommit}), for every operation that merge request merges (a single
     * request, or every member of a batch). Called before the requests are written MERGED: the merge request takes its
     * merge order ({@link #mergeOrders}) now if it has none yet, and the MERGED write keeps it. Idempotent: the first
     * commit recorded stays (a repeat, or a different commit, changes nothing).
     */
    void recordMergedCommit(MergeRequestRef mergeRequest, String commit);

    /**
     * Issue 37: the operations waiting for their deploy report (binding in {@link BindingStatus#AWAITING_DEPLOY}: MERGED,
     * DEPLOY_UNCONFIRMED, DEPLOY_FAILED) whose merge request (their own or their
     * batch's) is in {@code project} and has a merge order, each with that order and its recorded merged commit, in merge
     * order (the oldest merge first), at most {@code limit}: what a deploy report for the default branch at a commit may
     * act on.
     */
    List<MergedOperation> mergedAwaitingDeploy(String project, int limit);

    /**
     * A merged operation with the order of its merge and the merged commit recorded for it (empty: not recorded, e.g.
     * merged before the commit was recorded; GitLab can be asked).
     */
    record MergedOperation(Operation operation, long mergeOrder, Optional<String> mergedCommit) {
        public MergedOperation {
            Objects.requireNonNull(operation, "operation");
            Objects.requireNonNull(mergedCommit, "mergedCommit");
        }
    }

    /**
     * One page of the merged operations whose binding was last written more than {@code age} ago
     * (database clock): the deploy deadline's candidates, in the order of that write, strictly after
     * {@code after} (keyset paging, so a run can go through every candidate and the next run can go on
     * where it stopped). One index range read.
     *
     * @return at most {@code limit} operations; {@link MergedPage#next} is empty when this was the last page
     */
    MergedPage mergedLongerThan(Duration age, PageCursor after, int limit);

    /** A page of {@link #mergedLongerThan} and where the next one starts (empty: no more candidates now). */
    record MergedPage(List<Operation> operations, Optional<PageCursor> next) {
        public MergedPage {
            operations = List.copyOf(operations);
        }
    }

    /**
     * Where a page of a keyset scan starts: after the row last written at {@code writtenAt} whose row key
     * is {@code rowKey} (both opaque to callers: pass back what a page returned, or {@link #START}).
     */
    record PageCursor(Instant writtenAt, long rowKey) {
        /** Before every row. */
        public static final PageCursor START = new PageCursor(Instant.EPOCH, 0);
    }

    /**
     * One page of {@link #idleIn} (by operation ID): the operations after {@code after} in operation ID order (empty: from the
     * first), at most {@code limit}.
     */
    record IdPage(Optional<OperationId> after, int limit) {}

    /**
     * Operations whose binding is in one of {@code statuses} and whose last state write is at least
     * {@code idleFor} ago (database clock), in operation ID order (keyset): a caller that walks the pages,
     * and starts again from the first after a short one, visits every candidate in turn, however many
     * others never advance. An empty set or a limit below 1 answers nothing.
     */
    List<Operation> idleIn(Set<BindingStatus> statuses, Duration idleFor, IdPage page);

    /**
     * Issue 36 (finding S3): the operations that own no subject-target row any more (a re-application or the subject's
     * own request replaced them: {@link Operation#binding()} is empty), whose step is one of {@code steps} and which
     * record a merge request of their own, or whose close failed (CLOSE_FAILED without a recorded merge request: a close
     * that could not look an unrecorded one up, finding S8), in operation ID order after {@code page.after()} (keyset), at most
     * {@code page.limit()}: the replaced requests whose close is still owed, which no scan by binding status finds. A
     * caller that walks the pages and starts again from the first after a short one visits every candidate in turn.
     * An empty set or a limit below 1 answers nothing. Index range reads by step.
     */
    List<Operation> detachedAt(Set<StepStatus> steps, IdPage page);

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

    /**
     * Fixes the end of a request of a duration (issue 32 item 3) at {@code end}, once: on the operation and on its
     * binding row while it owns it, only while no end is recorded. Idempotent: a second call (another instance, a
     * retried step, a regenerated line) changes nothing and answers the end fixed first.
     *
     * @return the operation's end now (fixed by this call or before); empty when no operation has the ID {@code id}
     *         or it asks for no duration
     */
    Optional<java.time.Instant> fixEnd(OperationId id, java.time.Instant end);

    /** Remembers the approval system's ticket for the operation. Idempotent. */
    void recordApprovalTicket(OperationId id, String ticket);

    /**
     * Sets the operation's person-readable detail without a state write (issue 32: why a request still waits, e.g. an
     * approval that does not count), guarded by {@code expectedVersion}.
     *
     * @return false when the operation moved on meanwhile (another version) or does not exist: nothing changed
     */
    boolean recordDetail(OperationId id, long expectedVersion, String detail);

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
