package io.changeflow.domain.state;

import static io.changeflow.domain.state.WorkflowEvent.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Whole journeys through the table, each event applied with {@link Transitions#require}. */
class TransitionPathsTest {

    /** Applies the events in order from {@code start}; every one must be allowed. */
    private static WorkflowState walk(Optional<WorkflowState> start, WorkflowEvent... events) {
        var current = start;
        for (var event : events) {
            var from = current;
            var moved = ExpectedTransitions.require(from, event);
            assertThat(moved.from()).isEqualTo(from);
            current = Optional.of(moved.to());
        }
        return current.orElseThrow();
    }

    private static WorkflowState submitted(WorkflowEvent submission, WorkflowEvent... events) {
        return walk(Optional.empty(), prepend(submission, events));
    }

    private static WorkflowEvent[] prepend(WorkflowEvent first, WorkflowEvent... rest) {
        var all = new WorkflowEvent[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static WorkflowState walk(WorkflowState start, WorkflowEvent... events) {
        return walk(Optional.of(start), events);
    }

    private static void refuses(WorkflowState state, WorkflowEvent event) {
        assertThat(Transitions.check(state, event).allowed()).as(event + " from " + state).isFalse();
        assertThatThrownBy(() -> Transitions.require(state, event)).isInstanceOf(IllegalTransitionException.class);
    }

    private static WorkflowState state(StepStatus step, BindingStatus binding) {
        return WorkflowState.of(step, binding);
    }

    @Nested
    class ApproveFirst {

        @Test
        void runsFromSubmissionToValidated() {
            var sending = submitted(SUBMITTED_APPROVE_FIRST);
            assertThat(sending).isEqualTo(state(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING));
            var sent = walk(sending, APPROVAL_SUBMITTED);
            assertThat(sent).isEqualTo(state(StepStatus.APPROVAL_SUBMITTED, BindingStatus.APPROVAL_SENT));
            var granted = walk(sent, APPROVAL_GRANTED_CREATE);
            assertThat(granted).isEqualTo(state(StepStatus.APPROVAL_GRANTED, BindingStatus.MR_CREATING));
            var creating = walk(granted, CREATE_STARTED, MR_OPENED);
            assertThat(creating).isEqualTo(state(StepStatus.CREATE_MR_OPENED, BindingStatus.MR_CREATING));
            var created = walk(creating, MR_PIPELINE_PASSED);
            assertThat(created).isEqualTo(state(StepStatus.CREATE_SUCCEEDED, BindingStatus.MR_CREATED));
            var approved = walk(created, HANDLE_STARTED, BOTS_APPROVED);
            assertThat(approved).isEqualTo(state(StepStatus.HANDLE_APPROVED, BindingStatus.MERGING));
            var merged = walk(approved, MERGED);
            assertThat(merged).isEqualTo(state(StepStatus.HANDLE_MERGED, BindingStatus.MERGED));
            var validated = walk(merged, DEPLOYED);
            assertThat(validated).isEqualTo(state(StepStatus.CALLED_BACK, BindingStatus.VALIDATED));
        }

        @Test
        void mergesAfterARebase() {
            var merged = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE, CREATE_STARTED,
                    MR_OPENED, MR_PIPELINE_PASSED, HANDLE_STARTED, BOTS_APPROVED, REBASE_STARTED, MERGED, DEPLOYED);
            assertThat(merged.binding()).contains(BindingStatus.VALIDATED);
        }

        @Test
        void keepsTheExternalStateWhenAPipelineTimesOut() {
            var createPending = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE,
                    CREATE_STARTED, MR_OPENED, MR_PIPELINE_TIMED_OUT);
            assertThat(createPending).isEqualTo(state(StepStatus.CREATE_PIPELINE_PENDING, BindingStatus.MR_CREATING));
            // a person confirms the pipeline later; the request continues from where it waited
            var handlePending = walk(createPending, MR_PIPELINE_PASSED, HANDLE_STARTED, BOTS_APPROVED, HANDLE_PIPELINE_TIMED_OUT);
            assertThat(handlePending).isEqualTo(state(StepStatus.HANDLE_PIPELINE_PENDING, BindingStatus.MERGING));
            assertThat(walk(handlePending, MERGED, DEPLOYED).binding()).contains(BindingStatus.VALIDATED);
        }

        @Test
        void endsRejectedWhenTheApproverRejectsOrTheRequesterWithdraws() {
            assertThat(submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_REJECTED))
                    .isEqualTo(state(StepStatus.APPROVAL_REJECTED, BindingStatus.REJECTED));
            assertThat(submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_WITHDRAWN))
                    .isEqualTo(state(StepStatus.APPROVAL_WITHDRAWN, BindingStatus.REJECTED));
        }

        @Test
        void refusesDeployedBeforeMerged() {
            var merging = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE, CREATE_STARTED,
                    MR_OPENED, MR_PIPELINE_PASSED, HANDLE_STARTED, BOTS_APPROVED);
            refuses(merging, DEPLOYED);
        }

        @Test
        void refusesASecondDeployCallbackOnceValidated() {
            var validated = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE,
                    CREATE_STARTED, MR_PIPELINE_PASSED, HANDLE_STARTED, MERGED, DEPLOYED);
            refuses(validated, DEPLOYED);
            // only a new operation leaves VALIDATED (issue 18): the grant's removal, or its renewal
            assertThat(Transitions.allowedEvents(validated)).containsExactlyInAnyOrder(WorkflowEvent.EXPIRY_DUE,
                    WorkflowEvent.REVOCATION_REQUESTED, WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL,
                    WorkflowEvent.REVOCATION_FOR_APPROVAL, SUBMITTED_APPROVE_FIRST, SUBMITTED_CREATE_FIRST);
        }

        @Test
        void refusesADuplicateApprovalCallback() {
            var granted = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE);
            refuses(granted, APPROVAL_GRANTED_CREATE);
            refuses(granted, APPROVAL_REJECTED);
        }

        @Test
        void refusesASecondSubmissionWhileARequestIsInProgress() {
            var sent = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED);
            refuses(sent, SUBMITTED_APPROVE_FIRST);
            refuses(sent, SUBMITTED_CREATE_FIRST);
        }
    }

    @Nested
    class CreateFirst {

        @Test
        void runsFromSubmissionToValidatedInTheLegacyOrder() {
            var creating = submitted(SUBMITTED_CREATE_FIRST);
            assertThat(creating).isEqualTo(state(StepStatus.CREATE_STARTED, BindingStatus.MR_CREATING));
            var created = walk(creating, MR_OPENED, MR_PIPELINE_PASSED);
            assertThat(created).isEqualTo(state(StepStatus.CREATE_SUCCEEDED, BindingStatus.MR_CREATED));
            var sent = walk(created, APPROVAL_REQUESTED, APPROVAL_SUBMITTED);
            assertThat(sent).isEqualTo(state(StepStatus.APPROVAL_SUBMITTED, BindingStatus.APPROVAL_SENT));
            var merging = walk(sent, APPROVAL_GRANTED_MERGE);
            assertThat(merging).isEqualTo(state(StepStatus.APPROVAL_GRANTED, BindingStatus.MERGING));
            var validated = walk(merging, HANDLE_STARTED, BOTS_APPROVED, MERGED, DEPLOYED);
            assertThat(validated).isEqualTo(state(StepStatus.CALLED_BACK, BindingStatus.VALIDATED));
        }

        @Test
        void closesWhenTheMergeRequestIsClosedWhileWaitingForApproval() {
            var sent = submitted(SUBMITTED_CREATE_FIRST, MR_OPENED, MR_PIPELINE_PASSED, APPROVAL_REQUESTED, APPROVAL_SUBMITTED);
            assertThat(walk(sent, MR_CLOSED_REMOTELY)).isEqualTo(state(StepStatus.HANDLE_MR_CLOSED, BindingStatus.CLOSED));
        }

        @Test
        void refusesApprovalRequestBeforeTheMergeRequestPassed() {
            refuses(submitted(SUBMITTED_CREATE_FIRST, MR_OPENED), APPROVAL_REQUESTED);
        }
    }

    @Nested
    class Batch {

        private WorkflowState waiting() {
            var waiting = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_BATCH);
            assertThat(waiting).isEqualTo(state(StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING));
            return waiting;
        }

        @Test
        void runsFromGrantedToValidatedThroughABatch() {
            var batched = walk(waiting(), BATCH_CLAIMED);
            assertThat(batched).isEqualTo(state(StepStatus.BATCH_CLAIMED, BindingStatus.BATCHED));
            var merged = walk(batched, BATCH_MERGED);
            assertThat(merged).isEqualTo(state(StepStatus.HANDLE_MERGED, BindingStatus.MERGED));
            assertThat(walk(merged, DEPLOYED)).isEqualTo(state(StepStatus.CALLED_BACK, BindingStatus.VALIDATED));
        }

        @Test
        void requeuedMemberWaitsAgainAndCanBeClaimedByTheNextRound() {
            var requeued = walk(waiting(), BATCH_CLAIMED, BATCH_REQUEUED);
            assertThat(requeued).isEqualTo(state(StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING));
            assertThat(walk(requeued, BATCH_CLAIMED, BATCH_MERGED).binding()).contains(BindingStatus.MERGED);
        }

        @Test
        void blockedBatchMemberStaysBatchedUntilSettled() {
            var blocked = walk(waiting(), BATCH_CLAIMED, BATCH_BLOCKED);
            assertThat(blocked).isEqualTo(state(StepStatus.BATCH_PENDING, BindingStatus.BATCHED));
            assertThat(walk(blocked, BATCH_MERGED).binding()).contains(BindingStatus.MERGED);
            assertThat(walk(blocked, BATCH_REQUEUED).binding()).contains(BindingStatus.BATCH_WAITING);
        }

        @Test
        void culpritFailsAndAnOperatorCanReadmitIt() {
            var culprit = walk(waiting(), BATCH_CLAIMED, BATCH_CULPRIT_FAILED);
            assertThat(culprit).isEqualTo(state(StepStatus.BATCH_PIPELINE_FAILED, BindingStatus.HANDLE_FAILED));
            var readmitted = walk(culprit, BATCH_READMITTED);
            assertThat(readmitted).isEqualTo(state(StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING));
        }

        @Test
        void givenUpMemberFailsAndAnOperatorCanReadmitIt() {
            var givenUp = walk(waiting(), BATCH_CLAIMED, BATCH_GAVE_UP);
            assertThat(givenUp).isEqualTo(state(StepStatus.BATCH_FAILED, BindingStatus.HANDLE_FAILED));
            assertThat(walk(givenUp, BATCH_READMITTED, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED).binding())
                    .contains(BindingStatus.VALIDATED);
        }

        @Test
        void refusesReadmittingARequestThatDidNotFailInABatch() {
            var handleFailed = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE,
                    CREATE_STARTED, MR_PIPELINE_PASSED, HANDLE_STARTED, HANDLE_ERROR);
            assertThat(handleFailed.binding()).contains(BindingStatus.HANDLE_FAILED);
            refuses(handleFailed, BATCH_READMITTED);
        }

        @Test
        void refusesClaimingARequestThatIsNotWaiting() {
            refuses(walk(waiting(), BATCH_CLAIMED), BATCH_CLAIMED);
            refuses(submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED), BATCH_CLAIMED);
        }

        @Test
        void aBatchMemberIsNeverHandledAsASingleMergeRequest() {
            var members = List.of(
                    waiting(),
                    walk(waiting(), BATCH_CLAIMED),
                    walk(waiting(), BATCH_CLAIMED, BATCH_BLOCKED),
                    walk(waiting(), BATCH_CLAIMED, BATCH_CULPRIT_FAILED),
                    walk(waiting(), BATCH_CLAIMED, BATCH_GAVE_UP),
                    walk(waiting(), BATCH_CLAIMED, BATCH_REQUEUED));
            for (var member : members) {
                for (var event : List.of(HANDLE_STARTED, MERGED, MR_CLOSED_REMOTELY)) {
                    refuses(member, event);
                }
            }
        }

        @Test
        void aFailedBatchMemberIsReadmittedOrClosedNeverHandled() {
            for (var failed : List.of(walk(waiting(), BATCH_CLAIMED, BATCH_CULPRIT_FAILED),
                    walk(waiting(), BATCH_CLAIMED, BATCH_GAVE_UP))) {
                assertThat(failed.binding()).contains(BindingStatus.HANDLE_FAILED);
                // HANDLE_STARTED, MERGED, MR_CLOSED_REMOTELY and CLOSE_STARTED are refused although HANDLE_FAILED
                // allows them elsewhere: a batch member has no merge request of its own
                assertThat(Transitions.allowedEvents(failed))
                        .containsExactlyInAnyOrder(BATCH_READMITTED, CLOSED_BY_OPERATOR, WorkflowEvent.SUPERSEDED_BY_SUBJECT);
                assertThat(walk(failed, CLOSED_BY_OPERATOR)).isEqualTo(state(StepStatus.CLOSED_BY_OPERATOR, BindingStatus.CLOSED));
                assertThat(walk(failed, CLOSED_BY_OPERATOR, SUBMITTED_APPROVE_FIRST).binding())
                        .contains(BindingStatus.APPROVAL_SENDING);
            }
        }

        @Test
        void theSameFailureOutsideABatchIsStillHandledAsASingleMergeRequest() {
            var handleFailed = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE,
                    CREATE_STARTED, MR_PIPELINE_PASSED, HANDLE_STARTED, HANDLE_ERROR);
            assertThat(Transitions.allowedEvents(handleFailed)).contains(HANDLE_STARTED, MERGED, MR_CLOSED_REMOTELY)
                    .doesNotContain(BATCH_READMITTED);
        }

        @Test
        void operatorCanCloseAWaitingMemberButNotABatchedOne() {
            assertThat(walk(waiting(), CLOSED_BY_OPERATOR)).isEqualTo(state(StepStatus.CLOSED_BY_OPERATOR, BindingStatus.CLOSED));
            refuses(walk(waiting(), BATCH_CLAIMED), CLOSED_BY_OPERATOR);
        }
    }

    @Nested
    class Reapplication {

        @Test
        void reappliesAfterRejected() {
            var rejected = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_REJECTED);
            assertThat(walk(rejected, SUBMITTED_APPROVE_FIRST))
                    .isEqualTo(state(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING));
            assertThat(walk(rejected, SUBMITTED_CREATE_FIRST))
                    .isEqualTo(state(StepStatus.CREATE_STARTED, BindingStatus.MR_CREATING));
        }

        @Test
        void reappliesAfterClosed() {
            var closedRemotely = submitted(SUBMITTED_CREATE_FIRST, MR_OPENED, MR_CLOSED_REMOTELY);
            assertThat(closedRemotely).isEqualTo(state(StepStatus.HANDLE_MR_CLOSED, BindingStatus.CLOSED));
            assertThat(walk(closedRemotely, SUBMITTED_APPROVE_FIRST).binding()).contains(BindingStatus.APPROVAL_SENDING);

            var closedByOperator = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, CLOSED_BY_OPERATOR);
            assertThat(walk(closedByOperator, SUBMITTED_CREATE_FIRST).binding()).contains(BindingStatus.MR_CREATING);
        }

        @Test
        void allowsOnlyARenewalAfterValidated() {
            // issue 18: a submission on a grant in effect is a renewal; the opening refuses it with the same expiry
            // (Binding.inEffectUntil: ALREADY_IN_EFFECT), which the persistence and application tests prove
            var validated = submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, APPROVAL_REQUESTED, APPROVAL_SUBMITTED,
                    APPROVAL_GRANTED_MERGE, HANDLE_STARTED, MERGED, DEPLOYED);
            assertThat(Transitions.require(validated, SUBMITTED_APPROVE_FIRST).to().binding())
                    .contains(BindingStatus.APPROVAL_SENDING);
            assertThat(Transitions.require(validated, SUBMITTED_CREATE_FIRST).to().binding())
                    .contains(BindingStatus.MR_CREATING);
        }

        @Test
        void refusesReapplyingWhileFailed() {
            for (var failed : List.of(
                    submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMIT_FAILED),
                    submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_FAILED),
                    submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, HANDLE_STARTED, REBASE_CONFLICT))) {
                refuses(failed, SUBMITTED_APPROVE_FIRST);
                refuses(failed, SUBMITTED_CREATE_FIRST);
            }
        }

        @Test
        void ignoresLateCallbackOfReplacedOperation() {
            // the first request was rejected, the user applied again: the old operation lost its row
            var oldOperation = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_REJECTED);
            var newOperation = walk(oldOperation, SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED);
            var replaced = WorkflowState.detached(oldOperation.step());
            for (var callback : List.of(APPROVAL_GRANTED_CREATE, APPROVAL_GRANTED_MERGE, APPROVAL_GRANTED_BATCH,
                    APPROVAL_REJECTED, APPROVAL_WITHDRAWN)) {
                refuses(replaced, callback);
            }
            // the new owner still takes its own callback
            assertThat(walk(newOperation, APPROVAL_GRANTED_CREATE).binding()).contains(BindingStatus.MR_CREATING);
        }

        @Test
        void replacedOperationMayOnlyCleanUpItsMergeRequest() {
            var replaced = WorkflowState.detached(StepStatus.HANDLE_MR_CLOSED);
            assertThat(Transitions.allowedEvents(replaced)).containsExactly(CLOSE_STARTED);
            var closed = walk(replaced, CLOSE_STARTED, CLOSE_FAILED, CLOSE_DONE);
            assertThat(closed).isEqualTo(WorkflowState.detached(StepStatus.CLOSE_DONE));
        }
    }

    @Nested
    class OperatorRecovery {

        @Test
        void retriesAFailedApprovalSubmission() {
            var failed = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMIT_FAILED);
            assertThat(failed).isEqualTo(state(StepStatus.APPROVAL_SUBMIT_FAILED, BindingStatus.APPROVAL_FAILED));
            assertThat(walk(failed, APPROVAL_REQUESTED, APPROVAL_SUBMITTED))
                    .isEqualTo(state(StepStatus.APPROVAL_SUBMITTED, BindingStatus.APPROVAL_SENT));
        }

        @Test
        void retriesAnApprovalSubmissionThatNeverFinished() {
            var sending = submitted(SUBMITTED_APPROVE_FIRST);
            assertThat(walk(sending, APPROVAL_REQUESTED))
                    .isEqualTo(state(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING));
        }

        @Test
        void reTriggersCreateAfterAPipelineFailureOrAnError() {
            var pipelineFailed = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMITTED, APPROVAL_GRANTED_CREATE,
                    CREATE_STARTED, MR_OPENED, MR_PIPELINE_FAILED);
            assertThat(pipelineFailed).isEqualTo(state(StepStatus.CREATE_PIPELINE_FAILED, BindingStatus.CREATE_FAILED));
            var errored = submitted(SUBMITTED_CREATE_FIRST, CREATE_ERROR);
            assertThat(errored).isEqualTo(state(StepStatus.CREATE_FAILED, BindingStatus.CREATE_FAILED));
            for (var failed : List.of(pipelineFailed, errored)) {
                assertThat(walk(failed, CREATE_STARTED, MR_OPENED, MR_PIPELINE_PASSED))
                        .isEqualTo(state(StepStatus.CREATE_SUCCEEDED, BindingStatus.MR_CREATED));
            }
        }

        @Test
        void reTriggersHandleFromEveryHandleFailure() {
            var merging = submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, APPROVAL_REQUESTED, APPROVAL_SUBMITTED,
                    APPROVAL_GRANTED_MERGE, HANDLE_STARTED);
            for (var failure : List.of(BOTS_APPROVAL_FAILED, REBASE_CONFLICT, HANDLE_PIPELINE_FAILED, HANDLE_ERROR)) {
                var failed = walk(merging, failure);
                assertThat(failed.binding()).as(failure.name()).contains(BindingStatus.HANDLE_FAILED);
                assertThat(walk(failed, HANDLE_STARTED)).isEqualTo(state(StepStatus.HANDLE_STARTED, BindingStatus.MERGING));
                assertThat(walk(failed, HANDLE_STARTED, BOTS_APPROVED, MERGED, DEPLOYED).binding())
                        .contains(BindingStatus.VALIDATED);
            }
        }

        @Test
        void finishesAsMergedWhenARetriggeredHandleFindsTheMergeRequestMerged() {
            var failed = submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, HANDLE_STARTED, HANDLE_ERROR);
            assertThat(walk(failed, MERGED)).isEqualTo(state(StepStatus.HANDLE_MERGED, BindingStatus.MERGED));
        }

        @Test
        void closesAFailedRequestSoTheUserCanApplyAgain() {
            var failures = List.of(
                    submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_SUBMIT_FAILED),
                    submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_FAILED),
                    submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, HANDLE_STARTED, BOTS_APPROVAL_FAILED));
            for (var failed : failures) {
                var closing = walk(failed, CLOSE_STARTED);
                assertThat(closing.binding()).isEqualTo(failed.binding());
                var closed = walk(closing, CLOSE_DONE, CLOSED_BY_OPERATOR);
                assertThat(closed).isEqualTo(state(StepStatus.CLOSED_BY_OPERATOR, BindingStatus.CLOSED));
                assertThat(walk(closed, SUBMITTED_APPROVE_FIRST).binding()).contains(BindingStatus.APPROVAL_SENDING);
            }
        }

        @Test
        void retriesAFailedClose() {
            var closeFailed = walk(submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_FAILED), CLOSE_STARTED, CLOSE_FAILED);
            assertThat(closeFailed).isEqualTo(state(StepStatus.CLOSE_FAILED, BindingStatus.CREATE_FAILED));
            assertThat(walk(closeFailed, CLOSE_DONE)).isEqualTo(state(StepStatus.CLOSE_DONE, BindingStatus.CREATE_FAILED));
            assertThat(walk(closeFailed, CLOSE_STARTED, CLOSE_DONE))
                    .isEqualTo(state(StepStatus.CLOSE_DONE, BindingStatus.CREATE_FAILED));
        }

        @Test
        void aCloseGivenUpWaitsForAPersonAndARetriggerTakesItBackToACloseAttempt() {
            var rejected = submitted(SUBMITTED_CREATE_FIRST, MR_OPENED, MR_PIPELINE_PASSED, APPROVAL_REQUESTED,
                    APPROVAL_SUBMITTED, APPROVAL_REJECTED);
            refuses(walk(rejected, CLOSE_STARTED), WorkflowEvent.CLOSE_GAVE_UP);
            var gaveUp = walk(rejected, CLOSE_STARTED, CLOSE_FAILED, WorkflowEvent.CLOSE_GAVE_UP);
            assertThat(gaveUp).isEqualTo(state(StepStatus.CLOSE_GAVE_UP, BindingStatus.REJECTED));
            for (var event : List.of(CLOSE_DONE, CLOSE_FAILED, WorkflowEvent.CLOSE_GAVE_UP)) {
                refuses(gaveUp, event);
            }
            assertThat(walk(gaveUp, CLOSE_STARTED, CLOSE_DONE)).isEqualTo(state(StepStatus.CLOSE_DONE, BindingStatus.REJECTED));
            var replaced = WorkflowState.detached(StepStatus.CLOSE_FAILED);
            assertThat(walk(replaced, WorkflowEvent.CLOSE_GAVE_UP, CLOSE_STARTED))
                    .isEqualTo(WorkflowState.detached(StepStatus.CLOSE_STARTED));
        }

        @Test
        void refusesClosingAMergedRequest() {
            var merged = submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, HANDLE_STARTED, MERGED);
            refuses(merged, CLOSE_STARTED);
            refuses(merged, CLOSED_BY_OPERATOR);
            refuses(merged, MR_CLOSED_REMOTELY);
        }
    }

    @Nested
    class CallbackBeforeSent {

        @Test
        void acceptsEveryApprovalCallbackWhileStillSending() {
            var sending = submitted(SUBMITTED_APPROVE_FIRST);
            assertThat(walk(sending, APPROVAL_GRANTED_CREATE).binding()).contains(BindingStatus.MR_CREATING);
            assertThat(walk(sending, APPROVAL_GRANTED_BATCH).binding()).contains(BindingStatus.BATCH_WAITING);
            assertThat(walk(sending, APPROVAL_GRANTED_MERGE).binding()).contains(BindingStatus.MERGING);
            assertThat(walk(sending, APPROVAL_REJECTED).binding()).contains(BindingStatus.REJECTED);
            assertThat(walk(sending, APPROVAL_WITHDRAWN).binding()).contains(BindingStatus.REJECTED);
        }

        @Test
        void refusesTheLateSubmittedWriteAfterAnEarlyCallback() {
            var sending = submitted(SUBMITTED_APPROVE_FIRST);
            for (var callback : List.of(APPROVAL_GRANTED_CREATE, APPROVAL_GRANTED_BATCH, APPROVAL_GRANTED_MERGE,
                    APPROVAL_REJECTED, APPROVAL_WITHDRAWN)) {
                var answered = walk(sending, callback);
                refuses(answered, APPROVAL_SUBMITTED);
                refuses(answered, APPROVAL_SUBMIT_FAILED);
            }
        }

        @Test
        void earlyGrantContinuesToValidated() {
            var validated = submitted(SUBMITTED_APPROVE_FIRST, APPROVAL_GRANTED_CREATE, CREATE_STARTED, MR_OPENED,
                    MR_PIPELINE_PASSED, HANDLE_STARTED, BOTS_APPROVED, MERGED, DEPLOYED);
            assertThat(validated).isEqualTo(state(StepStatus.CALLED_BACK, BindingStatus.VALIDATED));
        }
    }

    @Nested
    class DeployDeadline {

        private WorkflowState merged() {
            return submitted(SUBMITTED_CREATE_FIRST, MR_PIPELINE_PASSED, HANDLE_STARTED, MERGED);
        }

        @Test
        void anUnconfirmedDeployIsExplicitAndALaterReportStillValidatesIt() {
            var unconfirmed = walk(merged(), DEPLOY_DEADLINE_PASSED);
            assertThat(unconfirmed).isEqualTo(state(StepStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_UNCONFIRMED));
            assertThat(walk(unconfirmed, DEPLOYED)).isEqualTo(state(StepStatus.CALLED_BACK, BindingStatus.VALIDATED));
            refuses(unconfirmed, DEPLOY_DEADLINE_PASSED);
            refuses(unconfirmed, CLOSED_BY_OPERATOR);
            refuses(unconfirmed, CLOSE_STARTED);
        }

        @Test
        void aFailedRolloutIsExplicitAndALaterSuccessOrConfirmStillValidatesIt() {
            for (var failed : List.of(walk(merged(), DEPLOY_REPORTED_FAILED), walk(merged(), DEPLOY_MARKED_FAILED),
                    walk(merged(), DEPLOY_DEADLINE_PASSED, DEPLOY_REPORTED_FAILED),
                    walk(merged(), DEPLOY_DEADLINE_PASSED, DEPLOY_MARKED_FAILED))) {
                assertThat(failed).isEqualTo(state(StepStatus.DEPLOY_FAILED, BindingStatus.DEPLOY_FAILED));
                assertThat(walk(failed, DEPLOYED).binding()).contains(BindingStatus.VALIDATED);
                refuses(failed, DEPLOY_REPORTED_FAILED);
                refuses(failed, DEPLOY_MARKED_FAILED);
                refuses(failed, DEPLOY_DEADLINE_PASSED);
            }
        }

        @Test
        void aValidatedRequestStaysValidated() {
            var validated = walk(merged(), DEPLOYED);
            refuses(validated, DEPLOYED);
            refuses(validated, DEPLOY_DEADLINE_PASSED);
            refuses(validated, DEPLOY_REPORTED_FAILED);
            refuses(validated, DEPLOY_MARKED_FAILED);
        }

        @Test
        void theDeployStatesKeepTheRelationshipBlockedForANewRequest() {
            for (var status : List.of(BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_FAILED)) {
                assertThat(status.isReappliable()).isFalse();
                assertThat(status.isTerminal()).isFalse();
                assertThat(status.isFailed()).isTrue();
                refuses(state(StepStatus.DEPLOY_UNCONFIRMED, status), SUBMITTED_APPROVE_FIRST);
                refuses(state(StepStatus.DEPLOY_FAILED, status), SUBMITTED_CREATE_FIRST);
            }
        }
    }
}
