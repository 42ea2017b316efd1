package io.changeflow.domain.state;

import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.enums;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Properties of the central table. Random where the space is large (walks, states); exhaustive
 * where it is small enough to walk completely (then every combination is checked, not a sample).
 */
class TransitionProperties {

    /** The events that open an operation on no row or a re-appliable one: the submissions and (issue 36) a drift line's removal. */
    private static final Set<WorkflowEvent> SUBMISSIONS =
            EnumSet.of(WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.SUBMITTED_CREATE_FIRST, WorkflowEvent.DRIFT_REMOVAL);

    private static final Set<WorkflowEvent> STEP_ONLY =
            EnumSet.of(WorkflowEvent.CLOSE_STARTED, WorkflowEvent.CLOSE_DONE, WorkflowEvent.CLOSE_FAILED,
                    WorkflowEvent.CLOSE_GAVE_UP);

    private static final Set<StepStatus> BATCH_STEPS = EnumSet.of(StepStatus.BATCH_WAITING, StepStatus.BATCH_CLAIMED,
            StepStatus.BATCH_PENDING, StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED);

    /** Events that act on the operation's own merge request: a batch member has none. */
    private static final Set<WorkflowEvent> SINGLE_MR_EVENTS =
            EnumSet.of(WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED, WorkflowEvent.MR_CLOSED_REMOTELY);

    private static final List<BindingStatus> TERMINAL_BINDINGS =
            List.of(BindingStatus.VALIDATED, BindingStatus.REJECTED, BindingStatus.CLOSED, BindingStatus.EXPIRED,
                    BindingStatus.REVOKED);

    /** The removals of a grant in effect (issue 18). */
    private static final Set<WorkflowEvent> REMOVALS =
            EnumSet.of(WorkflowEvent.EXPIRY_DUE, WorkflowEvent.REVOCATION_REQUESTED, WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL,
                    WorkflowEvent.REVOCATION_FOR_APPROVAL);

    /** What leaves VALIDATED: a removal, or a renewal (a submission; the opening refuses the same expiry). */
    private static final Set<WorkflowEvent> OPEN_FROM_VALIDATED = EnumSet.of(WorkflowEvent.EXPIRY_DUE,
            WorkflowEvent.REVOCATION_REQUESTED, WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL, WorkflowEvent.REVOCATION_FOR_APPROVAL,
            WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.SUBMITTED_CREATE_FIRST);

    /** Any step with any binding, detached one time in ten. */
    private static Generator<WorkflowState> states() {
        return enums(StepStatus.class).zip(enums(BindingStatus.class).injectNull(0.1),
                (step, binding) -> new WorkflowState(step, Optional.ofNullable(binding), ChangeKind.GRANT));
    }

    private static Generator<WorkflowState> batchStepStates() {
        return elements(List.copyOf(BATCH_STEPS)).zip(enums(BindingStatus.class).injectNull(0.1),
                (step, binding) -> new WorkflowState(step, Optional.ofNullable(binding), ChangeKind.GRANT));
    }

    record Check(WorkflowState state, WorkflowEvent event) {}

    /**
     * A random walk from NEW: mostly an event the state allows (so walks get far), sometimes any
     * event (which must then be refused without changing anything).
     */
    @Test
    void randomEventSequencesFromNewNeverLeaveTheTable() {
        Property.forAll(lists(ints(0, 100_000), 0, 80)).tries(2000).check(choices -> {
            Optional<WorkflowState> current = Optional.empty();
            for (int choice : choices) {
                var event = pick(current, choice);
                var result = ExpectedTransitions.check(current, event);
                assertThat(result.event()).isEqualTo(event);
                var expected = ExpectedTransitions.expectedTarget(event, current);
                switch (result) {
                    case Transition.Moved moved -> {
                        assertThat(moved.from()).isEqualTo(current);
                        assertThat(expected).as(event + " from " + current).contains(moved.to());
                        assertThat(moved.to()).isEqualTo(ruleTarget(event, current));
                        current = Optional.of(moved.to());
                        reCheckable(moved.to());
                    }
                    case Transition.Refused refused -> {
                        assertThat(refused.from()).isEqualTo(current);
                        assertThat(expected).as(event + " from " + current).isEmpty();
                    }
                }
            }
            // a walk from NEW only ever reaches states an owning operation can be in
            current.ifPresent(state -> assertThat(state.binding()).isPresent());
        });
    }

    private static WorkflowEvent pick(Optional<WorkflowState> current, int choice) {
        var all = WorkflowEvent.values();
        if (choice % 5 == 0) {
            return all[(choice / 5) % all.length];
        }
        var allowed = current.map(Transitions::allowedEvents)
                .map(s -> s.stream().sorted().toList())
                .orElse(List.copyOf(SUBMISSIONS.stream().sorted().toList()));
        return allowed.isEmpty() ? all[choice % all.length] : allowed.get((choice / 5) % allowed.size());
    }

    /** The rule's own answer: its target step, its target binding or the unchanged one. */
    private static WorkflowState ruleTarget(WorkflowEvent event, Optional<WorkflowState> from) {
        var rule = Transitions.rule(event);
        var binding = rule.toBinding().isPresent() ? rule.toBinding() : from.flatMap(WorkflowState::binding);
        var kind = ExpectedTransitions.KIND_OPENED.getOrDefault(event, from.map(WorkflowState::kind).orElse(ChangeKind.GRANT));
        return new WorkflowState(rule.toStep(), binding.map(b -> b == BindingStatus.VALIDATED
                ? ExpectedTransitions.END_OF.get(kind) : b), kind);
    }

    private static void reCheckable(WorkflowState state) {
        for (var event : WorkflowEvent.values()) {
            var again = Transitions.check(state, event);
            assertThat(again.allowed()).isEqualTo(ExpectedTransitions.expectedTarget(event, Optional.of(state)).isPresent());
        }
    }

    @Test
    void everyMoveFromAnyStateLeadsToTheRulesTarget() {
        Property.forAll(states().zip(enums(WorkflowEvent.class), Check::new)).tries(2000).check(c -> {
            if (Transitions.check(c.state(), c.event()) instanceof Transition.Moved moved) {
                assertThat(moved.to()).isEqualTo(ruleTarget(c.event(), Optional.of(c.state())));
                assertThat(Optional.of(moved.to()))
                        .isEqualTo(ExpectedTransitions.expectedTarget(c.event(), Optional.of(c.state())));
            }
        });
    }

    /** Exhaustive: every step x every terminal binding x every event (3,648 combinations). */
    @Test
    void terminalBindingsAreLeftOnlyByOpeningANewOperation() {
        for (var step : StepStatus.values()) {
            for (var terminal : TERMINAL_BINDINGS) {
                for (var event : WorkflowEvent.values()) {
                    var result = Transitions.check(WorkflowState.of(step, terminal), event);
                    if (result instanceof Transition.Moved moved && moved.bindingChanged()) {
                        assertThat(event).isIn(terminal == BindingStatus.VALIDATED ? OPEN_FROM_VALIDATED : SUBMISSIONS);
                    }
                    if (terminal == BindingStatus.VALIDATED) {
                        assertThat(result.allowed()).as(event + " from VALIDATED").isEqualTo(OPEN_FROM_VALIDATED.contains(event));
                    }
                }
            }
        }
    }

    @Test
    void stepOnlyEventsNeverChangeTheBinding() {
        Property.forAll(states()).tries(1000).check(state -> {
            for (var event : STEP_ONLY) {
                if (Transitions.check(state, event) instanceof Transition.Moved moved) {
                    assertThat(moved.to().binding()).isEqualTo(state.binding());
                    assertThat(moved.bindingChanged()).isFalse();
                }
            }
        });
    }

    /** Exhaustive over the events. */
    @Test
    void stepOnlyEventsAreExactlyTheRulesWithoutATargetBinding() {
        for (var event : WorkflowEvent.values()) {
            assertThat(Transitions.rule(event).toBinding().isEmpty()).as(event.name()).isEqualTo(STEP_ONLY.contains(event));
        }
    }

    @Test
    void allowedEventsAreExactlyTheEventsCheckMoves() {
        Property.forAll(states()).tries(1000).check(state -> {
            var moved = Arrays.stream(WorkflowEvent.values())
                    .filter(e -> Transitions.check(state, e) instanceof Transition.Moved)
                    .collect(Collectors.toSet());
            assertThat(Transitions.allowedEvents(state)).isEqualTo(moved);
        });
    }

    /**
     * Exhaustive: every step x every event. The one way back is a grant in effect whose renewal fell through
     * (issue 18): it owns its row again, VALIDATED.
     */
    @Test
    void detachedOperationsStayDetachedButAGrantWhoseRenewalFellThrough() {
        for (var step : StepStatus.values()) {
            for (var event : WorkflowEvent.values()) {
                var detached = WorkflowState.detached(step);
                if (Transitions.check(detached, event) instanceof Transition.Moved moved) {
                    if (event == WorkflowEvent.RENEWAL_FELL_THROUGH) {
                        assertThat(step).isEqualTo(StepStatus.CALLED_BACK);
                        assertThat(moved.to().binding()).contains(BindingStatus.VALIDATED);
                        continue;
                    }
                    assertThat(event).isIn(STEP_ONLY);
                    assertThat(moved.to().binding()).isEmpty();
                }
            }
        }
    }

    /** Exhaustive over the events. */
    @Test
    void onlySubmissionsCreateAnOperation() {
        for (var event : WorkflowEvent.values()) {
            assertThat(Transitions.check(event).allowed()).as(event.name())
                    .isEqualTo(SUBMISSIONS.contains(event));
        }
    }

    /** A batch member has no merge request of its own: single-MR handling is refused at every batch step. */
    @Test
    void singleMergeRequestEventsAreRefusedAtEveryBatchStep() {
        Property.forAll(batchStepStates()).tries(1000).check(state -> {
            for (var event : SINGLE_MR_EVENTS) {
                var result = Transitions.check(state, event);
                assertThat(result.allowed()).as(event + " from " + state).isFalse();
                if (state.binding().isPresent() && Transitions.bindingsAllowing(event).contains(state.binding().get())) {
                    // refused for the step, not for the binding
                    assertThat(((Transition.Refused) result).reason()).isEqualTo("not allowed at step " + state.step());
                }
            }
        });
    }

    /** The same binding outside a batch step still allows them: only the step decides. */
    @Test
    void singleMergeRequestEventsStillApplyOutsideBatchSteps() {
        Property.forAll(states().filter(s -> !BATCH_STEPS.contains(s.step()))).tries(1000).check(state -> {
            for (var event : SINGLE_MR_EVENTS) {
                var bindingAllows = state.binding().map(Transitions.bindingsAllowing(event)::contains).orElse(false);
                assertThat(Transitions.check(state, event).allowed()).as(event + " from " + state).isEqualTo(bindingAllows);
            }
        });
    }
}
