package io.changeflow.domain.hint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowState;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NextActionTest {

    /** Deterministic external failures, by meaning: the same MR fails again. */
    private static final Set<StepStatus> DETERMINISTIC = EnumSet.of(
            StepStatus.CREATE_PIPELINE_FAILED, StepStatus.HANDLE_PIPELINE_FAILED, StepStatus.HANDLE_REBASE_CONFLICT,
            StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED,
            StepStatus.HANDLE_MERGE_BLOCKED);

    /** Unknown outcomes that can still resolve. */
    private static final Set<StepStatus> PENDING = EnumSet.of(
            StepStatus.HANDLE_PIPELINE_PENDING, StepStatus.CREATE_PIPELINE_PENDING, StepStatus.BATCH_PENDING);

    /**
     * Where the automatic work ended at a deadline (issue 20; issue 36: the failed-close retries): nothing retries
     * them any more.
     */
    private static final Set<StepStatus> GAVE_UP = EnumSet.of(
            StepStatus.CREATE_PIPELINE_UNFINISHED, StepStatus.CREATE_GAVE_UP, StepStatus.HANDLE_PIPELINE_UNFINISHED,
            StepStatus.HANDLE_GAVE_UP, StepStatus.APPROVAL_SUBMIT_GAVE_UP, StepStatus.CLOSE_GAVE_UP);

    private static final Set<BindingStatus> FAILED = EnumSet.of(
            BindingStatus.APPROVAL_FAILED, BindingStatus.CREATE_FAILED, BindingStatus.HANDLE_FAILED,
            BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_FAILED);

    /** Merged but not confirmed in effect: only a person can tell whether it is live. */
    private static final Set<BindingStatus> DEPLOY_UNKNOWN = EnumSet.of(
            BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_FAILED);

    /** A grant whose line was removed: its message says how it ended (the hint is still CAN_REAPPLY). */
    private static final Set<BindingStatus> REMOVED = EnumSet.of(BindingStatus.EXPIRED, BindingStatus.REVOKED);

    /** The rules, written out independently of NextAction. */
    private static Hint expected(StepStatus step, Optional<BindingStatus> binding) {
        if (binding.isEmpty()) {
            return Hint.CAN_REAPPLY;
        }
        var status = binding.get();
        if (status == BindingStatus.REJECTED || status == BindingStatus.CLOSED || status == BindingStatus.EXPIRED
                || status == BindingStatus.REVOKED) {
            return Hint.CAN_REAPPLY;
        }
        if (status == BindingStatus.VALIDATED) {
            return Hint.NONE;
        }
        if (DEPLOY_UNKNOWN.contains(status) || status == BindingStatus.REMOVAL_REJECTED) {
            return Hint.CONTACT_MAINTAINERS;
        }
        if (FAILED.contains(status)) {
            return DETERMINISTIC.contains(step) || GAVE_UP.contains(step) ? Hint.CONTACT_MAINTAINERS : Hint.KEEP_WAITING;
        }
        return PENDING.contains(step) ? Hint.KEEP_WAITING : Hint.NONE;
    }

    @Test
    void givesEveryStepAndBindingTheHintOfTheRules() {
        var walked = 0;
        for (var step : StepStatus.values()) {
            for (var binding : BindingStatus.values()) {
                assertThat(NextAction.of(step, binding)).as(step + "/" + binding).isEqualTo(expected(step, Optional.of(binding)));
                assertThat(NextAction.of(WorkflowState.of(step, binding))).isEqualTo(NextAction.of(step, binding));
                walked++;
            }
            assertThat(NextAction.of(WorkflowState.detached(step))).as(step + "/detached").isEqualTo(Hint.CAN_REAPPLY);
        }
        assertThat(walked).isEqualTo(StepStatus.values().length * BindingStatus.values().length);
    }

    @Test
    void deterministicAndPendingSetsAreTheDocumentedOnes() {
        assertThat(NextAction.DETERMINISTIC_FAILURES).isEqualTo(DETERMINISTIC);
        assertThat(NextAction.PENDING).isEqualTo(PENDING);
        assertThat(NextAction.GAVE_UP).isEqualTo(GAVE_UP);
        assertThat(NextAction.DETERMINISTIC_FAILURES).doesNotContainAnyElementsOf(NextAction.PENDING);
    }

    /** {@code hint} for each of {@code steps} while the binding is {@code binding}. */
    private static void assertHint(Hint hint, BindingStatus binding, StepStatus... steps) {
        for (var step : steps) {
            assertThat(NextAction.of(step, binding)).as(step + "/" + binding).isEqualTo(hint);
        }
    }

    /** Per situation (named as the test that checked it), its hint for each of the steps listed per binding. */
    static Stream<Arguments> hintsBySituation() {
        return Stream.of(
                arguments("tells to contact maintainers after a pipeline failure", Hint.CONTACT_MAINTAINERS, Map.of(
                        BindingStatus.CREATE_FAILED, List.of(StepStatus.CREATE_PIPELINE_FAILED),
                        BindingStatus.HANDLE_FAILED,
                        List.of(StepStatus.HANDLE_REBASE_CONFLICT, StepStatus.BATCH_PIPELINE_FAILED))),
                arguments("tells to keep waiting after a recoverable failure", Hint.KEEP_WAITING, Map.of(
                        BindingStatus.HANDLE_FAILED, List.of(StepStatus.HANDLE_MERGE_FAILED, StepStatus.HANDLE_APPROVE_FAILED),
                        BindingStatus.CREATE_FAILED, List.of(StepStatus.CREATE_FAILED),
                        BindingStatus.APPROVAL_FAILED, List.of(StepStatus.APPROVAL_SUBMIT_FAILED))),
                arguments("tells to contact maintainers when the automatic work ended at its deadline",
                        Hint.CONTACT_MAINTAINERS, Map.of(
                        BindingStatus.CREATE_FAILED, List.of(StepStatus.CREATE_PIPELINE_UNFINISHED, StepStatus.CREATE_GAVE_UP),
                        BindingStatus.HANDLE_FAILED, List.of(StepStatus.HANDLE_PIPELINE_UNFINISHED, StepStatus.HANDLE_GAVE_UP),
                        BindingStatus.APPROVAL_FAILED, List.of(StepStatus.APPROVAL_SUBMIT_GAVE_UP))),
                arguments("tells to keep waiting when a pipeline timed out", Hint.KEEP_WAITING, Map.of(
                        BindingStatus.MERGING, List.of(StepStatus.HANDLE_PIPELINE_PENDING),
                        BindingStatus.MR_CREATING, List.of(StepStatus.CREATE_PIPELINE_PENDING),
                        BindingStatus.BATCHED, List.of(StepStatus.BATCH_PENDING))),
                arguments("says nothing while moving or done", Hint.NONE, Map.of(
                        BindingStatus.VALIDATED, List.of(StepStatus.CALLED_BACK),
                        BindingStatus.APPROVAL_SENT, List.of(StepStatus.APPROVAL_SUBMITTED),
                        BindingStatus.BATCH_WAITING, List.of(StepStatus.BATCH_WAITING))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hintsBySituation")
    void givesTheHintOfEachSituation(String situation, Hint hint, Map<BindingStatus, List<StepStatus>> stepsByBinding) {
        stepsByBinding.forEach((binding, steps) -> assertHint(hint, binding, steps.toArray(StepStatus[]::new)));
    }

    @Test
    void offersReapplyingOnlyWhenRejectedClosedOrReplaced() {
        assertHint(Hint.CAN_REAPPLY, BindingStatus.REJECTED, StepStatus.APPROVAL_REJECTED);
        // a deterministic step does not matter once the request is closed
        assertHint(Hint.CAN_REAPPLY, BindingStatus.CLOSED, StepStatus.HANDLE_MR_CLOSED, StepStatus.CREATE_PIPELINE_FAILED);
        assertThat(NextAction.of(WorkflowState.detached(StepStatus.APPROVAL_SUBMITTED))).isEqualTo(Hint.CAN_REAPPLY);
    }

    @Test
    void everyHintHasAMessageForPeople() {
        for (var hint : Hint.values()) {
            assertThat(hint.message()).isNotBlank();
        }
        assertThat(Hint.CONTACT_MAINTAINERS.message()).containsIgnoringCase("maintainers");
        assertThat(Hint.KEEP_WAITING.message()).containsIgnoringCase("keep waiting");
        assertThat(Hint.CAN_REAPPLY.message()).containsIgnoringCase("apply again");
    }

    @Test
    void aFinishedRequestSaysItIsInEffectNotThatItIsBeingProcessed() {
        assertThat(NextAction.message(StepStatus.CALLED_BACK, BindingStatus.VALIDATED))
                .isEqualTo("Your change is in effect.");
        assertThat(NextAction.message(StepStatus.HANDLE_MERGED, BindingStatus.MERGED)).contains("merged");
        assertThat(NextAction.message(StepStatus.APPROVAL_SUBMITTED, BindingStatus.APPROVAL_SENT))
                .contains("approver");
    }

    @Test
    void aDeployThatWasNotConfirmedSaysSoAndAsksToContactTheMaintainers() {
        for (var step : StepStatus.values()) {
            assertThat(NextAction.of(step, BindingStatus.DEPLOY_UNCONFIRMED)).isEqualTo(Hint.CONTACT_MAINTAINERS);
            assertThat(NextAction.of(step, BindingStatus.DEPLOY_FAILED)).isEqualTo(Hint.CONTACT_MAINTAINERS);
        }
        assertThat(NextAction.message(StepStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_UNCONFIRMED))
                .contains("merged").contains("did not confirm").contains("contact the maintainers");
        assertThat(NextAction.message(StepStatus.DEPLOY_FAILED, BindingStatus.DEPLOY_FAILED))
                .contains("merged").contains("failed").contains("contact the maintainers");
    }

    @Test
    void aRemovalThatWasNotApprovedSaysTheGrantStaysAndAsksForTheMaintainers() {
        for (var step : StepStatus.values()) {
            assertThat(NextAction.of(step, BindingStatus.REMOVAL_REJECTED)).isEqualTo(Hint.CONTACT_MAINTAINERS);
        }
        assertThat(NextAction.message(StepStatus.APPROVAL_REJECTED, BindingStatus.REMOVAL_REJECTED))
                .contains("not approved").contains("stays in effect").contains("contact the maintainers");
    }

    @Test
    void aHintThatAsksForSomethingKeepsItsOwnMessage() {
        for (var step : StepStatus.values()) {
            for (var binding : BindingStatus.values()) {
                var hint = NextAction.of(step, binding);
                if (hint != Hint.NONE && !DEPLOY_UNKNOWN.contains(binding) && !REMOVED.contains(binding)
                        && binding != BindingStatus.REMOVAL_REJECTED) {
                    assertThat(NextAction.message(step, binding)).isEqualTo(hint.message());
                }
            }
        }
        assertThat(NextAction.message(WorkflowState.detached(StepStatus.APPROVAL_REJECTED))).isEqualTo(Hint.CAN_REAPPLY.message());
    }

    @Test
    void aRemovedGrantSaysHowItEndedAndThatYouCanApplyAgain() {
        assertThat(NextAction.of(StepStatus.CALLED_BACK, BindingStatus.EXPIRED)).isEqualTo(Hint.CAN_REAPPLY);
        assertThat(NextAction.message(StepStatus.CALLED_BACK, BindingStatus.EXPIRED))
                .contains("expired").contains("apply again");
        assertThat(NextAction.message(StepStatus.CALLED_BACK, BindingStatus.REVOKED))
                .contains("revoked").contains("apply again");
        assertThat(NextAction.of(StepStatus.BATCH_WAITING, BindingStatus.EXPIRING)).isEqualTo(Hint.NONE);
        assertThat(NextAction.message(StepStatus.BATCH_WAITING, BindingStatus.EXPIRING)).contains("removal round");
    }
}
