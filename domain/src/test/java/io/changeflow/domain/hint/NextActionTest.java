package io.changeflow.domain.hint;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowState;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NextActionTest {

    /** Deterministic external failures, by meaning: the same MR fails again. */
    private static final Set<StepStatus> DETERMINISTIC = EnumSet.of(
            StepStatus.CREATE_PIPELINE_FAILED, StepStatus.HANDLE_PIPELINE_FAILED, StepStatus.HANDLE_REBASE_CONFLICT,
            StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED,
            StepStatus.HANDLE_MERGE_BLOCKED);

    /** Unknown outcomes that can still resolve. */
    private static final Set<StepStatus> PENDING = EnumSet.of(
            StepStatus.HANDLE_PIPELINE_PENDING, StepStatus.CREATE_PIPELINE_PENDING, StepStatus.BATCH_PENDING);

    /** Where the automatic work ended at a deadline (issue 20): nothing retries them any more. */
    private static final Set<StepStatus> GAVE_UP = EnumSet.of(
            StepStatus.CREATE_PIPELINE_UNFINISHED, StepStatus.CREATE_GAVE_UP, StepStatus.HANDLE_PIPELINE_UNFINISHED,
            StepStatus.HANDLE_GAVE_UP, StepStatus.APPROVAL_SUBMIT_GAVE_UP);

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

    @Test
    void tellsToContactMaintainersAfterAPipelineFailure() {
        assertHint(Hint.CONTACT_MAINTAINERS, BindingStatus.CREATE_FAILED, StepStatus.CREATE_PIPELINE_FAILED);
        assertHint(Hint.CONTACT_MAINTAINERS, BindingStatus.HANDLE_FAILED,
                StepStatus.HANDLE_REBASE_CONFLICT, StepStatus.BATCH_PIPELINE_FAILED);
    }

    @Test
    void tellsToKeepWaitingAfterARecoverableFailure() {
        assertHint(Hint.KEEP_WAITING, BindingStatus.HANDLE_FAILED,
                StepStatus.HANDLE_MERGE_FAILED, StepStatus.HANDLE_APPROVE_FAILED);
        assertHint(Hint.KEEP_WAITING, BindingStatus.CREATE_FAILED, StepStatus.CREATE_FAILED);
        assertHint(Hint.KEEP_WAITING, BindingStatus.APPROVAL_FAILED, StepStatus.APPROVAL_SUBMIT_FAILED);
    }

    @Test
    void tellsToContactMaintainersWhenTheAutomaticWorkEndedAtItsDeadline() {
        assertHint(Hint.CONTACT_MAINTAINERS, BindingStatus.CREATE_FAILED,
                StepStatus.CREATE_PIPELINE_UNFINISHED, StepStatus.CREATE_GAVE_UP);
        assertHint(Hint.CONTACT_MAINTAINERS, BindingStatus.HANDLE_FAILED,
                StepStatus.HANDLE_PIPELINE_UNFINISHED, StepStatus.HANDLE_GAVE_UP);
        assertHint(Hint.CONTACT_MAINTAINERS, BindingStatus.APPROVAL_FAILED, StepStatus.APPROVAL_SUBMIT_GAVE_UP);
    }

    @Test
    void tellsToKeepWaitingWhenAPipelineTimedOut() {
        assertHint(Hint.KEEP_WAITING, BindingStatus.MERGING, StepStatus.HANDLE_PIPELINE_PENDING);
        assertHint(Hint.KEEP_WAITING, BindingStatus.MR_CREATING, StepStatus.CREATE_PIPELINE_PENDING);
        assertHint(Hint.KEEP_WAITING, BindingStatus.BATCHED, StepStatus.BATCH_PENDING);
    }

    @Test
    void offersReapplyingOnlyWhenRejectedClosedOrReplaced() {
        assertHint(Hint.CAN_REAPPLY, BindingStatus.REJECTED, StepStatus.APPROVAL_REJECTED);
        // a deterministic step does not matter once the request is closed
        assertHint(Hint.CAN_REAPPLY, BindingStatus.CLOSED, StepStatus.HANDLE_MR_CLOSED, StepStatus.CREATE_PIPELINE_FAILED);
        assertThat(NextAction.of(WorkflowState.detached(StepStatus.APPROVAL_SUBMITTED))).isEqualTo(Hint.CAN_REAPPLY);
    }

    @Test
    void saysNothingWhileMovingOrDone() {
        assertHint(Hint.NONE, BindingStatus.VALIDATED, StepStatus.CALLED_BACK);
        assertHint(Hint.NONE, BindingStatus.APPROVAL_SENT, StepStatus.APPROVAL_SUBMITTED);
        assertHint(Hint.NONE, BindingStatus.BATCH_WAITING, StepStatus.BATCH_WAITING);
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
