package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Issue 18, item 2: renewal is a change; the same expiry again is still ALREADY_IN_EFFECT. */
class GrantRenewalTest {

    private static final String FILE = "grants/db-prod-readonly.txt";

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private SubmitChangeRequest.Result submit(String subject, Instant until) {
        app.config.set(Settings.APPROVE_FIRST, "true");
        return app.submit(subject, new Submission(InMemoryChangeflow.newOperationId(), FakeTargets.SINGLE.value(), subject,
                "for the report", until == null ? null : until.toString()));
    }

    private OperationId accepted(SubmitChangeRequest.Result result) {
        assertThat(result).isInstanceOf(SubmitChangeRequest.Result.Accepted.class);
        return ((SubmitChangeRequest.Result.Accepted) result).request().operationId();
    }

    private OperationId toValidated(OperationId id) {
        app.approveAndRun(id);
        app.deployed(id);
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        return id;
    }

    private String main() {
        return app.gitlab.fileOn(FakeTargets.PROJECT, "main", FILE).orElse("");
    }

    @Test
    void aRenewalWithAnotherExpiryIsApprovedRewritesTheLineAndReusesTheRow() {
        var friday = app.clock.instant().plus(Duration.ofDays(3));
        var grant = toValidated(accepted(submit("alice", friday)));
        var nextMonth = app.clock.instant().plus(Duration.ofDays(30));

        var renewal = accepted(submit("alice", nextMonth));
        assertThat(app.op(renewal).isRenewal()).isTrue();
        assertThat(app.op(renewal).removes()).contains(grant);
        app.queue.runUntilIdle();
        assertThat(app.approvals.formOf(renewal)).as("approved like a new grant").isPresent();
        toValidated(renewal);

        assertThat(main()).contains("alice until=" + nextMonth + " op=" + renewal.value())
                .doesNotContain("until=" + friday);
        assertThat(app.operations.bindingsOf(SubjectId.of("alice"))).singleElement().satisfies(row -> {
            assertThat(row.operationId()).isEqualTo(renewal);
            assertThat(row.status()).isEqualTo(BindingStatus.VALIDATED);
            assertThat(row.expiresAt()).contains(nextMonth);
        });
        assertThat(app.op(grant).binding()).isEmpty();
    }

    @Test
    void theSameExpiryAgainIsAlreadyInEffect() {
        var friday = app.clock.instant().plus(Duration.ofDays(3));
        toValidated(accepted(submit("alice", friday)));
        var again = submit("alice", friday);
        assertThat(again).isInstanceOf(SubmitChangeRequest.Result.AlreadyInEffect.class);
        assertThat(again.code()).isEqualTo("ALREADY_IN_EFFECT");

        toValidated(accepted(submit("bob", null)));
        assertThat(submit("bob", null)).isInstanceOf(SubmitChangeRequest.Result.AlreadyInEffect.class);
        // a limit on a grant for good is another expiry: a renewal
        assertThat(submit("bob", friday)).isInstanceOf(SubmitChangeRequest.Result.Accepted.class);
    }

    @Test
    void aRenewalLosingTheRaceToTheExpiryWaitsForItAndThenApplies() {
        var soon = app.clock.instant().plus(Duration.ofHours(1));
        toValidated(accepted(submit("alice", soon)));
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());

        var later = app.clock.instant().plus(Duration.ofDays(7));
        assertThat(submit("alice", later)).as("the removal owns the row").isInstanceOf(
                SubmitChangeRequest.Result.RequestInProgress.class);
        app.scheduledBatchRounds.run(new io.changeflow.application.batch.RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        var removal = app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().operationId();
        app.deployed(removal);
        assertThat(main()).doesNotContain("alice until=");

        var renewed = toValidated(accepted(submit("alice", later)));
        assertThat(main()).contains("alice until=" + later + " op=" + renewed.value());
    }

    @Test
    void aRenewalApprovedBeforeTheUntilIsNotExpiredAndItsOwnExpiryRemovesTheRenewedLine() {
        var soon = app.clock.instant().plus(Duration.ofHours(1));
        toValidated(accepted(submit("alice", soon)));
        var later = app.clock.instant().plus(Duration.ofDays(2));
        var renewal = toValidated(accepted(submit("alice", later)));
        app.clock.advance(Duration.ofHours(2));
        assertThat(app.expireGrants.run(new ExpireGrants.Command())).as("an approver said yes to the later until")
                .isEqualTo(new ExpireGrants.Result(0, 0, 0, 0));

        app.clock.advance(Duration.ofDays(3));
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).opened()).isEqualTo(1);
        app.scheduledBatchRounds.run(new io.changeflow.application.batch.RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        var removal = app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().operationId();
        assertThat(app.op(removal).removes()).contains(renewal);
        app.deployed(removal);
        assertThat(main()).doesNotContain("alice until=");
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
    }

    /**
     * Issue 36, item 3: this test used to assert that a renewal waiting for its approver kept the earlier grant past
     * its until (the expiry job skipped the row). Now the renewal undecided at that until is withdrawn and the line
     * removed in the same expiry run; a late yes to the withdrawn renewal changes nothing.
     */
    @Test
    void aRenewalUndecidedAtTheUntilIsWithdrawnAndTheGrantsLineIsRemovedByTheSameRun() {
        var soon = app.clock.instant().plus(Duration.ofHours(1));
        var grant = toValidated(accepted(submit("alice", soon)));
        var renewal = accepted(submit("alice", app.clock.instant().plus(Duration.ofDays(30))));
        app.queue.runUntilIdle();
        assertThat(app.op(renewal).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).renewalsEnded()).as("before the until").isZero();

        app.clock.advance(Duration.ofHours(1));
        var run = app.expireGrants.run(new ExpireGrants.Command());

        assertThat(run.renewalsEnded()).isEqualTo(1);
        assertThat(run.opened()).isEqualTo(1);
        assertThat(app.approvals.read(renewal).status()).isEqualTo(
                io.changeflow.application.port.out.Approvals.TicketStatus.WITHDRAWN);
        assertThat(app.op(renewal).binding()).isEmpty();
        assertThat(app.op(renewal).detail()).contains("before the grant it renews expired");
        var removal = app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow();
        assertThat(removal.status()).isEqualTo(BindingStatus.EXPIRING);
        assertThat(app.op(removal.operationId()).removes()).contains(grant);

        app.scheduledBatchRounds.run(new io.changeflow.application.batch.RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(removal.operationId());
        assertThat(main()).doesNotContain("alice until=");

        app.decide(renewal, Decision.APPROVED);
        app.queue.runUntilIdle();
        assertThat(main()).as("a yes after the withdrawal grants nothing").doesNotContain("alice until=");
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
    }

    @Test
    void aRenewalApprovedAtTheApprovalSystemButWhoseAnswerWasLostCountsAtTheUntil() {
        var soon = app.clock.instant().plus(Duration.ofHours(1));
        toValidated(accepted(submit("alice", soon)));
        var later = app.clock.instant().plus(Duration.ofDays(30));
        var renewal = accepted(submit("alice", later));
        app.queue.runUntilIdle();
        app.approvals.decide(renewal, io.changeflow.application.port.out.Approvals.TicketStatus.APPROVED);

        app.clock.advance(Duration.ofHours(2));
        var run = app.expireGrants.run(new ExpireGrants.Command());

        assertThat(run.renewalsEnded()).as("decided by the approver's yes found now").isEqualTo(1);
        assertThat(run.opened()).isZero();
        app.queue.runUntilIdle();
        app.deployed(renewal);
        assertThat(main()).contains("alice until=" + later + " op=" + renewal.value());
    }

    @Test
    void aCreateFirstRenewalUndecidedAtTheUntilIsWithdrawnAndItsMergeRequestClosed() {
        var soon = app.clock.instant().plus(Duration.ofHours(1));
        toValidated(accepted(submit("alice", soon)));
        app.config.set(Settings.APPROVE_FIRST, "false");
        var renewal = accepted(app.submit("alice", new Submission(InMemoryChangeflow.newOperationId(),
                FakeTargets.SINGLE.value(), "alice", "for the report", app.clock.instant().plus(Duration.ofDays(30))
                .toString())));
        app.queue.runUntilIdle();
        var mr = app.op(renewal).mergeRequest().orElseThrow();

        app.clock.advance(Duration.ofHours(2));
        var run = app.expireGrants.run(new ExpireGrants.Command());
        app.queue.runUntilIdle();

        assertThat(run.renewalsEnded()).isEqualTo(1);
        assertThat(run.opened()).isEqualTo(1);
        assertThat(app.gitlab.get(mr.project(), mr.iid()).state()).as("the renewal's merge request")
                .isEqualTo(io.changeflow.domain.mr.MergeRequestState.CLOSED);
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isIn(BindingStatus.EXPIRING, BindingStatus.BATCHED);
    }

    @Test
    void aRenewalRequestedAfterTheUntilNeverKeepsTheLineBeyondTheNextRun() {
        var soon = app.clock.instant().plus(Duration.ofHours(1));
        toValidated(accepted(submit("alice", soon)));
        app.clock.advance(Duration.ofHours(2));
        // the expiry job has not run yet: the row is still VALIDATED, a renewal is accepted
        var renewal = accepted(submit("alice", app.clock.instant().plus(Duration.ofDays(30))));
        app.queue.runUntilIdle();

        var run = app.expireGrants.run(new ExpireGrants.Command());

        assertThat(run.renewalsEnded()).isEqualTo(1);
        assertThat(run.opened()).isEqualTo(1);
        assertThat(app.op(renewal).binding()).isEmpty();
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRING);
    }

    @Test
    void aRejectedRenewalHandsTheRowBackToTheGrantInEffectWhoseExpiryIsStillWatched() {
        var friday = app.clock.instant().plus(Duration.ofDays(3));
        var grant = toValidated(accepted(submit("alice", friday)));
        var renewal = accepted(submit("alice", app.clock.instant().plus(Duration.ofDays(30))));
        app.queue.runUntilIdle();
        app.decide(renewal, Decision.REJECTED);
        app.queue.runUntilIdle();

        assertThat(app.operations.bindingsOf(SubjectId.of("alice"))).singleElement().satisfies(row -> {
            assertThat(row.operationId()).isEqualTo(grant);
            assertThat(row.status()).isEqualTo(BindingStatus.VALIDATED);
            assertThat(row.expiresAt()).contains(friday);
        });
        assertThat(app.op(renewal).binding()).as("the renewal ended without effect").isEmpty();
        assertThat(app.op(renewal).hint()).isEqualTo(io.changeflow.domain.hint.Hint.CAN_REAPPLY);
        assertThat(main()).contains("alice until=" + friday + " op=" + grant.value());

        // the file matches the row: the earlier grant expires on its own date
        app.clock.advance(Duration.ofDays(4));
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).opened()).isEqualTo(1);
        app.scheduledBatchRounds.run(new io.changeflow.application.batch.RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().operationId());
        assertThat(main()).doesNotContain("alice until=");
    }
}
