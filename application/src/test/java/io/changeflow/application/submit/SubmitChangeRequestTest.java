package io.changeflow.application.submit;

import io.changeflow.application.recovery.PurgeExpiredIdempotencyRecords;
import static io.changeflow.application.fake.InMemoryChangeflow.newOperationId;
import static io.changeflow.application.fake.InMemoryChangeflow.submission;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest.Result;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SubmitChangeRequestTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void acceptsAValidRequestAndQueuesItsFirstStepWithoutRunningIt() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = newOperationId();

        var result = app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        assertThat(result).isInstanceOfSatisfying(Result.Accepted.class, accepted -> {
            assertThat(accepted.code()).isEqualTo("ACCEPTED");
            assertThat(accepted.request().operationId().value()).isEqualTo(id);
            assertThat(accepted.request().status()).contains(BindingStatus.APPROVAL_SENDING);
        });
        assertThat(app.queue.pending(StepKind.SUBMIT_APPROVAL, id)).isPresent();
        assertThat(app.approvals.calls()).isZero();
        assertThat(app.metrics.count("submitted", FakeTargets.SINGLE.value())).isEqualTo(1);
        assertThat(app.idempotency.record(id).orElseThrow().outcome()).contains("ACCEPTED");
    }

    @Test
    void theOldOrderStartsWithCreatingTheMergeRequest() {
        var id = newOperationId();

        app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        assertThat(app.op(OperationId.of(id)).binding()).contains(BindingStatus.MR_CREATING);
        assertThat(app.queue.pending(StepKind.CREATE, id)).isPresent();
    }

    @Test
    void reportsEveryFieldErrorAtOnceAndKeepsNothing() {
        var result = app.submit("alice", new Submission("not-a-uuid", "", "Bad Subject!", " ", "yesterday"));

        assertThat(result).isInstanceOfSatisfying(Result.Invalid.class, invalid -> {
            assertThat(invalid.code()).isEqualTo("INVALID_REQUEST");
            assertThat(invalid.fieldErrors()).extracting(e -> e.field())
                    .containsExactlyInAnyOrder("operationId", "targetKey", "subjectId", "reason", "expiresAt");
        });
        assertThat(app.idempotency.size()).isZero();
        assertThat(app.operations.writes()).isZero();
    }

    @Test
    void anUnknownTargetIsAFieldErrorAndReleasesTheKey() {
        var id = newOperationId();

        var result = app.submit("alice", new Submission(id, "no-such-target", null, "reason", null));

        assertThat(result).isInstanceOfSatisfying(Result.Invalid.class,
                invalid -> assertThat(invalid.fieldErrors()).extracting(e -> e.code()).containsExactly("UNKNOWN"));
        assertThat(app.idempotency.record(id)).isEmpty();
    }

    @Test
    void closedServiceRefusesAndReleasesTheKeySoARetryIsValidatedAgain() {
        app.config.set(Settings.ACCESS_MODE, "CLOSED");
        var id = newOperationId();

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("SERVICE_CLOSED");
        assertThat(app.idempotency.record(id)).isEmpty();

        app.config.set(Settings.ACCESS_MODE, "OPEN");
        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.Accepted.class);
    }

    @Test
    void aTypoInTheAccessModeClosesTheService() {
        app.config.set(Settings.ACCESS_MODE, "OPNE");

        assertThat(app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice")))
                .isInstanceOf(Result.ServiceClosed.class);
    }

    @Test
    void duplicateSubmitReplaysTheOriginalAnswerWithoutASecondRequest() {
        var id = newOperationId();
        app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));
        var writes = app.operations.writes();

        var again = app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        assertThat(again).isInstanceOfSatisfying(Result.DuplicateSubmit.class, duplicate -> {
            assertThat(duplicate.code()).isEqualTo("DUPLICATE_SUBMIT");
            assertThat(duplicate.request().operationId().value()).isEqualTo(id);
        });
        assertThat(app.operations.writes()).isEqualTo(writes);
        assertThat(app.metrics.count("submitted", FakeTargets.SINGLE.value())).isEqualTo(1);
    }

    @Test
    void duplicateIsReplayedEvenAfterTheServiceClosed() {
        var id = newOperationId();
        app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));
        app.config.set(Settings.ACCESS_MODE, "CLOSED");

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.DuplicateSubmit.class);
    }

    @Test
    void reusingTheKeyForAnotherPayloadIsRefused() {
        var id = newOperationId();
        app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        var reused = app.submit("alice", new Submission(id, FakeTargets.SINGLE.value(), "alice", "another reason", null));

        assertThat(reused.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(app.idempotency.record(id)).isPresent();
    }

    @Test
    void aKeyStillBeingValidatedAnswersInFlight() {
        var id = newOperationId();
        var fingerprint = ((Submission.Validation.Valid) submission(id, FakeTargets.SINGLE, "alice")
                .validate("alice", app.clock.instant())).request().fingerprint();
        app.idempotency.checkOrInsert(id, fingerprint, Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("IDEMPOTENCY_IN_FLIGHT");
    }

    @Test
    void aKeyWhoseValidatorDiedIsTakenOverByARetryAfterTheLease() {
        var id = newOperationId();
        var fingerprint = ((Submission.Validation.Valid) submission(id, FakeTargets.SINGLE, "alice")
                .validate("alice", app.clock.instant())).request().fingerprint();
        // the instance that claimed the key died before it opened the operation or stored an answer
        app.idempotency.checkOrInsert(id, fingerprint, Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("IDEMPOTENCY_IN_FLIGHT");

        app.clock.advance(SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        var retry = app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        assertThat(retry.code()).isEqualTo("ACCEPTED");
        assertThat(app.idempotency.record(id).orElseThrow().outcome()).contains("ACCEPTED");
        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("DUPLICATE_SUBMIT");
    }

    @Test
    void aConflictWhoseWinnerVanishedAnswersInFlight() {
        app.idempotency.answerRetryLaterOnce();

        assertThat(app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice")))
                .isInstanceOf(Result.InFlight.class);
    }

    @Test
    void anActiveRequestForTheSameSubjectAndTargetIsInProgress() {
        app.submitAccepted(FakeTargets.SINGLE, "alice");
        var id = newOperationId();

        var second = app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        assertThat(second.code()).isEqualTo("REQUEST_IN_PROGRESS");
        assertThat(app.idempotency.record(id)).isEmpty();
        assertThat(app.operations.find(OperationId.of(id))).isEmpty();
    }

    @Test
    void aRelationshipAlreadyInEffectAnswersAlreadyInEffect() {
        var first = app.submitAccepted(FakeTargets.SINGLE, "alice");
        app.queue.runUntilIdle();
        app.decide(first, Decision.APPROVED);
        app.queue.runUntilIdle();
        app.deployed(first);

        assertThat(app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice")).code())
                .isEqualTo("ALREADY_IN_EFFECT");
    }

    @Test
    void fullBacklogTurnsIntoAVisibleCountedFailureInsteadOfProcessingForever() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        app.queue.capacity(0);

        var result = app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice"));

        assertThat(result).isInstanceOfSatisfying(Result.Accepted.class, accepted -> {
            assertThat(accepted.request().status()).contains(BindingStatus.APPROVAL_FAILED);
            assertThat(accepted.request().step()).isEqualTo(StepStatus.APPROVAL_SUBMIT_FAILED);
            assertThat(accepted.request().hint()).isEqualTo(Hint.KEEP_WAITING);
        });
        assertThat(app.queue.pending()).isEmpty();
        assertThat(app.metrics.count("failed", StepStatus.APPROVAL_SUBMIT_FAILED.name())).isEqualTo(1);
    }

    @Test
    void fullBacklogInTheOldOrderEndsCreateFailed() {
        app.queue.capacity(0);

        var result = (Result.Accepted) app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice"));

        assertThat(result.request().status()).contains(BindingStatus.CREATE_FAILED);
        assertThat(result.request().step()).isEqualTo(StepStatus.CREATE_FAILED);
    }

    @Test
    void aRetryAfterTheKeyExpiredIsStillRecognisedByItsOperation() {
        var id = newOperationId();
        app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));
        app.clock.advance(SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE.plusMinutes(1));
        app.purge.purge(PurgeExpiredIdempotencyRecords.Command.defaults());

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.DuplicateSubmit.class);
        assertThat(app.submit("alice", new Submission(id, FakeTargets.SINGLE.value(), "alice", "changed", null)))
                .isInstanceOf(Result.KeyReused.class);
    }

    @Test
    void aFailingMetricNeverChangesTheAnswer() {
        app.metrics.failWith(new IllegalStateException("metrics backend down"));

        assertThat(app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice")))
                .isInstanceOf(Result.Accepted.class);
    }

    @Test
    void aDatabaseFailureReleasesTheKeyAndTheRetryFindsTheStoredRequest() {
        var id = newOperationId();
        app.queue.capacity(0);
        app.operations.failNextWrite(new IllegalStateException("database down"));

        assertThatThrownBy(() -> app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")))
                .isInstanceOf(IllegalStateException.class);
        assertThat(app.idempotency.record(id)).isEmpty();

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.DuplicateSubmit.class);
    }
}
