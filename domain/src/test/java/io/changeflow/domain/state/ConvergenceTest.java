package io.changeflow.domain.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.state.Convergence.Owner;
import java.util.EnumMap;
import java.util.HashMap;
import org.junit.jupiter.api.Test;

/** Every state a request can reach has an owner and a deadline (issue: every request converges). */
class ConvergenceTest {

    private final Convergence table = Convergence.standard();

    @Test
    void everyReachableNonTerminalStateHasAnOwnerAndADeadline() {
        var reachable = Convergence.reachable();
        assertThat(reachable).as("the walk reaches the whole table").hasSizeGreaterThan(20);
        assertThat(table.withoutOwner(reachable)).as("states nobody owns").isEmpty();
        for (var state : reachable) {
            table.of(state).ifPresent(wait -> assertThat(wait.ownedByPerson() || wait.deadline().isPresent())
                    .as(state + " waits on " + wait.owner() + " without a deadline").isTrue());
        }
    }

    @Test
    void theWalkReachesEveryBindingStatusAndTheWaitingSteps() {
        var bindings = Convergence.reachable().stream().flatMap(s -> s.binding().stream()).distinct().toList();
        assertThat(bindings).containsExactlyInAnyOrder(BindingStatus.values());
        var steps = Convergence.reachable().stream().map(WorkflowState::step).toList();
        assertThat(steps).contains(StepStatus.CREATE_PIPELINE_PENDING, StepStatus.HANDLE_PIPELINE_PENDING,
                StepStatus.BATCH_PENDING, StepStatus.APPROVAL_SUBMITTED);
    }

    @Test
    void aStateWithoutAnEntryIsReported() {
        // The failing example: the same table without MERGED (as when a new waiting state is added to the
        // transition table and nobody says who moves it on) reports every reachable MERGED state.
        var bindings = new EnumMap<BindingStatus, Convergence.Wait>(BindingStatus.class);
        for (var status : BindingStatus.values()) {
            table.of(WorkflowState.of(StepStatus.HANDLE_STARTED, status)).ifPresent(w -> bindings.put(status, w));
        }
        bindings.remove(BindingStatus.MERGED);
        var withoutMerged = new Convergence(bindings, new HashMap<>());
        var missing = withoutMerged.withoutOwner(Convergence.reachable());
        assertThat(missing).isNotEmpty().allSatisfy(state ->
                assertThat(state.binding()).contains(BindingStatus.MERGED));
    }

    @Test
    void aPersonOwnsExactlyTheStatesWhoseHintAsksForOne() {
        for (var state : Convergence.reachable()) {
            var wait = table.of(state);
            if (wait.isEmpty() || state.binding().isEmpty() || state.binding().filter(BindingStatus::isTerminal).isPresent()) {
                // an ended request's hint is its requester's (CAN_REAPPLY); its leftover merge request is checked below
                continue;
            }
            var hint = NextAction.of(state);
            assertThat(wait.get().owner() == Owner.MAINTAINERS).as(state + " hint " + hint)
                    .isEqualTo(hint == Hint.CONTACT_MAINTAINERS);
        }
    }

    @Test
    void anEndedRequestWhoseCloseFailedIsRetriedByThisServiceThenAPersonsOnceGivenUp() {
        for (var ended : new BindingStatus[] {BindingStatus.REJECTED, BindingStatus.CLOSED}) {
            var failed = WorkflowState.of(StepStatus.CLOSE_FAILED, ended);
            var gaveUp = WorkflowState.of(StepStatus.CLOSE_GAVE_UP, ended);
            assertThat(Convergence.reachable()).contains(failed, gaveUp);
            assertThat(table.of(failed)).hasValueSatisfying(w -> {
                assertThat(w.owner()).isEqualTo(Owner.SERVICE);
                assertThat(w.deadline()).contains(Convergence.Deadline.TRANSIENT);
            });
            assertThat(table.of(gaveUp)).hasValueSatisfying(w -> assertThat(w.owner()).isEqualTo(Owner.MAINTAINERS));
            // the requester may still apply again (which closes the old merge request as well)
            assertThat(NextAction.of(gaveUp)).isEqualTo(Hint.CAN_REAPPLY);
            assertThat(table.of(WorkflowState.of(StepStatus.CLOSE_DONE, ended))).isEmpty();
        }
        // replaced by a newer request (detached): its close is still this service's, then a person's (finding S3)
        assertThat(table.of(WorkflowState.detached(StepStatus.CLOSE_FAILED))).hasValueSatisfying(w -> {
            assertThat(w.owner()).isEqualTo(Owner.SERVICE);
            assertThat(w.deadline()).contains(Convergence.Deadline.TRANSIENT);
        });
        assertThat(table.of(WorkflowState.detached(StepStatus.CLOSE_GAVE_UP)))
                .hasValueSatisfying(w -> assertThat(w.owner()).isEqualTo(Owner.MAINTAINERS));
        var stillFailedBinding = WorkflowState.of(StepStatus.CLOSE_GAVE_UP, BindingStatus.CREATE_FAILED);
        assertThat(NextAction.of(stillFailedBinding)).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(table.of(stillFailedBinding)).hasValueSatisfying(w -> assertThat(w.ownedByPerson()).isTrue());
    }

    @Test
    void outsidePartiesOwnTheirWaitsAndTerminalStatesHaveNone() {
        assertThat(table.of(WorkflowState.of(StepStatus.APPROVAL_SUBMITTED, BindingStatus.APPROVAL_SENT)))
                .hasValueSatisfying(w -> {
                    assertThat(w.owner()).isEqualTo(Owner.APPROVER);
                    assertThat(w.deadline()).contains(Convergence.Deadline.APPROVAL);
                });
        assertThat(table.of(WorkflowState.of(StepStatus.HANDLE_MERGED, BindingStatus.MERGED)))
                .hasValueSatisfying(w -> assertThat(w.deadline()).contains(Convergence.Deadline.DEPLOY));
        assertThat(table.of(WorkflowState.of(StepStatus.HANDLE_PIPELINE_PENDING, BindingStatus.MERGING)))
                .hasValueSatisfying(w -> assertThat(w.owner()).isEqualTo(Owner.PIPELINE));
        assertThat(table.of(WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.VALIDATED))).isEmpty();
        assertThat(table.of(WorkflowState.detached(StepStatus.CLOSE_DONE))).isEmpty();
    }
}
