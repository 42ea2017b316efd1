package io.changeflow.application.submit;

import io.changeflow.application.recovery.PurgeExpiredIdempotencyRecords;
import static io.changeflow.application.fake.InMemoryChangeflow.newOperationId;
import static io.changeflow.application.fake.InMemoryChangeflow.submission;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        assertThat(app.idempotency.completions()).as("stored by the opening write, not a separate one (issue 33)").isZero();
    }

    @Test
    void anOpeningThatFailsStoresNoOutcomeAndReleasesTheKeySoARetryIsAccepted() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = newOperationId();
        app.operations.failNextOpen(new IllegalStateException("the database is gone"));

        assertThatThrownBy(() -> app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")))
                .hasMessageContaining("the database is gone");
        assertThat(app.idempotency.record(id)).isEmpty();
        assertThat(app.operations.find(OperationId.of(id))).isEmpty();

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.Accepted.class);
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
    void aKeyStillBeingValidatedPastTheWaitAnswersInFlight() {
        var id = newOperationId();
        app.idempotency.checkOrInsert(id, fingerprintOf(id), Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("IDEMPOTENCY_IN_FLIGHT");
        // it waited for the original, looking again every 50 ms, for the whole bound of 2 s and no longer
        assertThat(app.pause.total()).isEqualTo(SubmitChangeRequest.DUPLICATE_WAIT);
        assertThat(app.pause.count()).isEqualTo(40);
        assertThat(app.operations.find(OperationId.of(id))).isEmpty();
    }

    @Test
    void aConcurrentDuplicateWaitsForTheOriginalAndAnswersWithItsRequest() throws Exception {
        var id = newOperationId();
        var claimed = new CountDownLatch(1);
        var originalMayGoOn = new CountDownLatch(1);
        app.idempotency.afterFreshClaim(() -> {
            app.idempotency.afterFreshClaim(() -> { });
            claimed.countDown();
            awaitQuietly(originalMayGoOn);
        });
        var original = CompletableFuture.supplyAsync(() -> app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")));
        assertThat(claimed.await(10, TimeUnit.SECONDS)).isTrue();
        // while the duplicate waits, the original opens the request and stores its answer
        app.pause.meanwhile(pause -> {
            originalMayGoOn.countDown();
            original.join();
        });

        var duplicate = app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        var first = original.get(10, TimeUnit.SECONDS);
        assertThat(first).isInstanceOf(Result.Accepted.class);
        assertThat(duplicate).isInstanceOfSatisfying(Result.DuplicateSubmit.class, d -> {
            assertThat(d.request().operationId().value()).isEqualTo(id);
            assertThat(d.request().status()).isEqualTo(((Result.Accepted) first).request().status());
        });
        assertThat(app.pause.count()).isEqualTo(1);
        assertThat(app.metrics.count("submitted", FakeTargets.SINGLE.value())).isEqualTo(1);
        assertThat(app.operations.all()).hasSize(1);
    }

    @Test
    void aDuplicateOfARefusedOriginalIsValidatedItselfAndGetsTheSameRefusal() {
        var id = newOperationId();
        app.config.set(Settings.ACCESS_MODE, "CLOSED");
        app.idempotency.checkOrInsert(id, fingerprintOf(id), Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        // the original is refused (SERVICE_CLOSED) and releases the key while the duplicate waits
        app.pause.meanwhile(pause -> app.idempotency.release(id));

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.ServiceClosed.class);
        assertThat(app.pause.count()).isEqualTo(1);
        assertThat(app.idempotency.record(id)).isEmpty();
    }

    @Test
    void anInterruptedWaitAnswersInFlightAndKeepsTheInterrupt() {
        var id = newOperationId();
        app.idempotency.checkOrInsert(id, fingerprintOf(id), Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        app.pause.meanwhile(pause -> {
            throw new InterruptedException("shutting down");
        });

        try {
            assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOf(Result.InFlight.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(app.pause.count()).isEqualTo(1);
    }

    @Test
    void aDuplicateOfAnotherPayloadIsRefusedAtOnceWithoutWaiting() {
        var id = newOperationId();
        app.idempotency.checkOrInsert(id, fingerprintOf(id), Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);

        var reused = app.submit("alice", new Submission(id, FakeTargets.SINGLE.value(), "alice", "another reason", null));

        assertThat(reused).isInstanceOf(Result.KeyReused.class);
        assertThat(app.pause.count()).isZero();
    }

    @Test
    void aKeyWhoseValidatorDiedIsTakenOverByARetryAfterTheLease() {
        var id = newOperationId();
        // the instance that claimed the key died before it opened the operation or stored an answer
        app.idempotency.checkOrInsert(id, fingerprintOf(id), Duration.ofDays(1), SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("IDEMPOTENCY_IN_FLIGHT");

        app.clock.advance(SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER);
        var retry = app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));

        assertThat(retry.code()).isEqualTo("ACCEPTED");
        assertThat(app.idempotency.record(id).orElseThrow().outcome()).contains("ACCEPTED");
        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice")).code()).isEqualTo("DUPLICATE_SUBMIT");
    }

    @Test
    void aConflictWhoseWinnerVanishedIsClaimedAgainAfterOnePause() {
        app.idempotency.answerRetryLaterOnce();

        assertThat(app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice")))
                .isInstanceOf(Result.Accepted.class);
        assertThat(app.pause.count()).isEqualTo(1);
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
        var first = app.approvedAndRun("alice");
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
    void aRetryAfterTheKeyExpiredWhileAccessIsClosedAnswersAsADuplicate() {
        var id = newOperationId();
        app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"));
        app.config.set(Settings.ACCESS_MODE, "CLOSED");
        app.clock.advance(SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE.plusMinutes(1));
        app.purge.purge(PurgeExpiredIdempotencyRecords.Command.defaults());
        var writes = app.operations.writes();

        assertThat(app.submit("alice", submission(id, FakeTargets.SINGLE, "alice"))).isInstanceOfSatisfying(
                Result.DuplicateSubmit.class, d -> assertThat(d.request().operationId().value()).isEqualTo(id));
        assertThat(app.submit("alice", new Submission(id, FakeTargets.SINGLE.value(), "alice", "changed", null)))
                .isInstanceOf(Result.KeyReused.class);
        assertThat(app.operations.writes()).isEqualTo(writes);
        // a new request while closed is still refused
        assertThat(app.submit("alice", submission(newOperationId(), FakeTargets.SINGLE, "alice")))
                .isInstanceOf(Result.ServiceClosed.class);
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

    private String fingerprintOf(String id) {
        return ((Submission.Validation.Valid) submission(id, FakeTargets.SINGLE, "alice")
                .validate("alice", app.clock.instant())).request().fingerprint();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the original go on");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
