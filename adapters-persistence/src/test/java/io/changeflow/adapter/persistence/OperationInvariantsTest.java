package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
import static io.changeflow.adapter.persistence.Fixtures.rounds;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** I5, I6 and "flips exactly once" on the real database, with many threads on separate connections. */
class OperationInvariantsTest {

    private static final int RACERS = 16;

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(40);

    @RegisterExtension
    static final RacerThreads pool = RacerThreads.of(RACERS);

    @Test
    void concurrentReapplicationsLetExactlyOneWinAndRecordEveryAttempt() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        for (int round = 0; round < rounds(); round++) {
            var subject = "sub" + round;
            var target = Fixtures.unique("t");
            var old = Fixtures.rejected(operations, subject, target);
            var historyBefore = dsl.fetchCount(BINDING_HISTORY, BINDING_HISTORY.TARGET_KEY.eq(target));
            var racers = new ArrayList<Callable<OpenResult>>();
            for (int i = 0; i < RACERS; i++) {
                racers.add(() -> operations.open(Fixtures.request(subject, target), StepOrder.APPROVE_FIRST,
                        WorkflowEvent.SUBMITTED_APPROVE_FIRST, "re-applied"));
            }
            var outcomes = race(pool, racers);

            var winner = Fixtures.onlyOpened(outcomes);
            var row = operations.binding(winner.subject(), winner.target()).orElseThrow();
            assertThat(row.operationId()).isEqualTo(winner.id());
            assertThat(row.status()).isEqualTo(BindingStatus.APPROVAL_SENDING);
            assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).isEqualTo(1);
            assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).as("losers wrote nothing").isEqualTo(2);
            assertThat(dsl.fetchCount(BINDING_HISTORY, BINDING_HISTORY.TARGET_KEY.eq(target)) - historyBefore)
                    .as("one history row per attempt").isEqualTo(RACERS);
            assertThat(dsl.fetchCount(BINDING_HISTORY, BINDING_HISTORY.TARGET_KEY.eq(target)
                    .and(BINDING_HISTORY.OUTCOME.eq("REAPPLIED")))).isEqualTo(1);
            assertThat(operations.find(old.id()).orElseThrow().binding()).as("the old owner is detached").isEmpty();
        }
    }

    @Test
    void concurrentFirstApplicationsLetExactlyOneWin() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        for (int round = 0; round < rounds(); round++) {
            var target = Fixtures.unique("first");
            var racers = new ArrayList<Callable<OpenResult>>();
            for (int i = 0; i < RACERS; i++) {
                racers.add(() -> operations.open(Fixtures.request("bob", target), StepOrder.CREATE_FIRST,
                        WorkflowEvent.SUBMITTED_CREATE_FIRST, "first"));
            }
            Fixtures.onlyOpened(race(pool, racers));
            assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).isEqualTo(1);
            assertThat(dsl.fetchCount(BINDING_HISTORY, BINDING_HISTORY.TARGET_KEY.eq(target))).isEqualTo(RACERS);
        }
    }

    @Test
    void anActiveOrFailedRowKeepsItsOwner() {
        var operations = persistence.operations();
        var target = Fixtures.unique("keep");
        var failed = Fixtures.walked(operations, Fixtures.request("carol", target), WorkflowEvent.APPROVAL_SUBMIT_FAILED);
        assertThat(failed.binding()).contains(BindingStatus.APPROVAL_FAILED);
        var result = operations.open(Fixtures.request("carol", target), StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "again");
        assertThat(result).isInstanceOfSatisfying(OpenResult.Blocked.class,
                b -> assertThat(b.existing().operationId()).isEqualTo(failed.id()));
        assertThat(operations.binding(failed.subject(), failed.target()).orElseThrow().operationId()).isEqualTo(failed.id());
        assertThatThrownBy(() -> operations.open(Fixtures.request("carol", Fixtures.unique("x")), StepOrder.APPROVE_FIRST,
                WorkflowEvent.DEPLOYED, "not a submission")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStaleWriteFailsAndTheLoserWritesNothing() {
        var operations = persistence.operations();
        var op = Fixtures.walked(operations, Fixtures.request("dave", Fixtures.unique("stale")), WorkflowEvent.APPROVAL_SUBMITTED);
        var read = op.version();
        operations.apply(op.id(), read, WorkflowEvent.APPROVAL_GRANTED_MERGE, StepNote.system("granted"));
        assertThatThrownBy(() -> operations.apply(op.id(), read, WorkflowEvent.APPROVAL_REJECTED, StepNote.system("late")))
                .isInstanceOf(PreemptedException.class);
        assertThat(operations.find(op.id()).orElseThrow().binding()).contains(BindingStatus.MERGING);
    }

    @Test
    void aRoundTripBetweenReadAndWriteIsCaughtByTheVersion() {
        var operations = persistence.operations();
        var op = Fixtures.walked(operations, Fixtures.request("erin", Fixtures.unique("aba")), WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.HANDLE_STARTED);
        var readState = op.state();
        var readVersion = op.version();

        // A -> B -> A elsewhere: approved, then handling restarted
        var b = operations.apply(op.id(), readVersion, WorkflowEvent.BOTS_APPROVED, StepNote.system("approved"));
        var a = operations.apply(op.id(), b.version(), WorkflowEvent.HANDLE_STARTED, StepNote.system("re-triggered"));
        assertThat(a.state()).as("same state as read").isEqualTo(readState);

        assertThatThrownBy(() -> operations.apply(op.id(), readVersion, WorkflowEvent.BOTS_APPROVED, StepNote.system("stale")))
                .isInstanceOf(PreemptedException.class);
        assertThat(operations.find(op.id()).orElseThrow().version()).isEqualTo(readVersion + 2);
    }

    @Test
    void concurrentWritersFromOneVersionLetExactlyOneWin() {
        var operations = persistence.operations();
        for (int round = 0; round < rounds(); round++) {
            var op = Fixtures.walked(operations, Fixtures.request("frank", Fixtures.unique("v")), WorkflowEvent.APPROVAL_SUBMITTED);
            var racers = new ArrayList<Callable<Operation>>();
            for (int i = 0; i < RACERS; i++) {
                var event = i % 2 == 0 ? WorkflowEvent.APPROVAL_GRANTED_MERGE : WorkflowEvent.APPROVAL_REJECTED;
                racers.add(() -> operations.apply(op.id(), op.version(), event, StepNote.system("racer")));
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).filteredOn(o -> !o.failed()).hasSize(1);
            assertThat(outcomes).filteredOn(Fixtures.Outcome::failed)
                    .allMatch(o -> o.failure() instanceof PreemptedException);
            assertThat(operations.history(op.id())).hasSize(3);
        }
    }

    @Test
    void deployCallbackAndReconciliationRacingFlipExactlyOnce() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        for (int round = 0; round < rounds(); round++) {
            var op = Fixtures.merged(operations, "gina", Fixtures.unique("flip"));
            var racers = new ArrayList<Callable<Optional<Operation>>>();
            for (int i = 0; i < RACERS; i++) {
                var actor = i % 2 == 0 ? "deploy-callback" : "reconciliation";
                racers.add(() -> operations.applyIfAllowed(op.id(), WorkflowEvent.DEPLOYED, new StepNote("in effect", actor)));
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            assertThat(outcomes).filteredOn(o -> o.value().isPresent()).hasSize(1);
            var after = operations.find(op.id()).orElseThrow();
            assertThat(after.binding()).contains(BindingStatus.VALIDATED);
            assertThat(after.step()).isEqualTo(StepStatus.CALLED_BACK);
            assertThat(dsl.fetchCount(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID.eq(op.id().value())
                    .and(OPERATION_HISTORY.EVENT.eq(WorkflowEvent.DEPLOYED.name())))).isEqualTo(1);
        }
    }

    @Test
    void applyIfAllowedIgnoresMissingAndNotAllowed() {
        var operations = persistence.operations();
        assertThat(operations.applyIfAllowed(Fixtures.newId(), WorkflowEvent.DEPLOYED, StepNote.system("x"))).isEmpty();
        var op = Fixtures.walked(operations, Fixtures.request("hank", Fixtures.unique("na")), WorkflowEvent.APPROVAL_SUBMITTED);
        assertThat(operations.applyIfAllowed(op.id(), WorkflowEvent.DEPLOYED, StepNote.system("x"))).isEmpty();
        assertThat(operations.find(op.id()).orElseThrow().version()).isEqualTo(op.version());
    }
}
