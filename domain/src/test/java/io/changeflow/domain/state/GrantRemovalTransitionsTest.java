package io.changeflow.domain.state;

import static io.changeflow.domain.state.WorkflowEvent.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Issue 18: the removal of a grant in effect (expiry, give-up, revocation) as paths through the table. */
class GrantRemovalTransitionsTest {

    private static final WorkflowState VALIDATED_GRANT = WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.VALIDATED);

    private static WorkflowState walk(WorkflowState from, WorkflowEvent... events) {
        var state = from;
        for (var event : events) {
            state = Transitions.require(state, event).to();
        }
        return state;
    }

    @Test
    void anExpiredGrantIsRemovedThroughTheBatchPathAndEndsExpired() {
        var due = walk(VALIDATED_GRANT, EXPIRY_DUE);
        assertThat(due).isEqualTo(WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.EXPIRING, ChangeKind.EXPIRY));
        var merged = walk(due, BATCH_CLAIMED, BATCH_MERGED);
        assertThat(merged).isEqualTo(WorkflowState.of(StepStatus.HANDLE_MERGED, BindingStatus.MERGED, ChangeKind.EXPIRY));
        assertThat(walk(merged, DEPLOYED)).isEqualTo(WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.EXPIRED,
                ChangeKind.EXPIRY));
    }

    @Test
    void aGivenUpOrRevokedGrantEndsRevoked() {
        var ended = walk(VALIDATED_GRANT, REVOCATION_REQUESTED, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED);
        assertThat(ended.binding()).contains(BindingStatus.REVOKED);
        assertThat(ended.kind()).isEqualTo(ChangeKind.REVOCATION);
    }

    @Test
    void expiredAndRevokedAreReappliableByANewGrant() {
        for (var end : new WorkflowEvent[] {EXPIRY_DUE, REVOCATION_REQUESTED}) {
            var ended = walk(VALIDATED_GRANT, end, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED);
            assertThat(ended.binding().orElseThrow().isReappliable()).isTrue();
            var again = Transitions.require(ended, SUBMITTED_APPROVE_FIRST).to();
            assertThat(again).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING));
            assertThat(Transitions.require(ended, SUBMITTED_CREATE_FIRST).to().kind()).isEqualTo(ChangeKind.GRANT);
        }
    }

    @Test
    void onlyAGrantInEffectCanBeRemoved() {
        for (var status : BindingStatus.values()) {
            var state = WorkflowState.of(StepStatus.CALLED_BACK, status);
            var inEffect = status == BindingStatus.VALIDATED || status == BindingStatus.REMOVAL_REJECTED;
            for (var opening : new WorkflowEvent[] {EXPIRY_DUE, REVOCATION_REQUESTED, EXPIRY_DUE_FOR_APPROVAL,
                    REVOCATION_FOR_APPROVAL}) {
                assertThat(Transitions.check(state, opening).allowed()).as(opening + " from " + status).isEqualTo(inEffect);
            }
        }
        assertThat(Transitions.check(EXPIRY_DUE).allowed()).isFalse();
        assertThat(Transitions.opens(EXPIRY_DUE)).isTrue();
        assertThat(Transitions.opens(SUBMITTED_APPROVE_FIRST)).isTrue();
        assertThat(Transitions.opens(BATCH_CLAIMED)).isFalse();
    }

    @Test
    void aRemovalIsNeverClosedByAnOperatorButAFailedOneIsReadmittedAsARemoval() {
        var waiting = walk(VALIDATED_GRANT, EXPIRY_DUE);
        assertThat(Transitions.check(waiting, CLOSED_BY_OPERATOR).allowed()).isFalse();
        var failed = walk(waiting, BATCH_CLAIMED, BATCH_CULPRIT_FAILED);
        assertThat(failed.binding()).contains(BindingStatus.HANDLE_FAILED);
        assertThat(Transitions.check(failed, CLOSED_BY_OPERATOR).allowed()).isFalse();
        var readmitted = walk(failed, BATCH_READMITTED);
        assertThat(readmitted).isEqualTo(WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING, ChangeKind.EXPIRY));
        assertThat(Transitions.check(readmitted, CLOSED_BY_OPERATOR).allowed()).isFalse();
        assertThat(walk(readmitted, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED).binding()).contains(BindingStatus.EXPIRED);
        // a grant waiting in the batch set can still be closed
        assertThat(Transitions.check(WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING), CLOSED_BY_OPERATOR)
                .allowed()).isTrue();
    }

    @Test
    void aRemovalWhoseDeployIsNotConfirmedWaitsForAPersonAndStillEndsExpired() {
        var unconfirmed = walk(VALIDATED_GRANT, EXPIRY_DUE, BATCH_CLAIMED, BATCH_MERGED, DEPLOY_DEADLINE_PASSED);
        assertThat(unconfirmed.binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);
        assertThat(walk(unconfirmed, DEPLOYED).binding()).contains(BindingStatus.EXPIRED);
    }

    @Test
    void theConvergenceWalkReachesTheRemovalStatesAndEachHasAnOwner() {
        var reachable = Convergence.reachable();
        assertThat(reachable).contains(
                WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.EXPIRING, ChangeKind.EXPIRY),
                WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.REVOKING, ChangeKind.REVOCATION),
                WorkflowState.of(StepStatus.HANDLE_MERGED, BindingStatus.MERGED, ChangeKind.EXPIRY),
                WorkflowState.of(StepStatus.BATCH_PIPELINE_FAILED, BindingStatus.HANDLE_FAILED, ChangeKind.EXPIRY));
        var table = Convergence.standard();
        assertThat(table.of(WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.EXPIRING, ChangeKind.EXPIRY)))
                .hasValueSatisfying(w -> {
                    assertThat(w.owner()).isEqualTo(Convergence.Owner.SERVICE);
                    assertThat(w.deadline()).contains(Convergence.Deadline.STEP_SILENCE);
                });
        assertThat(table.of(WorkflowState.of(StepStatus.BATCH_PIPELINE_FAILED, BindingStatus.HANDLE_FAILED, ChangeKind.EXPIRY)))
                .hasValueSatisfying(w -> assertThat(w.ownedByPerson()).isTrue());
        assertThat(table.of(WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.EXPIRED, ChangeKind.EXPIRY))).isEmpty();
    }

    @Test
    void aGrantInEffectIsRenewedByASubmissionApprovedLikeANewGrant() {
        var renewal = Transitions.require(VALIDATED_GRANT, SUBMITTED_APPROVE_FIRST).to();
        assertThat(renewal).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING));
        assertThat(Transitions.require(VALIDATED_GRANT, SUBMITTED_CREATE_FIRST).to().binding()).contains(BindingStatus.MR_CREATING);
        // a removal in progress is not renewable: the request waits until it ended
        var removing = walk(VALIDATED_GRANT, EXPIRY_DUE);
        assertThat(Transitions.check(removing, SUBMITTED_APPROVE_FIRST).allowed()).isFalse();
        assertThat(Transitions.check(walk(removing, BATCH_CLAIMED, BATCH_MERGED), SUBMITTED_APPROVE_FIRST).allowed()).isFalse();
    }

    @Test
    void theSameExpiryIsNoChangeAndAnotherOneIsARenewal() {
        var until = java.time.Instant.parse("2026-12-05T00:00:00Z");
        var row = new io.changeflow.domain.operation.Binding(io.changeflow.domain.request.SubjectId.of("alice"),
                io.changeflow.domain.request.TargetKey.of("db"), io.changeflow.domain.request.OperationId.of(
                "00000000-0000-4000-8000-000000000001"), BindingStatus.VALIDATED, 3, Optional.of(until), until);
        assertThat(row.alreadyInEffectFor(asking(Optional.of(until)))).isTrue();
        assertThat(row.alreadyInEffectFor(asking(Optional.of(until.plusNanos(300))))).as("stored to the millisecond").isTrue();
        assertThat(row.alreadyInEffectFor(asking(Optional.of(until.plusSeconds(86_400))))).isFalse();
        assertThat(row.alreadyInEffectFor(asking(Optional.empty()))).as("until further notice is another expiry").isFalse();
        var forever = new io.changeflow.domain.operation.Binding(row.subject(), row.target(), row.operationId(),
                BindingStatus.VALIDATED, 3, Optional.empty(), until);
        assertThat(forever.alreadyInEffectFor(asking(Optional.empty()))).isTrue();
        var rejected = new io.changeflow.domain.operation.Binding(row.subject(), row.target(), row.operationId(),
                BindingStatus.REJECTED, 3, Optional.of(until), until);
        assertThat(rejected.alreadyInEffectFor(asking(Optional.of(until)))).isFalse();
    }

    /** A request for the grant of {@code db} to alice until {@code expiresAt}. */
    private static io.changeflow.domain.request.ChangeRequest asking(Optional<java.time.Instant> expiresAt) {
        return new io.changeflow.domain.request.ChangeRequest(io.changeflow.domain.request.OperationId.of(
                "00000000-0000-4000-8000-000000000002"), "alice", io.changeflow.domain.request.TargetKey.of("db"),
                io.changeflow.domain.request.SubjectId.of("alice"), "on call", expiresAt);
    }

    @Test
    void aGrantWhoseRenewalFellThroughIsInEffectAgainAndNothingElseComesBack() {
        assertThat(Transitions.require(WorkflowState.detached(StepStatus.CALLED_BACK), RENEWAL_FELL_THROUGH).to())
                .isEqualTo(VALIDATED_GRANT);
        for (var step : StepStatus.values()) {
            if (step != StepStatus.CALLED_BACK) {
                assertThat(Transitions.check(WorkflowState.detached(step), RENEWAL_FELL_THROUGH).allowed()).as(step.name())
                        .isFalse();
            }
        }
        for (var status : BindingStatus.values()) {
            assertThat(Transitions.check(WorkflowState.of(StepStatus.CALLED_BACK, status), RENEWAL_FELL_THROUGH).allowed())
                    .as("only a replaced grant: " + status).isFalse();
        }
    }

    // --- removals: approval (issue 18, a per-target setting) -------------------------------------------------------

    @Test
    void aRemovalThatNeedsApprovalOpensWaitingForTheApproverAndApprovedTakesTheBatchPathToItsEnd() {
        var asked = walk(VALIDATED_GRANT, EXPIRY_DUE_FOR_APPROVAL);
        assertThat(asked).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING,
                ChangeKind.EXPIRY));
        // never EXPIRING: the expiry job's admission of every removal due never sees an unapproved one
        assertThat(BindingStatus.REMOVAL_DUE).doesNotContain(asked.binding().orElseThrow());
        var sent = walk(asked, APPROVAL_SUBMITTED);
        for (var event : new WorkflowEvent[] {APPROVAL_GRANTED_CREATE, APPROVAL_GRANTED_MERGE, APPROVAL_REJECTED,
                APPROVAL_WITHDRAWN, MR_CLOSED_REMOTELY, CLOSED_BY_OPERATOR}) {
            assertThat(Transitions.check(sent, event).allowed()).as(event.name()).isFalse();
        }
        var approved = walk(sent, APPROVAL_GRANTED_BATCH);
        assertThat(approved).isEqualTo(WorkflowState.of(StepStatus.BATCH_WAITING, BindingStatus.BATCH_WAITING, ChangeKind.EXPIRY));
        assertThat(walk(approved, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED).binding()).contains(BindingStatus.EXPIRED);
        assertThat(walk(VALIDATED_GRANT, REVOCATION_FOR_APPROVAL, APPROVAL_SUBMITTED, APPROVAL_GRANTED_BATCH, BATCH_CLAIMED,
                BATCH_MERGED, DEPLOYED)).isEqualTo(WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.REVOKED,
                ChangeKind.REVOCATION));
    }

    @Test
    void aRemovalNotApprovedKeepsTheGrantInEffectForAPerson() {
        for (var from : new WorkflowState[] {walk(VALIDATED_GRANT, EXPIRY_DUE_FOR_APPROVAL),
                walk(VALIDATED_GRANT, EXPIRY_DUE_FOR_APPROVAL, APPROVAL_SUBMITTED),
                walk(VALIDATED_GRANT, EXPIRY_DUE_FOR_APPROVAL, APPROVAL_SUBMIT_FAILED)}) {
            var kept = walk(from, REMOVAL_NOT_APPROVED);
            assertThat(kept).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_REJECTED, BindingStatus.REMOVAL_REJECTED,
                    ChangeKind.EXPIRY));
            assertThat(kept.binding().orElseThrow().isReappliable()).isFalse();
            assertThat(kept.binding().orElseThrow().isTerminal()).isFalse();
            assertThat(io.changeflow.domain.hint.NextAction.of(kept))
                    .isEqualTo(io.changeflow.domain.hint.Hint.CONTACT_MAINTAINERS);
            assertThat(Convergence.standard().of(kept)).hasValueSatisfying(w -> assertThat(w.ownedByPerson()).isTrue());
        }
        // a grant is never REMOVAL_REJECTED
        assertThat(Transitions.check(WorkflowState.of(StepStatus.APPROVAL_SUBMITTED, BindingStatus.APPROVAL_SENT),
                REMOVAL_NOT_APPROVED).allowed()).isFalse();
    }

    @Test
    void aRejectedExpiryIsNotAskedAgainButARevocationAndAGiveUpStillOpen() {
        var kept = walk(VALIDATED_GRANT, EXPIRY_DUE_FOR_APPROVAL, APPROVAL_SUBMITTED, REMOVAL_NOT_APPROVED);
        assertThat(Transitions.check(kept, EXPIRY_DUE_FOR_APPROVAL).allowed()).isFalse();
        assertThat(Transitions.check(kept, EXPIRY_DUE).allowed()).isFalse();
        assertThat(walk(kept, REVOCATION_FOR_APPROVAL)).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_SUBMITTING,
                BindingStatus.APPROVAL_SENDING, ChangeKind.REVOCATION));
        assertThat(walk(kept, REVOCATION_REQUESTED, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED).binding())
                .contains(BindingStatus.REVOKED);
        // nor is it a renewal or a re-application: the grant is in effect and a person decides
        assertThat(Transitions.check(kept, SUBMITTED_APPROVE_FIRST).allowed()).isFalse();
    }

    @Test
    void aRejectedRevocationStillExpiresAtTheGrantsUntil() {
        var kept = walk(VALIDATED_GRANT, REVOCATION_FOR_APPROVAL, APPROVAL_SUBMITTED, REMOVAL_NOT_APPROVED);
        assertThat(kept).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_REJECTED, BindingStatus.REMOVAL_REJECTED,
                ChangeKind.REVOCATION));
        assertThat(walk(kept, EXPIRY_DUE_FOR_APPROVAL).kind()).isEqualTo(ChangeKind.EXPIRY);
        assertThat(walk(kept, EXPIRY_DUE, BATCH_CLAIMED, BATCH_MERGED, DEPLOYED).binding()).contains(BindingStatus.EXPIRED);
    }

    @Test
    void theConvergenceWalkReachesRemovalRejected() {
        assertThat(Convergence.reachable()).contains(
                WorkflowState.of(StepStatus.APPROVAL_REJECTED, BindingStatus.REMOVAL_REJECTED, ChangeKind.EXPIRY),
                WorkflowState.of(StepStatus.APPROVAL_REJECTED, BindingStatus.REMOVAL_REJECTED, ChangeKind.REVOCATION));
        assertThat(Convergence.standard().withoutOwner(Convergence.reachable())).isEmpty();
    }
}
