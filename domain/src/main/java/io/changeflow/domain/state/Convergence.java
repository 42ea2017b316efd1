package io.changeflow.domain.state;

import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Who makes the next move in every non-terminal state, and what happens at its deadline: "a request is
 * never processing forever" as data ({@link Wait}, {@link Deadline}). {@code ConvergenceTest} fails when a
 * state reachable through {@link Transitions} has no entry. Design: docs/workflow.md.
 */
public final class Convergence {

    /** Who makes the next move. */
    public enum Owner {
        /** This service: a scheduled workflow step or a recurring job. */
        SERVICE,
        /** The approver, in the approval system. */
        APPROVER,
        /** The merge request's CI pipeline on GitLab. */
        PIPELINE,
        /** The deployment pipeline, which reports the change in effect. */
        DEPLOY_PIPELINE,
        /** A person: the maintainers or an operator (the request says so with CONTACT_MAINTAINERS). */
        MAINTAINERS
    }

    /**
     * Which configured duration bounds the wait, counted from the state's last write. Each names the
     * configuration key that sets it (see docs/configuration.md).
     */
    public enum Deadline {
        /** A step that stays silent this long is declared failed by the stuck-request sweep. */
        STEP_SILENCE("changeflow.workflow.sweep.fail-after"),
        /** No decision this long: the approval is withdrawn and the request ends REJECTED. */
        APPROVAL("changeflow.workflow.approval-deadline"),
        /** A pipeline pending this long becomes an explicit state a person looks at. */
        PIPELINE_PENDING("changeflow.workflow.pipeline.pending-deadline"),
        /** Merged but not reported in effect this long: an explicit "deploy unconfirmed" state. */
        DEPLOY("changeflow.workflow.deploy-deadline"),
        /** Transient failures retried automatically this long, then a person is asked. */
        TRANSIENT("changeflow.workflow.transient-deadline");

        private final String key;

        Deadline(String key) {
            this.key = key;
        }

        /** The configuration key of this duration. */
        public String key() {
            return key;
        }
    }

    /**
     * One waiting state's owner, what the owner does next, its deadline and what happens then.
     *
     * @param nextMove   what the owner does next, for people ("the pipeline runs")
     * @param atDeadline what this service does when the deadline passes, for people
     */
    public record Wait(Owner owner, String nextMove, Optional<Deadline> deadline, String atDeadline) {
        public Wait {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(nextMove, "nextMove");
            Objects.requireNonNull(deadline, "deadline");
            Objects.requireNonNull(atDeadline, "atDeadline");
            if (owner != Owner.MAINTAINERS && deadline.isEmpty()) {
                throw new IllegalArgumentException("a wait on " + owner + " needs a deadline");
            }
        }

        static Wait of(Owner owner, String nextMove, Deadline deadline, String atDeadline) {
            return new Wait(owner, nextMove, Optional.of(deadline), atDeadline);
        }

        /** A person owns the next move; the request already says so. */
        public static Wait person(String nextMove) {
            return new Wait(Owner.MAINTAINERS, nextMove, Optional.empty(), "nothing: a person was told to act");
        }

        public boolean ownedByPerson() {
            return owner == Owner.MAINTAINERS;
        }
    }

    private static final Wait PERSON = Wait.person("A person checks the request and acts on it (see the hint).");

    private final Map<BindingStatus, Wait> byBinding;
    private final Map<StepStatus, Wait> byStep;
    private final Map<StepStatus, Wait> afterEnd;

    /**
     * @param byBinding the wait of each non-terminal binding status
     * @param byStep    steps whose wait differs from their binding's (e.g. a pipeline pending while merging)
     */
    public Convergence(Map<BindingStatus, Wait> byBinding, Map<StepStatus, Wait> byStep) {
        this(byBinding, byStep, standardAfterEnd());
    }

    /**
     * @param afterEnd the closing steps of a request that ended (REJECTED, CLOSED) whose merge request may still be
     *                 open on GitLab: who closes it
     */
    public Convergence(Map<BindingStatus, Wait> byBinding, Map<StepStatus, Wait> byStep, Map<StepStatus, Wait> afterEnd) {
        this.byBinding = Collections.unmodifiableMap(copy(byBinding, BindingStatus.class));
        this.byStep = Collections.unmodifiableMap(copy(byStep, StepStatus.class));
        this.afterEnd = Collections.unmodifiableMap(copy(afterEnd, StepStatus.class));
    }

    private static <K extends Enum<K>> Map<K, Wait> copy(Map<K, Wait> map, Class<K> type) {
        var copy = new EnumMap<K, Wait>(type);
        copy.putAll(map);
        return copy;
    }

    /** The table of this release. */
    public static Convergence standard() {
        return STANDARD;
    }

    private static final Convergence STANDARD = new Convergence(standardBindings(), standardSteps());

    /** A step of this service: silent past {@link Deadline#STEP_SILENCE}, the stuck-request sweep acts. */
    private static Wait serviceStep(String nextMove, String atDeadline) {
        return Wait.of(Owner.SERVICE, nextMove, Deadline.STEP_SILENCE, atDeadline);
    }

    private static Map<BindingStatus, Wait> standardBindings() {
        var table = new EnumMap<BindingStatus, Wait>(BindingStatus.class);
        table.put(BindingStatus.APPROVAL_SENDING, serviceStep(
                "This service sends the request to the approval system.",
                "the send is declared failed and retried automatically"));
        table.put(BindingStatus.APPROVAL_SENT, Wait.of(Owner.APPROVER,
                "The approver decides; this service also asks the approval system regularly.", Deadline.APPROVAL,
                "the approval is withdrawn and the request ends rejected (it can be applied for again)"));
        table.put(BindingStatus.MR_CREATING, serviceStep(
                "This service creates the merge request and watches its pipeline.",
                "the creation is declared failed and retried automatically"));
        table.put(BindingStatus.MR_CREATED, serviceStep(
                "This service asks for approval or approves and merges.",
                "the step is declared failed and retried automatically"));
        table.put(BindingStatus.MERGING, serviceStep(
                "This service approves, rebases and merges the merge request.",
                "merging is declared failed and retried automatically"));
        table.put(BindingStatus.BATCH_WAITING, serviceStep(
                "The next batch round takes the change.",
                "the change is admitted to the waiting set again"));
        table.put(BindingStatus.BATCHED, serviceStep(
                "This service merges the batch merge request.",
                "the batch is settled (its members go back to the waiting set or fail explicitly)"));
        var removal = serviceStep(
                "The expiry job admits the removal to its file's removal round; the next round takes it.",
                "the expiry job admits it again (each run admits every removal still due)");
        table.put(BindingStatus.EXPIRING, removal);
        table.put(BindingStatus.REVOKING, removal);
        table.put(BindingStatus.REMOVAL_REJECTED, Wait.person("The maintainers decide about the grant whose removal was"
                + " not approved (it stays in effect, its line in the file): an operator's revocation opens a new removal;"
                + " a rejected revocation still expires at the grant's until."));
        table.put(BindingStatus.MERGED, Wait.of(Owner.DEPLOY_PIPELINE,
                "The deployment pipeline reports the change in effect; reconciliation also looks.", Deadline.DEPLOY,
                "the request is marked 'deploy unconfirmed' and a person is asked to confirm"));
        // Failure states whose hint is KEEP_WAITING are retried by this service; the others are a person's.
        var retried = Wait.of(Owner.SERVICE, "This service retries the step automatically.", Deadline.TRANSIENT,
                "retrying stops and a person is asked (contact the maintainers)");
        table.put(BindingStatus.APPROVAL_FAILED, retried);
        table.put(BindingStatus.CREATE_FAILED, retried);
        table.put(BindingStatus.HANDLE_FAILED, retried);
        return table;
    }

    private static Map<StepStatus, Wait> standardSteps() {
        var table = new EnumMap<StepStatus, Wait>(StepStatus.class);
        var pipeline = Wait.of(Owner.PIPELINE, "The pipeline finishes; this service keeps looking at it.",
                Deadline.PIPELINE_PENDING, "the request stops in an explicit state and a person checks the pipeline");
        table.put(StepStatus.CREATE_PIPELINE_PENDING, pipeline);
        table.put(StepStatus.HANDLE_PIPELINE_PENDING, pipeline);
        table.put(StepStatus.BATCH_PENDING, serviceStep(
                "The batch is settled: its pipeline is looked at again, or an operator settles it.",
                "the batch sweep settles it at the batch timeout whatever step it holds (changeflow.batch.timeout)"));
        return table;
    }

    /**
     * Issue 36: a request that ended (REJECTED, CLOSED) while its merge request's close failed is not finished: the
     * merge request may still be open on GitLab, where anyone with rights can merge it. The request's own hint stays
     * CAN_REAPPLY (a re-application closes the old merge request too); these waits say who closes it.
     */
    private static Map<StepStatus, Wait> standardAfterEnd() {
        var table = new EnumMap<StepStatus, Wait>(StepStatus.class);
        table.put(StepStatus.CLOSE_FAILED, Wait.of(Owner.SERVICE,
                "The failed-close retry job closes the merge request again, with backoff.", Deadline.TRANSIENT,
                "retrying stops at CLOSE_GAVE_UP and a person is asked to close the merge request"));
        table.put(StepStatus.CLOSE_GAVE_UP, Wait.person("An operator closes the merge request on GitLab by hand, or"
                + " re-triggers the close once GitLab is healthy (docs/operations.md, CLOSE_GAVE_UP)."));
        return table;
    }

    /**
     * The wait of {@code state}: empty for a terminal state (nothing more happens) and for a state this
     * table does not know (a defect {@code ConvergenceTest} catches). A state whose hint asks a person to
     * act is the person's, whatever its binding. An ended request whose merge request's close failed or was
     * given up is not finished: its closing step says who closes it, also once a newer request replaced it (detached).
     */
    public Optional<Wait> of(WorkflowState state) {
        var ended = state.binding().filter(b -> b == BindingStatus.REJECTED || b == BindingStatus.CLOSED);
        // a detached request (replaced by a newer one) at a closing step ended unmerged too: finding S3
        if ((ended.isPresent() || state.binding().isEmpty()) && afterEnd.containsKey(state.step())) {
            return Optional.of(afterEnd.get(state.step()));
        }
        if (state.binding().isEmpty() || state.binding().get().isTerminal()) {
            return Optional.empty();
        }
        if (NextAction.of(state) == Hint.CONTACT_MAINTAINERS) {
            var own = byBinding.get(state.binding().get());
            return Optional.of(own != null && own.ownedByPerson() ? own : PERSON);
        }
        var step = byStep.get(state.step());
        return step != null ? Optional.of(step) : Optional.ofNullable(byBinding.get(state.binding().get()));
    }

    /** The non-terminal states among {@code states} that have no owner here: must be none. */
    public List<WorkflowState> withoutOwner(Collection<WorkflowState> states) {
        var missing = new ArrayList<WorkflowState>();
        for (var state : states) {
            var terminal = state.binding().isEmpty() || state.binding().get().isTerminal();
            if (!terminal && of(state).isEmpty()) {
                missing.add(state);
            }
        }
        return missing;
    }

    /**
     * Every state a request can reach from a submission through the table (breadth first over every
     * event), detached states included. The set {@link #withoutOwner} is checked against.
     */
    public static Set<WorkflowState> reachable() {
        var seen = new LinkedHashSet<WorkflowState>();
        var queue = new ArrayDeque<WorkflowState>();
        Consumer<Transition> follow = transition -> {
            if (transition instanceof Transition.Moved moved && seen.add(moved.to())) {
                queue.add(moved.to());
            }
        };
        for (var event : WorkflowEvent.values()) {
            follow.accept(Transitions.check(event)); // the submissions
        }
        while (!queue.isEmpty()) {
            var from = queue.poll();
            for (var event : WorkflowEvent.values()) {
                follow.accept(Transitions.check(from, event));
            }
        }
        return Collections.unmodifiableSet(seen);
    }
}
