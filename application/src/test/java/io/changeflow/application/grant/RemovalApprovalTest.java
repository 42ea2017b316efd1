package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, item 1's per-target setting: whether a removal needs the approval system
 * ({@code changeflow.catalog.targets[n].removals: approval}; default and fail-safe: no approval). An expiry and an
 * operator's revocation ask the approver first; a holder's give-up never does.
 */
class RemovalApprovalTest {

    private static final String FILE = "grants/db-prod-readonly.txt";

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    RemovalApprovalTest() {
        app.targets.withRemovals(FakeTargets.SINGLE, RemovalPolicy.APPROVAL);
    }

    private OperationId validated(String subject, Instant until) {
        var op = app.grantInEffect(subject, subject, until);
        assertThat(app.op(op).binding()).contains(BindingStatus.VALIDATED);
        return op;
    }

    private OperationId ownerOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().operationId();
    }

    private BindingStatus statusOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().status();
    }

    private String main() {
        return app.gitlab.fileOn(FakeTargets.PROJECT, "main", FILE).orElse("");
    }

    private ExpireGrants.Result expire() {
        var result = app.expireGrants.run(new ExpireGrants.Command());
        app.queue.runUntilIdle();
        return result;
    }

    private void roundAndDeploy(String subject) {
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(ownerOf(subject));
    }

    /** An expired grant whose removal the approver rejected: REMOVAL_REJECTED. */
    private OperationId rejectedExpiry(String subject) {
        validated(subject, app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        expire();
        var removal = ownerOf(subject);
        assertThat(app.decide(removal, Decision.REJECTED)).isEqualTo(CallbackAnswer.PROCESSED);
        assertThat(statusOf(subject)).isEqualTo(BindingStatus.REMOVAL_REJECTED);
        return removal;
    }

    @Test
    void anApprovedExpiryIsMergedByTheRemovalRoundAndEndsExpired() {
        var grant = validated("alice", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        var run = app.expireGrants.run(new ExpireGrants.Command());
        assertThat(run.opened()).isEqualTo(1);
        assertThat(run.admitted()).as("waits for the approver, not for the round").isZero();
        var removal = ownerOf("alice");
        assertThat(app.op(removal).kind()).isEqualTo(ChangeKind.EXPIRY);
        assertThat(app.op(removal).binding()).contains(BindingStatus.APPROVAL_SENDING);
        assertThat(app.op(removal).removes()).contains(grant);
        assertThat(app.batches.isWaiting(removal)).isFalse();
        app.queue.runUntilIdle();
        assertThat(app.op(removal).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.approvals.formOf(removal)).hasValueSatisfying(form -> assertThat(form.toString()).contains("expired"));

        // the next runs do not admit an unapproved removal, nor ask again
        var opened = app.approvals.opened();
        assertThat(expire()).isEqualTo(new ExpireGrants.Result(0, 0, 0));
        assertThat(app.batches.isWaiting(removal)).isFalse();
        assertThat(main()).contains("alice until=");

        assertThat(app.decide(removal, Decision.APPROVED)).isEqualTo(CallbackAnswer.PROCESSED);
        assertThat(app.op(removal).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.batches.isWaiting(removal)).isTrue();
        roundAndDeploy("alice");
        assertThat(main()).doesNotContain("alice until=");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.EXPIRED);
        assertThat(app.approvals.opened()).isEqualTo(opened);
        assertThat(app.operations.history(removal)).extracting(h -> h.event()).containsExactly(
                WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL, WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_BATCH,
                WorkflowEvent.BATCH_CLAIMED, WorkflowEvent.BATCH_MERGED, WorkflowEvent.DEPLOYED);
    }

    @Test
    void aRejectedExpiryKeepsTheGrantAndItsLineAndIsNotAskedAgainByTheNextRuns() {
        var removal = rejectedExpiry("alice");
        var op = app.op(removal);
        assertThat(op.step().name()).isEqualTo("APPROVAL_REJECTED");
        assertThat(NextAction.of(op.state())).isEqualTo(Hint.CONTACT_MAINTAINERS);
        assertThat(main()).contains("alice until=");
        var opened = app.approvals.opened();
        var calls = app.approvals.calls();
        for (var run = 0; run < 3; run++) {
            app.clock.advance(Duration.ofHours(1));
            assertThat(expire()).isEqualTo(new ExpireGrants.Result(0, 0, 0));
        }
        assertThat(app.approvals.opened()).isEqualTo(opened);
        assertThat(app.approvals.calls()).isEqualTo(calls);
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REMOVAL_REJECTED);
        assertThat(ownerOf("alice")).isEqualTo(removal);
        // nothing else comes back on its own: no merge request, no close
        assertThat(app.op(removal).mergeRequest()).isEmpty();
        // a new request (or a renewal) is refused: the grant is in effect and a person decides
        var again = app.submit("alice", new Submission(InMemoryChangeflow.newOperationId(), FakeTargets.SINGLE.value(),
                "alice", "again", app.clock.instant().plus(Duration.ofDays(1)).toString()));
        assertThat(again.code()).isEqualTo("ALREADY_IN_EFFECT");
        assertThat(ownerOf("alice")).isEqualTo(removal);
    }

    @Test
    void anOperatorRevokesAGrantWhoseExpiryWasRejectedAndTheRemovalRemovesTheOriginalLine() {
        var rejected = rejectedExpiry("alice");
        var grant = app.op(rejected).removes().orElseThrow();
        var result = app.removeGrant.remove(RemoveGrant.Command.revoke("alice", FakeTargets.SINGLE.value(), "otto", Map.of()));
        assertThat(result).isInstanceOf(RemoveGrant.Result.Accepted.class);
        var revocation = ownerOf("alice");
        assertThat(app.op(revocation).kind()).isEqualTo(ChangeKind.REVOCATION);
        assertThat(app.op(revocation).binding()).contains(BindingStatus.APPROVAL_SENDING);
        assertThat(app.op(revocation).removes()).as("the grant whose line is in the file").contains(grant);
        app.queue.runUntilIdle();
        app.decide(revocation, Decision.APPROVED);
        roundAndDeploy("alice");
        assertThat(main()).doesNotContain("alice until=");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKED);
        assertThat(app.audit.all()).anySatisfy(e -> assertThat(e.action()).isEqualTo("REVOKE_GRANT"));
    }

    @Test
    void aHolderGivesUpAGrantWhoseExpiryWasRejectedWithoutApproval() {
        var rejected = rejectedExpiry("alice");
        var opened = app.approvals.opened();
        var result = app.removeGrant.remove(RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "alice"));
        assertThat(result).isInstanceOf(RemoveGrant.Result.Accepted.class);
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKING);
        assertThat(app.op(ownerOf("alice")).removes()).isEqualTo(app.op(rejected).removes());
        roundAndDeploy("alice");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKED);
        assertThat(main()).doesNotContain("alice until=");
        assertThat(app.approvals.opened()).isEqualTo(opened);
    }

    @Test
    void aRejectedRevocationOfAGrantThatExpiresLaterStillExpiresAtItsUntil() {
        var grant = validated("alice", app.clock.instant().plus(Duration.ofDays(3)));
        app.removeGrant.remove(RemoveGrant.Command.revoke("alice", FakeTargets.SINGLE.value(), "otto", Map.of()));
        app.queue.runUntilIdle();
        app.decide(ownerOf("alice"), Decision.REJECTED);
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REMOVAL_REJECTED);
        assertThat(expire().due()).as("not expired yet").isZero();

        app.clock.advance(Duration.ofDays(4));
        assertThat(expire().opened()).isEqualTo(1);
        var expiry = ownerOf("alice");
        assertThat(app.op(expiry).kind()).isEqualTo(ChangeKind.EXPIRY);
        assertThat(app.op(expiry).removes()).contains(grant);
        app.decide(expiry, Decision.APPROVED);
        roundAndDeploy("alice");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.EXPIRED);
        assertThat(main()).doesNotContain("alice until=");
    }

    @Test
    void aRemovalUndecidedByTheApprovalDeadlineIsWithdrawnAndKeepsTheGrant() {
        validated("alice", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        expire();
        var removal = ownerOf("alice");
        // the grant's until (passed) is not the removal's deadline: checked after a while it still waits
        app.clock.advance(Duration.ofHours(1));
        app.approvalCheck.reconcile(new ReconcileApprovals.Command());
        assertThat(app.op(removal).binding()).contains(BindingStatus.APPROVAL_SENT);

        app.clock.advance(ReconcileApprovals.Policy.DEFAULT_DEADLINE);
        assertThat(app.approvalCheck.reconcile(new ReconcileApprovals.Command()).withdrawn()).isEqualTo(1);
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REMOVAL_REJECTED);
        assertThat(app.op(removal).detail()).contains("withdrawn").contains("stays in effect");
        assertThat(main()).contains("alice until=");
        assertThat(expire().due()).isZero();
    }

    @Test
    void aGiveUpNeverAsksEvenWhenTheTargetsRemovalsNeedApproval() {
        validated("alice", null);
        var result = app.removeGrant.remove(RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "alice"));
        assertThat(((RemoveGrant.Result.Accepted) result).removal().status()).contains(BindingStatus.REVOKING);
        roundAndDeploy("alice");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.REVOKED);
        assertThat(app.approvals.formOf(ownerOf("alice"))).isEmpty();
    }

    @Test
    void aGarbledSettingRemovesWithoutApproval() {
        app.targets.withRemovals(FakeTargets.SINGLE, RemovalPolicy.parse("approve-please"));
        validated("alice", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        assertThat(expire().admitted()).isEqualTo(1);
        var removal = ownerOf("alice");
        assertThat(app.op(removal).binding()).contains(BindingStatus.EXPIRING);
        roundAndDeploy("alice");
        assertThat(statusOf("alice")).isEqualTo(BindingStatus.EXPIRED);
        assertThat(app.approvals.formOf(removal)).isEmpty();
    }
}
