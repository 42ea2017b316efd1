package io.changeflow.domain.state;

import static io.changeflow.domain.state.BindingStatus.*;
import static io.changeflow.domain.state.WorkflowEvent.*;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The central transition table: for every {@link WorkflowEvent}, the states it may happen in and the state
 * it leads to, for both layers. Every state write in Changeflow asks {@link #check} (or {@link #require})
 * first; persistence then pins the state it read in the guarded UPDATE. What it covers: docs/workflow.md.
 */
public final class Transitions {

    /**
     * One row of the table. {@code fromNew}: allowed when no row exists yet. {@code fromBindings}:
     * allowed binding states. {@code fromDetached}: allowed for an operation that no longer owns its
     * binding row. {@code fromSteps}: allowed steps, empty meaning any. {@code toBinding} empty: the
     * binding is kept as it is (a step-only event).
     */
    public record Rule(WorkflowEvent event, boolean fromNew, Set<BindingStatus> fromBindings, boolean fromDetached,
                       Set<StepStatus> fromSteps, StepStatus toStep, Optional<BindingStatus> toBinding) {

        /** Whether the rule applies to a state of {@code binding}. */
        boolean allowsBinding(BindingStatus binding) {
            return fromBindings.contains(binding);
        }

        boolean allowsStep(StepStatus step) {
            return fromSteps.isEmpty() || fromSteps.contains(step);
        }
    }

    private static final Set<BindingStatus> MR_MAY_BE_OPEN = EnumSet.of(REJECTED, CLOSED, APPROVAL_FAILED,
            CREATE_FAILED, HANDLE_FAILED, MR_CREATING, MR_CREATED, MERGING, APPROVAL_SENDING, APPROVAL_SENT);

    /**
     * Where the approver's decision may land: while we wait for it, and after a failed send whose
     * submission the approval system did take (its answer was lost), so a decision found there later
     * still moves the request on instead of leaving it failed.
     */
    private static final Set<BindingStatus> DECIDABLE = set(APPROVAL_SENDING, APPROVAL_SENT, APPROVAL_FAILED);

    /** Steps of a batch member: it has no merge request of its own, so single-MR handling never applies. */
    private static final Set<StepStatus> BATCH_STEPS = EnumSet.of(StepStatus.BATCH_WAITING, StepStatus.BATCH_CLAIMED,
            StepStatus.BATCH_PENDING, StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED);

    private static final Set<StepStatus> NOT_BATCH_STEPS = Collections.unmodifiableSet(EnumSet.complementOf(
            EnumSet.copyOf(BATCH_STEPS)));

    /**
     * Events a removal of a grant never takes: they would say the access ended (REJECTED, CLOSED) while its line is
     * still in the file, or act on a merge request of its own, which a removal does not have (it is merged by its
     * file's removal round).
     */
    private static final Set<WorkflowEvent> GRANT_ONLY = Collections.unmodifiableSet(EnumSet.of(CLOSED_BY_OPERATOR,
            WorkflowEvent.SUPERSEDED_BY_SUBJECT, APPROVAL_REJECTED, APPROVAL_WITHDRAWN, APPROVAL_GRANTED_CREATE, APPROVAL_GRANTED_MERGE, MR_CLOSED_REMOTELY));

    private static final Map<WorkflowEvent, Rule> RULES = new EnumMap<>(WorkflowEvent.class);

    /** The batch layer as data: where each batch status may move. */
    private static final Map<BatchStatus, Set<BatchStatus>> BATCH_MOVES = new EnumMap<>(Map.of(
            BatchStatus.RUNNING, EnumSet.of(BatchStatus.SUCCEEDED, BatchStatus.FAILED, BatchStatus.BLOCKED),
            BatchStatus.BLOCKED, EnumSet.of(BatchStatus.SUCCEEDED, BatchStatus.FAILED),
            BatchStatus.SUCCEEDED, EnumSet.noneOf(BatchStatus.class),
            BatchStatus.FAILED, EnumSet.noneOf(BatchStatus.class)));

    /** The events whose write clears the operation's batch assignment. */
    private static final Set<WorkflowEvent> LEAVES_BATCH = Collections.unmodifiableSet(EnumSet.of(BATCH_REQUEUED,
            BATCH_READMITTED));

    /** The events that open an operation, and the kind each opens. */
    private static final Map<WorkflowEvent, ChangeKind> OPENS = new EnumMap<>(WorkflowEvent.class);

    static {
        submission(SUBMITTED_APPROVE_FIRST, StepStatus.APPROVAL_SUBMITTING, APPROVAL_SENDING);
        submission(SUBMITTED_CREATE_FIRST, StepStatus.CREATE_STARTED, MR_CREATING);

        opening(EXPIRY_DUE, REMOVABLE, StepStatus.BATCH_WAITING, BindingStatus.EXPIRING, ChangeKind.EXPIRY);
        opening(REVOCATION_REQUESTED, REMOVABLE, StepStatus.BATCH_WAITING, BindingStatus.REVOKING, ChangeKind.REVOCATION);
        // a target whose removals need the approval system: opened directly in APPROVAL_SENDING, so a crash never
        // leaves an unapproved removal in EXPIRING or REVOKING, which the expiry job admits to the removal round
        opening(EXPIRY_DUE_FOR_APPROVAL, REMOVABLE, StepStatus.APPROVAL_SUBMITTING, APPROVAL_SENDING, ChangeKind.EXPIRY);
        opening(REVOCATION_FOR_APPROVAL, REMOVABLE, StepStatus.APPROVAL_SUBMITTING, APPROVAL_SENDING,
                ChangeKind.REVOCATION);
        // issue 36: a drift line's removal, from no row or a re-appliable one, never from a row in progress or in effect
        put(new Rule(DRIFT_REMOVAL, true, Set.copyOf(REAPPLIABLE), false, Set.of(), StepStatus.BATCH_WAITING,
                Optional.of(BindingStatus.REVOKING)));
        OPENS.put(DRIFT_REMOVAL, ChangeKind.REVOCATION);
        move(REMOVAL_NOT_APPROVED, DECIDABLE, StepStatus.APPROVAL_REJECTED, BindingStatus.REMOVAL_REJECTED);
        moveAt(REMOVAL_CLOSED, set(EXPIRING, REVOKING, BindingStatus.BATCH_WAITING, HANDLE_FAILED), EnumSet.of(
                StepStatus.BATCH_WAITING, StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED),
                StepStatus.CLOSED_BY_OPERATOR, BindingStatus.REMOVAL_REJECTED);

        detachedMove(RENEWAL_FELL_THROUGH, EnumSet.of(StepStatus.CALLED_BACK), StepStatus.CALLED_BACK, VALIDATED);

        move(APPROVAL_REQUESTED, set(MR_CREATED, APPROVAL_FAILED, APPROVAL_SENDING), StepStatus.APPROVAL_SUBMITTING, APPROVAL_SENDING);
        move(APPROVAL_SUBMITTED, set(APPROVAL_SENDING), StepStatus.APPROVAL_SUBMITTED, APPROVAL_SENT);
        move(APPROVAL_SUBMIT_FAILED, set(APPROVAL_SENDING), StepStatus.APPROVAL_SUBMIT_FAILED, APPROVAL_FAILED);
        move(WorkflowEvent.APPROVAL_SUBMIT_GAVE_UP, set(APPROVAL_SENDING, APPROVAL_FAILED), StepStatus.APPROVAL_SUBMIT_GAVE_UP,
                APPROVAL_FAILED);
        move(APPROVAL_GRANTED_CREATE, DECIDABLE, StepStatus.APPROVAL_GRANTED, MR_CREATING);
        move(APPROVAL_GRANTED_BATCH, DECIDABLE, StepStatus.BATCH_WAITING, BATCH_WAITING);
        move(APPROVAL_GRANTED_MERGE, DECIDABLE, StepStatus.APPROVAL_GRANTED, MERGING);
        move(APPROVAL_REJECTED, DECIDABLE, StepStatus.APPROVAL_REJECTED, REJECTED);
        move(APPROVAL_WITHDRAWN, DECIDABLE, StepStatus.APPROVAL_WITHDRAWN, REJECTED);

        move(CREATE_STARTED, set(MR_CREATING, CREATE_FAILED), StepStatus.CREATE_STARTED, MR_CREATING);
        move(MR_OPENED, set(MR_CREATING), StepStatus.CREATE_MR_OPENED, MR_CREATING);
        move(MR_PIPELINE_PASSED, set(MR_CREATING), StepStatus.CREATE_SUCCEEDED, MR_CREATED);
        move(MR_PIPELINE_FAILED, set(MR_CREATING), StepStatus.CREATE_PIPELINE_FAILED, CREATE_FAILED);
        move(MR_PIPELINE_TIMED_OUT, set(MR_CREATING), StepStatus.CREATE_PIPELINE_PENDING, MR_CREATING);
        move(CREATE_ERROR, set(MR_CREATING), StepStatus.CREATE_FAILED, CREATE_FAILED);
        move(MR_PIPELINE_UNFINISHED, set(MR_CREATING), StepStatus.CREATE_PIPELINE_UNFINISHED, CREATE_FAILED);
        move(WorkflowEvent.CREATE_GAVE_UP, set(MR_CREATING, CREATE_FAILED), StepStatus.CREATE_GAVE_UP, CREATE_FAILED);

        moveAt(HANDLE_STARTED, set(MR_CREATED, MERGING, HANDLE_FAILED), NOT_BATCH_STEPS, StepStatus.HANDLE_STARTED, MERGING);
        move(BOTS_APPROVED, set(MERGING), StepStatus.HANDLE_APPROVED, MERGING);
        move(REBASE_STARTED, set(MERGING), StepStatus.HANDLE_REBASING, MERGING);
        moveAt(WorkflowEvent.MERGED, set(MR_CREATED, MERGING, HANDLE_FAILED), NOT_BATCH_STEPS, StepStatus.HANDLE_MERGED,
                BindingStatus.MERGED);
        move(BOTS_APPROVAL_FAILED, set(MERGING), StepStatus.HANDLE_APPROVE_FAILED, HANDLE_FAILED);
        move(REBASE_CONFLICT, set(MERGING), StepStatus.HANDLE_REBASE_CONFLICT, HANDLE_FAILED);
        move(HANDLE_PIPELINE_FAILED, set(MERGING), StepStatus.HANDLE_PIPELINE_FAILED, HANDLE_FAILED);
        move(HANDLE_PIPELINE_TIMED_OUT, set(MERGING), StepStatus.HANDLE_PIPELINE_PENDING, MERGING);
        move(HANDLE_ERROR, set(MR_CREATED, MERGING), StepStatus.HANDLE_MERGE_FAILED, HANDLE_FAILED);
        move(WorkflowEvent.HANDLE_PIPELINE_UNFINISHED, set(MERGING), StepStatus.HANDLE_PIPELINE_UNFINISHED, HANDLE_FAILED);
        moveAt(WorkflowEvent.HANDLE_GAVE_UP, set(MR_CREATED, MERGING, HANDLE_FAILED), NOT_BATCH_STEPS,
                StepStatus.HANDLE_GAVE_UP, HANDLE_FAILED);
        move(MERGE_BLOCKED, set(MERGING), StepStatus.HANDLE_MERGE_BLOCKED, HANDLE_FAILED);
        moveAt(MR_CLOSED_REMOTELY, set(MR_CREATING, MR_CREATED, MERGING, CREATE_FAILED, HANDLE_FAILED, APPROVAL_SENDING,
                APPROVAL_SENT, APPROVAL_FAILED), NOT_BATCH_STEPS, StepStatus.HANDLE_MR_CLOSED, CLOSED);

        move(DEPLOYED, AWAITING_DEPLOY, StepStatus.CALLED_BACK, VALIDATED);
        move(DEPLOY_DEADLINE_PASSED, set(BindingStatus.MERGED), StepStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_UNCONFIRMED);
        move(DEPLOY_REPORTED_FAILED, set(BindingStatus.MERGED, BindingStatus.DEPLOY_UNCONFIRMED), StepStatus.DEPLOY_FAILED,
                BindingStatus.DEPLOY_FAILED);
        move(DEPLOY_MARKED_FAILED, set(BindingStatus.MERGED, BindingStatus.DEPLOY_UNCONFIRMED), StepStatus.DEPLOY_FAILED,
                BindingStatus.DEPLOY_FAILED);

        move(WorkflowEvent.BATCH_CLAIMED, set(BindingStatus.BATCH_WAITING, BindingStatus.EXPIRING, BindingStatus.REVOKING),
                StepStatus.BATCH_CLAIMED, BATCHED);
        move(BATCH_REQUEUED, set(BATCHED), StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING);
        move(BATCH_MERGED, set(BATCHED), StepStatus.HANDLE_MERGED, BindingStatus.MERGED);
        move(BATCH_BLOCKED, set(BATCHED), StepStatus.BATCH_PENDING, BATCHED);
        move(BATCH_CULPRIT_FAILED, set(BATCHED), StepStatus.BATCH_PIPELINE_FAILED, HANDLE_FAILED);
        move(BATCH_GAVE_UP, set(BATCHED), StepStatus.BATCH_FAILED, HANDLE_FAILED);
        moveAt(BATCH_READMITTED, set(HANDLE_FAILED), EnumSet.of(StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED),
                StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING);

        stepOnly(WorkflowEvent.CLOSE_STARTED, NOT_BATCH_STEPS, StepStatus.CLOSE_STARTED);
        stepOnly(WorkflowEvent.CLOSE_DONE, EnumSet.of(StepStatus.CLOSE_STARTED, StepStatus.CLOSE_FAILED), StepStatus.CLOSE_DONE);
        stepOnly(WorkflowEvent.CLOSE_FAILED, EnumSet.of(StepStatus.CLOSE_STARTED), StepStatus.CLOSE_FAILED);
        stepOnly(WorkflowEvent.CLOSE_GAVE_UP, EnumSet.of(StepStatus.CLOSE_FAILED), StepStatus.CLOSE_GAVE_UP);
        move(WorkflowEvent.CLOSED_BY_OPERATOR, set(APPROVAL_FAILED, CREATE_FAILED, HANDLE_FAILED, MR_CREATING, MR_CREATED,
                MERGING, APPROVAL_SENDING, APPROVAL_SENT, BindingStatus.BATCH_WAITING), StepStatus.CLOSED_BY_OPERATOR, CLOSED);
        // issue 37: a request asked for someone else gives way to that person's own request, but only before it is
        // merging (MERGING, BATCHED, MERGED and later are never taken back); see SubmitChangeRequest
        move(WorkflowEvent.SUPERSEDED_BY_SUBJECT, set(APPROVAL_FAILED, CREATE_FAILED, HANDLE_FAILED, MR_CREATING, MR_CREATED,
                APPROVAL_SENDING, APPROVAL_SENT, BindingStatus.BATCH_WAITING), StepStatus.SUPERSEDED_BY_SUBJECT, CLOSED);

        for (var status : BatchStatus.values()) {
            if (!BATCH_MOVES.containsKey(status)) {
                throw new ExceptionInInitializerError("no batch layer row for " + status);
            }
        }
        for (var event : WorkflowEvent.values()) {
            if (!RULES.containsKey(event)) {
                throw new ExceptionInInitializerError("no transition rule for " + event);
            }
        }
    }

    private Transitions() {
    }

    /** Validates {@code event} where no operation and no subject-target row exist yet. */
    public static Transition check(WorkflowEvent event) {
        var rule = RULES.get(event);
        return rule.fromNew()
                ? new Transition.Moved(event, Optional.empty(), rule.toStep(), rule.toBinding())
                : new Transition.Refused(event, Optional.empty(), "no such operation");
    }

    /**
     * Validates {@code event} in {@code state}. For a submission, {@code state} is the state of the existing
     * subject-target row and of the operation that owns it.
     */
    public static Transition check(WorkflowState state, WorkflowEvent event) {
        var rule = RULES.get(event);
        var from = Optional.of(state);
        if (state.kind().removes() && GRANT_ONLY.contains(event)) {
            // closing (or rejecting) a removal would leave the line in the file while the row says it ended: a failed
            // removal is readmitted instead, and one that was not approved ends REMOVAL_REJECTED (in effect);
            // an approved removal takes the batch path to its removal round (it has no merge request of its own)
            return new Transition.Refused(event, from, "not allowed for a removal of a grant (" + state.kind() + ")");
        }
        if (!state.kind().removes() && (event == REMOVAL_NOT_APPROVED || event == REMOVAL_CLOSED)) {
            return new Transition.Refused(event, from, "only a removal of a grant ends REMOVAL_REJECTED");
        }
        if (state.kind() == ChangeKind.EXPIRY && state.binding().equals(Optional.of(BindingStatus.REMOVAL_REJECTED))
                && kindOpenedBy(event).equals(Optional.of(ChangeKind.EXPIRY))) {
            // the approver kept an expired grant: the expiry is not asked for again (a revocation still may be)
            return new Transition.Refused(event, from, "the expiry of this grant was not approved; it is not asked again");
        }
        if (!state.binding().map(rule::allowsBinding).orElse(rule.fromDetached())) {
            return new Transition.Refused(event, from, state.binding().isEmpty()
                    ? "the operation no longer owns its subject-target row"
                    : "not allowed while the request is " + state.binding().get());
        }
        if (!rule.allowsStep(state.step())) {
            return new Transition.Refused(event, from, "not allowed at step " + state.step());
        }
        var toBinding = rule.toBinding().isPresent() ? rule.toBinding() : state.binding();
        if (toBinding.equals(Optional.of(VALIDATED)) && !kindOpenedBy(event).isPresent()) {
            toBinding = Optional.of(inEffect(state.kind()));
        }
        return new Transition.Moved(event, from, rule.toStep(), toBinding);
    }

    /** Like {@link #check(WorkflowEvent)} but throws {@link IllegalTransitionException} when refused. */
    public static Transition.Moved require(WorkflowEvent event) {
        return moved(check(event));
    }

    /** Like {@link #check(WorkflowState, WorkflowEvent)} but throws {@link IllegalTransitionException} when refused. */
    public static Transition.Moved require(WorkflowState from, WorkflowEvent event) {
        return moved(check(from, event));
    }

    private static Transition.Moved moved(Transition checked) {
        return switch (checked) {
            case Transition.Moved moved -> moved;
            case Transition.Refused refused -> throw new IllegalTransitionException(refused);
        };
    }

    /** The batch layer: RUNNING ends SUCCEEDED, FAILED or BLOCKED; BLOCKED is settled SUCCEEDED or FAILED. */
    public static boolean batchAllows(BatchStatus from, BatchStatus to) {
        return BATCH_MOVES.get(from).contains(to);
    }

    /**
     * True for the events after which an operation no longer belongs to its batch (it waits for a round again, or is
     * readmitted to one): the write clears its {@code batch_id}. Every adapter that writes the operation asks this.
     */
    public static boolean leavesBatch(WorkflowEvent event) {
        return LEAVES_BATCH.contains(event);
    }

    /** Throws {@link IllegalBatchTransitionException} when the batch layer refuses. */
    public static void requireBatch(BatchStatus from, BatchStatus to) {
        if (!batchAllows(from, to)) {
            throw new IllegalBatchTransitionException(from, to);
        }
    }

    /** Where a change of {@code kind} ends once the deploy confirms it in effect. */
    public static BindingStatus inEffect(ChangeKind kind) {
        return switch (kind) {
            case GRANT -> VALIDATED;
            case EXPIRY -> EXPIRED;
            case REVOCATION -> REVOKED;
        };
    }

    /** True for the events that open an operation (submissions and the removals of a grant in effect). */
    public static boolean opens(WorkflowEvent event) {
        return OPENS.containsKey(event);
    }

    /** The kind of operation {@code event} opens; empty for an event that moves an existing operation. */
    public static Optional<ChangeKind> kindOpenedBy(WorkflowEvent event) {
        return Optional.ofNullable(OPENS.get(event));
    }

    /** The binding states an event may start from (what a guarded UPDATE may pin). */
    public static Set<BindingStatus> bindingsAllowing(WorkflowEvent event) {
        return RULES.get(event).fromBindings();
    }

    /** The rule of one event. */
    public static Rule rule(WorkflowEvent event) {
        return RULES.get(event);
    }

    /** Every rule, in event order: the table as data, e.g. to document it. */
    public static List<Rule> rules() {
        return List.copyOf(RULES.values());
    }

    /** Events allowed in a state (used by the operations console to offer only valid actions). */
    public static Set<WorkflowEvent> allowedEvents(WorkflowState state) {
        var allowed = EnumSet.noneOf(WorkflowEvent.class);
        for (var event : WorkflowEvent.values()) {
            if (check(state, event).allowed()) {
                allowed.add(event);
            }
        }
        return Collections.unmodifiableSet(allowed);
    }

    private static Set<BindingStatus> set(BindingStatus first, BindingStatus... rest) {
        return Collections.unmodifiableSet(EnumSet.of(first, rest));
    }

    private static void submission(WorkflowEvent event, StepStatus step, BindingStatus binding) {
        var from = EnumSet.copyOf(REAPPLIABLE);
        from.addAll(RENEWABLE);
        put(new Rule(event, true, Collections.unmodifiableSet(from), false, Set.of(), step, Optional.of(binding)));
        OPENS.put(event, ChangeKind.GRANT);
    }

    /**
     * A removal of the grant in effect: a new operation takes the row over and waits for the removal round, or for the
     * approver's decision first.
     */
    private static void opening(WorkflowEvent event, Set<BindingStatus> from, StepStatus step, BindingStatus binding,
                                ChangeKind kind) {
        put(new Rule(event, false, Set.copyOf(from), false, Set.of(), step, Optional.of(binding)));
        OPENS.put(event, kind);
    }

    private static void move(WorkflowEvent event, Set<BindingStatus> from, StepStatus step, BindingStatus binding) {
        moveAt(event, from, Set.of(), step, binding);
    }

    /** Like {@link #move}, allowed only at {@code fromSteps}. */
    private static void moveAt(WorkflowEvent event, Set<BindingStatus> from, Set<StepStatus> fromSteps, StepStatus step,
                               BindingStatus binding) {
        put(new Rule(event, false, Set.copyOf(from), false, Set.copyOf(fromSteps), step, Optional.of(binding)));
    }

    /** An event of an operation that no longer owns its binding row (it gives the row back). */
    private static void detachedMove(WorkflowEvent event, Set<StepStatus> fromSteps, StepStatus step, BindingStatus binding) {
        put(new Rule(event, false, Set.of(), true, Set.copyOf(fromSteps), step, Optional.of(binding)));
    }

    private static void stepOnly(WorkflowEvent event, Set<StepStatus> fromSteps, StepStatus step) {
        put(new Rule(event, false, Collections.unmodifiableSet(EnumSet.copyOf(MR_MAY_BE_OPEN)), true,
                Set.copyOf(fromSteps), step, Optional.empty()));
    }

    private static void put(Rule rule) {
        if (RULES.putIfAbsent(rule.event(), rule) != null) {
            throw new ExceptionInInitializerError("two rules for " + rule.event());
        }
    }
}
