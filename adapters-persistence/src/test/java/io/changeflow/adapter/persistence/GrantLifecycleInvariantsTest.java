package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
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
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 18 on the real database: the removal of a grant in effect takes the one row of the relationship over in
 * place (I5), pinned to the exact state read (I6); of racing removals exactly one wins and the others write nothing;
 * the history of every operation and of the row is kept; the expiry query reads the database clock.
 */
class GrantLifecycleInvariantsTest {

    private static final int RACERS = 12;
    private static final WorkflowEvent[] TO_VALIDATED = {WorkflowEvent.APPROVAL_SUBMITTED,
            WorkflowEvent.APPROVAL_GRANTED_CREATE, WorkflowEvent.CREATE_STARTED, WorkflowEvent.MR_PIPELINE_PASSED,
            WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED, WorkflowEvent.DEPLOYED};

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(30);

    @RegisterExtension
    static final RacerThreads pool = RacerThreads.of(RACERS);

    private static ChangeRequest until(String subject, String target, Instant expiresAt) {
        return new ChangeRequest(Fixtures.newId(), "alice", TargetKey.of(target), SubjectId.of(subject), "for a test",
                Optional.of(expiresAt.truncatedTo(ChronoUnit.MILLIS)));
    }

    private static Operation validated(ChangeRequest request) {
        var op = Fixtures.walked(persistence.operations(), request, TO_VALIDATED);
        assertThat(op.binding()).contains(BindingStatus.VALIDATED);
        return op;
    }

    private static Operation apply(Operation op, WorkflowEvent... events) {
        var operations = persistence.operations();
        for (var event : events) {
            op = operations.apply(op.id(), op.version(), event, StepNote.system(event.name()));
        }
        return op;
    }

    @Test
    void theExpiryQueryReadsTheDatabaseClockAndTheGrace() {
        var operations = persistence.operations();
        var target = Fixtures.unique("expiry");
        var past = validated(until("anna", target, Instant.now().minus(Duration.ofHours(1))));
        var soon = validated(until("bert", target, Instant.now().plus(Duration.ofMinutes(30))));
        validated(new ChangeRequest(Fixtures.newId(), "alice", TargetKey.of(target), SubjectId.of("cleo"), "forever",
                Optional.empty()));
        Fixtures.walked(operations, until("dora", target, Instant.now().minus(Duration.ofHours(2))),
                WorkflowEvent.APPROVAL_SUBMITTED);

        assertThat(operations.dueForExpiry(Duration.ZERO, 1000)).filteredOn(b -> b.target().value().equals(target))
                .extracting(b -> b.operationId()).containsExactly(past.id());
        assertThat(operations.dueForExpiry(Duration.ofHours(1), 1000)).filteredOn(b -> b.target().value().equals(target))
                .extracting(b -> b.operationId()).containsExactly(past.id(), soon.id());
    }

    @Test
    void theUndecidedRenewalsPastTheRenewedGrantsUntilAreFoundByTheDatabaseClock() {
        var operations = persistence.operations();
        var target = Fixtures.unique("renewed");
        var waiting = Set.of(BindingStatus.APPROVAL_SENDING, BindingStatus.APPROVAL_SENT);
        validated(until("kai", target, Instant.now().minus(Duration.ofMinutes(5))));
        var pastRenewal = ((OpenResult.Opened) operations.open(until("kai", target, Instant.now().plus(Duration.ofDays(30))),
                StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "renewed late")).operation();
        validated(until("lea", target, Instant.now().plus(Duration.ofHours(1))));
        var laterRenewal = ((OpenResult.Opened) operations.open(until("lea", target, Instant.now().plus(Duration.ofDays(30))),
                StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "renewed early")).operation();
        var firstGrant = Fixtures.walked(operations, until("max", target, Instant.now().minus(Duration.ofHours(2))),
                WorkflowEvent.APPROVAL_SUBMITTED);

        assertThat(operations.renewalsPastRenewedExpiry(waiting, Duration.ZERO, 1000))
                .filteredOn(op -> op.target().value().equals(target)).extracting(Operation::id)
                .as("a first grant is no renewal; a renewal of a grant still in effect waits").containsExactly(pastRenewal.id());
        assertThat(operations.renewalsPastRenewedExpiry(waiting, Duration.ofHours(2), 1000))
                .filteredOn(op -> op.target().value().equals(target)).extracting(Operation::id)
                .containsExactly(pastRenewal.id(), laterRenewal.id()).doesNotContain(firstGrant.id());
        assertThat(operations.renewalsPastRenewedExpiry(Set.of(BindingStatus.MR_CREATED), Duration.ofHours(2), 1000))
                .filteredOn(op -> op.target().value().equals(target)).isEmpty();
    }

    @Test
    void racingRemovalsOfOneGrantLetExactlyOneWinAndTheOthersWriteNothing() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        for (int round = 0; round < Math.min(Fixtures.rounds(), 50); round++) {
            var target = Fixtures.unique("race");
            var grant = validated(until("erik", target, Instant.now().minus(Duration.ofMinutes(1))));
            var read = operations.binding(grant.subject(), grant.target()).orElseThrow();
            var operationsBefore = dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target));
            var racers = new ArrayList<Callable<OpenResult>>();
            for (int i = 0; i < RACERS; i++) {
                var event = i % 2 == 0 ? WorkflowEvent.EXPIRY_DUE : WorkflowEvent.REVOCATION_REQUESTED;
                racers.add(() -> operations.openRemoval(read, Fixtures.newId(), event, "system", "removed"));
            }
            var outcomes = race(pool, racers);

            var winners = outcomes.stream().filter(o -> o.value() instanceof OpenResult.Opened).toList();
            assertThat(winners).hasSize(1);
            assertThat(outcomes).allMatch(o -> o.value() instanceof OpenResult.Opened || o.failure() instanceof PreemptedException);
            var removal = ((OpenResult.Opened) winners.getFirst().value()).operation();
            assertThat(removal.kind()).isIn(ChangeKind.EXPIRY, ChangeKind.REVOCATION);
            assertThat(removal.removes()).contains(grant.id());
            assertThat(removal.expiresAt()).isEqualTo(grant.expiresAt());
            var row = operations.binding(grant.subject(), grant.target()).orElseThrow();
            assertThat(row.operationId()).isEqualTo(removal.id());
            assertThat(row.status()).isIn(BindingStatus.EXPIRING, BindingStatus.REVOKING);
            assertThat(row.version()).isEqualTo(read.version() + 1);
            assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).as("one row per relationship").isEqualTo(1);
            assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target)) - operationsBefore)
                    .as("the losers inserted no operation").isEqualTo(1);
            assertThat(operations.find(grant.id()).orElseThrow().binding()).as("the grant is detached").isEmpty();
            assertThat(operations.find(grant.id()).orElseThrow().version()).isEqualTo(grant.version() + 1);
        }
    }

    @Test
    void aRemovalEndsExpiredAndTheRowIsReusedByTheNextGrantWithEveryHistoryKept() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        var target = Fixtures.unique("life");
        var grant = validated(until("finn", target, Instant.now().minus(Duration.ofMinutes(1))));
        var read = operations.binding(grant.subject(), grant.target()).orElseThrow();
        var removal = ((OpenResult.Opened) operations.openRemoval(read, Fixtures.newId(), WorkflowEvent.EXPIRY_DUE, "system",
                "expired")).operation();
        assertThat(removal.binding()).contains(BindingStatus.EXPIRING);
        assertThat(removal.requester()).isEqualTo("system");
        assertThat(operations.stuck(BindingStatus.REMOVAL_DUE, Duration.ZERO, 1000)).extracting(Operation::id)
                .doesNotContain(grant.id());

        // a removal is never closed by an operator (its line would stay while the row says it ended)
        assertThatThrownBy(() -> apply(removal, WorkflowEvent.CLOSED_BY_OPERATOR))
                .isInstanceOf(io.changeflow.domain.state.IllegalTransitionException.class);
        var ended = apply(removal, WorkflowEvent.BATCH_CLAIMED, WorkflowEvent.BATCH_MERGED, WorkflowEvent.DEPLOYED);
        assertThat(ended.binding()).contains(BindingStatus.EXPIRED);
        assertThat(operations.binding(grant.subject(), grant.target()).orElseThrow().status()).isEqualTo(BindingStatus.EXPIRED);
        assertThat(operations.dueForExpiry(Duration.ofDays(1), 1000)).extracting(b -> b.target().value()).doesNotContain(target);

        var again = Fixtures.opened(operations, until("finn", target, Instant.now().plus(Duration.ofDays(2))));
        var row = operations.binding(grant.subject(), grant.target()).orElseThrow();
        assertThat(row.operationId()).isEqualTo(again.id());
        assertThat(row.status()).isEqualTo(BindingStatus.APPROVAL_SENDING);
        assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).isEqualTo(1);
        assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).isEqualTo(3);
        // no lost history: the grant's, the removal's and the new request's operation history, and the row's
        assertThat(operations.history(grant.id())).extracting(h -> h.event()).endsWith(WorkflowEvent.DEPLOYED,
                WorkflowEvent.EXPIRY_DUE);
        assertThat(operations.history(removal.id())).extracting(h -> h.event()).containsExactly(WorkflowEvent.EXPIRY_DUE,
                WorkflowEvent.BATCH_CLAIMED, WorkflowEvent.BATCH_MERGED, WorkflowEvent.DEPLOYED,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST);
        assertThat(dsl.select(BINDING_HISTORY.OUTCOME, BINDING_HISTORY.TO_STATUS).from(BINDING_HISTORY)
                .where(BINDING_HISTORY.TARGET_KEY.eq(target)).orderBy(BINDING_HISTORY.ID).fetch()
                .map(r -> r.value1() + ":" + r.value2()))
                .contains("REAPPLIED:EXPIRING", "CHANGED:EXPIRED", "REAPPLIED:APPROVAL_SENDING");
        assertThat(dsl.fetchCount(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID.eq(removal.id().value()))).isEqualTo(5);
    }

    @Test
    void aStaleReadOrARowNotInEffectIsNeverTakenOver() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        var target = Fixtures.unique("stale");
        var grant = validated(until("gina", target, Instant.now().minus(Duration.ofMinutes(1))));
        var read = operations.binding(grant.subject(), grant.target()).orElseThrow();
        ((OpenResult.Opened) operations.openRemoval(read, Fixtures.newId(), WorkflowEvent.REVOCATION_REQUESTED, "gina",
                "given up")).operation();
        var operationsBefore = dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target));
        assertThatThrownBy(() -> operations.openRemoval(read, Fixtures.newId(), WorkflowEvent.EXPIRY_DUE, "system", "expired"))
                .isInstanceOf(PreemptedException.class);
        assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).isEqualTo(operationsBefore);

        var inProgress = Fixtures.walked(operations, until("hugo", target, Instant.now().minus(Duration.ofMinutes(1))),
                WorkflowEvent.APPROVAL_SUBMITTED);
        var row = operations.binding(inProgress.subject(), inProgress.target()).orElseThrow();
        assertThat(operations.openRemoval(row, Fixtures.newId(), WorkflowEvent.EXPIRY_DUE, "system", "expired"))
                .isInstanceOfSatisfying(OpenResult.Blocked.class, b -> assertThat(b.existing().status())
                        .isEqualTo(BindingStatus.APPROVAL_SENT));
        assertThat(operations.binding(inProgress.subject(), inProgress.target()).orElseThrow().operationId())
                .isEqualTo(inProgress.id());
        assertThatThrownBy(() -> operations.openRemoval(row, Fixtures.newId(), WorkflowEvent.SUBMITTED_APPROVE_FIRST,
                "system", "not a removal")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> operations.open(Fixtures.request("ivy", target), StepOrder.APPROVE_FIRST,
                WorkflowEvent.EXPIRY_DUE, "not a submission")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRenewalResetsTheRowInPlaceAndTheSameExpiryIsBlockedWithoutAWrite() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        var target = Fixtures.unique("renew");
        var friday = Instant.now().plus(Duration.ofDays(3));
        var grant = validated(until("jan", target, friday));
        var read = operations.binding(grant.subject(), grant.target()).orElseThrow();

        var same = operations.open(until("jan", target, friday), StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "again");
        assertThat(same).isInstanceOfSatisfying(OpenResult.Blocked.class,
                b -> assertThat(b.existing().status()).isEqualTo(BindingStatus.VALIDATED));
        assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).as("nothing inserted").isEqualTo(1);
        assertThat(operations.binding(grant.subject(), grant.target()).orElseThrow()).isEqualTo(read);

        var nextMonth = Instant.now().plus(Duration.ofDays(30)).truncatedTo(ChronoUnit.MILLIS);
        var renewal = ((OpenResult.Opened) operations.open(until("jan", target, nextMonth), StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "renewed")).operation();
        assertThat(renewal.isRenewal()).isTrue();
        assertThat(renewal.removes()).contains(grant.id());
        var row = operations.binding(grant.subject(), grant.target()).orElseThrow();
        assertThat(row.operationId()).isEqualTo(renewal.id());
        assertThat(row.status()).isEqualTo(BindingStatus.APPROVAL_SENDING);
        assertThat(row.expiresAt()).contains(nextMonth);
        assertThat(row.version()).isEqualTo(read.version() + 1);
        assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).isEqualTo(1);
        assertThat(dsl.select(BINDING_HISTORY.OUTCOME).from(BINDING_HISTORY).where(BINDING_HISTORY.TARGET_KEY.eq(target))
                .orderBy(BINDING_HISTORY.ID).fetch(BINDING_HISTORY.OUTCOME)).endsWith("BLOCKED", "REAPPLIED");
    }

    @Test
    void aRenewalRacingTheExpiryRemovalEndsWithExactlyOneOwner() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        for (int round = 0; round < Math.min(Fixtures.rounds(), 50); round++) {
            var target = Fixtures.unique("renew-race");
            var grant = validated(until("kai", target, Instant.now().minus(Duration.ofMinutes(1))));
            var read = operations.binding(grant.subject(), grant.target()).orElseThrow();
            var racers = new ArrayList<Callable<OpenResult>>();
            for (int i = 0; i < RACERS; i++) {
                var days = i + 1;
                racers.add(i % 2 == 0
                        ? () -> operations.openRemoval(read, Fixtures.newId(), WorkflowEvent.EXPIRY_DUE, "system", "expired")
                        : () -> operations.open(until("kai", target, Instant.now().plus(Duration.ofDays(days))),
                                StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "renewed"));
            }
            var outcomes = race(pool, racers);
            var winner = Fixtures.onlyOpened(outcomes);
            var row = operations.binding(grant.subject(), grant.target()).orElseThrow();
            assertThat(row.operationId()).isEqualTo(winner.id());
            assertThat(row.status()).isEqualTo(winner.kind() == ChangeKind.EXPIRY ? BindingStatus.EXPIRING
                    : BindingStatus.APPROVAL_SENDING);
            assertThat(winner.removes()).contains(grant.id());
            assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).isEqualTo(1);
            assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).as("only the winner inserted").isEqualTo(2);
        }
    }

    @Test
    void aRenewalThatEndsWithoutEffectHandsTheRowBackToTheGrantInEffect() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        for (var end : new WorkflowEvent[] {WorkflowEvent.APPROVAL_REJECTED, WorkflowEvent.CLOSED_BY_OPERATOR}) {
            var target = Fixtures.unique("fell");
            var friday = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MILLIS);
            var grant = validated(until("lena", target, friday));
            var renewal = ((OpenResult.Opened) operations.open(until("lena", target, Instant.now().plus(Duration.ofDays(30))),
                    StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "renewed")).operation();
            var ended = apply(renewal, WorkflowEvent.APPROVAL_SUBMITTED, end);

            assertThat(ended.binding()).as("the renewal is detached").isEmpty();
            var row = operations.binding(grant.subject(), grant.target()).orElseThrow();
            assertThat(row.operationId()).isEqualTo(grant.id());
            assertThat(row.status()).isEqualTo(BindingStatus.VALIDATED);
            assertThat(row.expiresAt()).contains(friday);
            var back = operations.find(grant.id()).orElseThrow();
            assertThat(back.binding()).contains(BindingStatus.VALIDATED);
            assertThat(operations.history(grant.id())).extracting(h -> h.event()).endsWith(
                    WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.RENEWAL_FELL_THROUGH);
            assertThat(operations.history(renewal.id())).extracting(h -> h.event()).endsWith(end,
                    WorkflowEvent.RENEWAL_FELL_THROUGH);
            assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).isEqualTo(1);
            // the grant's own expiry is watched again
            assertThat(operations.dueForExpiry(Duration.ofDays(4), 10_000)).extracting(b -> b.operationId()).contains(grant.id());
            // and a stale write pinned to the renewal's state is refused
            assertThatThrownBy(() -> operations.apply(renewal.id(), ended.version() - 1, WorkflowEvent.CLOSE_STARTED,
                    StepNote.system("stale"))).isInstanceOf(PreemptedException.class);
        }
    }

    // --- removals: approval (issue 18, the per-target setting) -----------------------------------------------------

    @Test
    void aRemovalNotApprovedKeepsTheRowAndTheNextRemovalRecordsTheOriginalGrant() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        var target = Fixtures.unique("kept");
        var grant = validated(until("jana", target, Instant.now().minus(Duration.ofMinutes(1))));
        var read = operations.binding(grant.subject(), grant.target()).orElseThrow();
        var expiry = ((OpenResult.Opened) operations.openRemoval(read, Fixtures.newId(),
                WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL, "system", "expired")).operation();
        assertThat(expiry.binding()).contains(BindingStatus.APPROVAL_SENDING);
        assertThat(expiry.kind()).isEqualTo(ChangeKind.EXPIRY);
        assertThat(expiry.removes()).contains(grant.id());
        assertThat(operations.stuck(BindingStatus.REMOVAL_DUE, Duration.ZERO, 1000)).extracting(Operation::id)
                .as("never where the expiry job admits it").doesNotContain(expiry.id());
        assertThatThrownBy(() -> apply(expiry, WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_REJECTED))
                .isInstanceOf(io.changeflow.domain.state.IllegalTransitionException.class);
        var kept = apply(operations.find(expiry.id()).orElseThrow(), WorkflowEvent.REMOVAL_NOT_APPROVED);
        assertThat(kept.binding()).contains(BindingStatus.REMOVAL_REJECTED);
        var row = operations.binding(grant.subject(), grant.target()).orElseThrow();
        assertThat(row.status()).isEqualTo(BindingStatus.REMOVAL_REJECTED);
        assertThat(row.expiresAt()).isEqualTo(grant.expiresAt());
        assertThat(operations.dueForExpiry(Duration.ofDays(1), 1000)).extracting(b -> b.target().value())
                .as("a rejected expiry is not asked again").doesNotContain(target);

        // the expiry again is refused without a write; of racing revocations exactly one wins
        var operationsBefore = dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target));
        assertThat(operations.openRemoval(row, Fixtures.newId(), WorkflowEvent.EXPIRY_DUE, "system", "expired"))
                .isInstanceOf(OpenResult.Blocked.class);
        assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target))).isEqualTo(operationsBefore);
        var racers = new ArrayList<Callable<OpenResult>>();
        for (int i = 0; i < RACERS; i++) {
            var event = i % 2 == 0 ? WorkflowEvent.REVOCATION_FOR_APPROVAL : WorkflowEvent.REVOCATION_REQUESTED;
            racers.add(() -> operations.openRemoval(row, Fixtures.newId(), event, "otto", "revoked"));
        }
        var winners = race(pool, racers).stream().filter(o -> o.value() instanceof OpenResult.Opened).toList();
        assertThat(winners).hasSize(1);
        var revocation = ((OpenResult.Opened) winners.getFirst().value()).operation();
        assertThat(revocation.kind()).isEqualTo(ChangeKind.REVOCATION);
        assertThat(revocation.removes()).as("the grant whose line is in the file, not the rejected removal")
                .contains(grant.id());
        assertThat(dsl.fetchCount(OPERATION, OPERATION.TARGET_KEY.eq(target)) - operationsBefore).isEqualTo(1);
        assertThat(dsl.fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).as("one row per relationship").isEqualTo(1);
        assertThat(operations.find(expiry.id()).orElseThrow().binding()).as("the rejected removal is detached").isEmpty();
        assertThat(operations.history(expiry.id())).extracting(h -> h.event()).containsExactly(
                WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL, WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.REMOVAL_NOT_APPROVED,
                revocation.binding().orElseThrow() == BindingStatus.REVOKING ? WorkflowEvent.REVOCATION_REQUESTED
                        : WorkflowEvent.REVOCATION_FOR_APPROVAL);
        assertThat(dsl.select(BINDING_HISTORY.OUTCOME, BINDING_HISTORY.TO_STATUS).from(BINDING_HISTORY)
                .where(BINDING_HISTORY.TARGET_KEY.eq(target)).orderBy(BINDING_HISTORY.ID).fetch()
                .map(r -> r.value1() + ":" + r.value2()))
                .contains("REAPPLIED:APPROVAL_SENDING", "CHANGED:REMOVAL_REJECTED", "BLOCKED:REMOVAL_REJECTED");
    }

    @Test
    void aRejectedRevocationIsStillDueAtTheGrantsUntilByTheDatabaseClock() {
        var operations = persistence.operations();
        var target = Fixtures.unique("revoked-kept");
        var grant = validated(until("karl", target, Instant.now().plus(Duration.ofMinutes(30))));
        var read = operations.binding(grant.subject(), grant.target()).orElseThrow();
        var revocation = ((OpenResult.Opened) operations.openRemoval(read, Fixtures.newId(),
                WorkflowEvent.REVOCATION_FOR_APPROVAL, "otto", "revoked")).operation();
        apply(revocation, WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.REMOVAL_NOT_APPROVED);

        assertThat(operations.dueForExpiry(Duration.ZERO, 1000)).extracting(b -> b.target().value()).doesNotContain(target);
        assertThat(operations.dueForExpiry(Duration.ofHours(1), 1000)).filteredOn(b -> b.target().value().equals(target))
                .singleElement().satisfies(b -> {
                    assertThat(b.status()).isEqualTo(BindingStatus.REMOVAL_REJECTED);
                    assertThat(b.operationId()).isEqualTo(revocation.id());
                });
        assertThat(operations.expiringWithin(Duration.ofHours(1), 1000).first()).extracting(b -> b.target().value())
                .contains(target);
        var due = operations.dueForExpiry(Duration.ofHours(1), 1000).stream()
                .filter(b -> b.target().value().equals(target)).findFirst().orElseThrow();
        var expiry = ((OpenResult.Opened) operations.openRemoval(due, Fixtures.newId(), WorkflowEvent.EXPIRY_DUE, "system",
                "expired")).operation();
        assertThat(expiry.binding()).contains(BindingStatus.EXPIRING);
        assertThat(expiry.removes()).contains(grant.id());
        assertThat(expiry.expiresAt()).isEqualTo(grant.expiresAt());
    }
}
