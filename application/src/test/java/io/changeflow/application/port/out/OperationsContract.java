package io.changeflow.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.IllegalTransitionException;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The key semantics of the {@link Operations} port, for every implementation: extend it and return a
 * fresh, empty store from {@link #operations()} (called once per test). The in-memory fake passes it;
 * the persistence adapter runs it against the real database.
 */
public abstract class OperationsContract {

    private static final AtomicInteger IDS = new AtomicInteger();
    private static final TargetKey TARGET = TargetKey.of("db-prod-readonly");

    /** A fresh, empty store. */
    protected abstract Operations operations();

    /** The idempotency records kept with {@code store} (the same database), where its opening write stores outcomes. */
    protected abstract IdempotencyRecords idempotencyRecordsOf(Operations store);

    private static final Duration KEY_LIFE = Duration.ofDays(1);
    private static final Duration ABANDONED = Duration.ofSeconds(30);

    @Test
    void anOpeningStoresTheOutcomeOfItsKeyWithTheRequest() {
        var store = operations();
        var records = idempotencyRecordsOf(store);
        var id = newId();
        assertThat(records.checkOrInsert(id.value(), "fp", KEY_LIFE, ABANDONED)).isInstanceOf(IdempotencyRecords.Claim.Fresh.class);

        opened(store.open(request(id, "alice"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted",
                new IdempotencyRecords.Outcome(id.value(), "ACCEPTED")));

        assertThat(records.checkOrInsert(id.value(), "fp", KEY_LIFE, ABANDONED))
                .isEqualTo(new IdempotencyRecords.Claim.Existing("fp", Optional.of("ACCEPTED")));
    }

    @Test
    void aBlockedOrPreemptedOpeningStoresNoOutcome() {
        var store = operations();
        var records = idempotencyRecordsOf(store);
        var first = submitted(store, "bob");
        var blocked = newId();
        records.checkOrInsert(blocked.value(), "fp", KEY_LIFE, ABANDONED);

        assertThat(store.open(request(blocked, "bob"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST,
                "again", new IdempotencyRecords.Outcome(blocked.value(), "ACCEPTED"))).isInstanceOf(OpenResult.Blocked.class);
        assertThat(records.checkOrInsert(blocked.value(), "fp", KEY_LIFE, ABANDONED))
                .isEqualTo(new IdempotencyRecords.Claim.Existing("fp", Optional.empty()));

        var other = newId();
        records.checkOrInsert(other.value(), "fp", KEY_LIFE, ABANDONED);
        assertThatThrownBy(() -> store.open(request(first.id(), "carol"), StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "same id", new IdempotencyRecords.Outcome(other.value(), "ACCEPTED")))
                .isInstanceOf(PreemptedException.class);
        assertThat(records.checkOrInsert(other.value(), "fp", KEY_LIFE, ABANDONED))
                .isEqualTo(new IdempotencyRecords.Claim.Existing("fp", Optional.empty()));
    }

    protected static OperationId newId() {
        return OperationId.of(String.format("c0de0000-0000-4000-8000-%012d", IDS.incrementAndGet()));
    }

    protected static ChangeRequest request(OperationId id, String subject) {
        return new ChangeRequest(id, "alice", TARGET, SubjectId.of(subject), "needed for the quarterly report", Optional.empty());
    }

    private static Operation opened(OpenResult result) {
        assertThat(result).isInstanceOf(OpenResult.Opened.class);
        return ((OpenResult.Opened) result).operation();
    }

    /** A request for {@code subject}, opened approve-first in {@code store}. */
    private static Operation submitted(Operations store, String subject) {
        return opened(store.open(request(newId(), subject), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST,
                "submitted"));
    }

    /** {@link #submitted}, then rejected by the approver: the relationship is free for a new request. */
    private static Operation rejected(Operations store, String subject) {
        var op = submitted(store, subject);
        store.apply(op.id(), op.version(), WorkflowEvent.APPROVAL_REJECTED, note("rejected"));
        return op;
    }

    private static StepNote note(String detail) {
        return StepNote.system(detail);
    }

    @Test
    void opensANewRequestWithBothLayersWritten() {
        var store = operations();
        var id = newId();
        var op = opened(store.open(request(id, "alice"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted"));

        assertThat(op.step()).isEqualTo(StepStatus.APPROVAL_SUBMITTING);
        assertThat(op.binding()).contains(BindingStatus.APPROVAL_SENDING);
        assertThat(store.binding(SubjectId.of("alice"), TARGET)).hasValueSatisfying(b -> {
            assertThat(b.operationId()).isEqualTo(id);
            assertThat(b.status()).isEqualTo(BindingStatus.APPROVAL_SENDING);
        });
        assertThat(store.history(id)).extracting(h -> h.event()).containsExactly(WorkflowEvent.SUBMITTED_APPROVE_FIRST);
    }

    /** Issue 32 item 3: a request of a duration has no end until its approved line is first written, then one, once. */
    @Test
    void aRequestOfADurationHasNoEndUntilItIsFixedOnceOnTheOperationAndItsRow() {
        var store = operations();
        var id = newId();
        var asked = new ChangeRequest(id, "alice", TARGET, SubjectId.of("dina"), "an incident", Optional.empty(),
                Optional.of(java.time.Duration.ofHours(8)));
        var op = opened(store.open(asked, StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted"));
        assertThat(op.duration()).contains(java.time.Duration.ofHours(8));
        assertThat(op.expiresAt()).isEmpty();
        assertThat(store.binding(SubjectId.of("dina"), TARGET).orElseThrow().expiresAt()).isEmpty();
        var first = java.time.Instant.parse("2026-12-07T18:30:00Z");

        assertThat(store.fixEnd(id, first)).contains(first);
        assertThat(store.fixEnd(id, first.plusSeconds(60))).as("fixed once: a second write answers the first end")
                .contains(first);

        var read = store.find(id).orElseThrow();
        assertThat(read.expiresAt()).contains(first);
        assertThat(read.duration()).contains(java.time.Duration.ofHours(8));
        assertThat(read.request().fingerprint()).isEqualTo(asked.fingerprint());
        assertThat(read.version()).as("no state write").isEqualTo(op.version());
        assertThat(store.binding(SubjectId.of("dina"), TARGET).orElseThrow().expiresAt()).contains(first);
    }

    @Test
    void aRequestOfAnEndOrNoRequestHasNoEndToFix() {
        var store = operations();
        var ofAnEnd = submitted(store, "emil");

        assertThat(store.fixEnd(ofAnEnd.id(), java.time.Instant.parse("2026-12-07T18:30:00Z"))).isEmpty();
        assertThat(store.fixEnd(newId(), java.time.Instant.parse("2026-12-07T18:30:00Z"))).isEmpty();
        assertThat(store.find(ofAnEnd.id()).orElseThrow().expiresAt()).isEmpty();
        assertThat(store.binding(SubjectId.of("emil"), TARGET).orElseThrow().expiresAt()).isEmpty();
    }

    /** Two instances writing the line at once: one end is recorded and both write that one. */
    @Test
    void writersFixingTheSameEndAtOnceAllAnswerTheOneThatWon() throws Exception {
        var store = operations();
        var id = newId();
        store.open(new ChangeRequest(id, "alice", TARGET, SubjectId.of("finn"), "an incident", Optional.empty(),
                Optional.of(java.time.Duration.ofHours(8))), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST,
                "submitted");
        var writers = 8;
        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(writers);
        try {
            var answers = new ArrayList<Future<Optional<java.time.Instant>>>();
            for (var i = 0; i < writers; i++) {
                var end = java.time.Instant.parse("2026-12-07T18:30:00Z").plusSeconds(i);
                answers.add(pool.submit(() -> {
                    start.await();
                    return store.fixEnd(id, end);
                }));
            }
            start.countDown();
            var ends = new java.util.HashSet<java.time.Instant>();
            for (var answer : answers) {
                ends.add(answer.get(30, TimeUnit.SECONDS).orElseThrow());
            }
            assertThat(ends).hasSize(1);
            assertThat(store.find(id).orElseThrow().expiresAt()).contains(ends.iterator().next());
            assertThat(store.binding(SubjectId.of("finn"), TARGET).orElseThrow().expiresAt())
                    .contains(ends.iterator().next());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void blocksASecondRequestWhileTheRelationshipIsActive() {
        var store = operations();
        var first = newId();
        store.open(request(first, "bob"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted");

        var second = store.open(request(newId(), "bob"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "again");

        assertThat(second).isInstanceOfSatisfying(OpenResult.Blocked.class,
                blocked -> assertThat(blocked.existing().operationId()).isEqualTo(first));
    }

    @Test
    void reapplicationReusesTheRowAndDetachesTheOldOwner() {
        var store = operations();
        var first = rejected(store, "carol");
        var rowBefore = store.binding(SubjectId.of("carol"), TARGET).orElseThrow();

        var second = opened(store.open(request(newId(), "carol"), StepOrder.CREATE_FIRST,
                WorkflowEvent.SUBMITTED_CREATE_FIRST, "again"));

        var row = store.binding(SubjectId.of("carol"), TARGET).orElseThrow();
        assertThat(row.operationId()).isEqualTo(second.id());
        assertThat(row.status()).isEqualTo(BindingStatus.MR_CREATING);
        assertThat(row.version()).isGreaterThan(rowBefore.version());
        assertThat(store.bindingsOf(SubjectId.of("carol"))).hasSize(1);
        assertThat(store.find(first.id()).orElseThrow().binding()).isEmpty();
    }

    /** Issue 33: an admission answers from what the opening transaction read, so the result must say it exactly. */
    @Test
    void theOpenedResultCarriesTheOperationWithItsHistoryAndTheRowItReplacedAsItWasBefore() {
        var store = operations();
        var fresh = (OpenResult.Opened) store.open(request(newId(), "erin"), StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted");
        assertThat(fresh.replaced()).isEmpty();
        assertThat(fresh.operation()).isEqualTo(store.find(fresh.operation().id()).orElseThrow());
        assertThat(fresh.history()).isEqualTo(store.history(fresh.operation().id()));

        rejected(store, "fred");
        var rowBefore = store.binding(SubjectId.of("fred"), TARGET).orElseThrow();
        var again = (OpenResult.Opened) store.open(request(newId(), "fred"), StepOrder.CREATE_FIRST,
                WorkflowEvent.SUBMITTED_CREATE_FIRST, "again");

        assertThat(again.replaced()).contains(rowBefore);
        assertThat(again.operation()).isEqualTo(store.find(again.operation().id()).orElseThrow());
        assertThat(again.history()).isEqualTo(store.history(again.operation().id())).hasSize(1);
    }

    @Test
    void aDriftLinesRemovalOpensOnNoRowOrAReappliableOneAsARevocationOfExactlyThatLine() {
        var store = operations();
        var line = newId();
        var until = Optional.of(java.time.Instant.parse("2027-01-01T00:00:00Z"));

        var fresh = opened(store.openDriftRemoval(new ChangeRequest(newId(), "system", TARGET, SubjectId.of("mallory"),
                "drift", until), line, "a line nobody approved"));

        assertThat(fresh.kind()).isEqualTo(io.changeflow.domain.state.ChangeKind.REVOCATION);
        assertThat(fresh.binding()).contains(BindingStatus.REVOKING);
        assertThat(fresh.removedLine()).contains(new io.changeflow.domain.request.Grant(SubjectId.of("mallory"), until, line));
        assertThat(store.binding(SubjectId.of("mallory"), TARGET).orElseThrow().operationId()).isEqualTo(fresh.id());

        var merged = rejected(store, "eve");
        var removal = opened(store.openDriftRemoval(new ChangeRequest(newId(), "system", TARGET, SubjectId.of("eve"),
                "drift", Optional.empty()), merged.id(), "merged before approval"));
        assertThat(removal.removes()).contains(merged.id());
        assertThat(store.find(merged.id()).orElseThrow().binding()).isEmpty();

        var waiting = submitted(store, "bob");
        assertThat(store.openDriftRemoval(new ChangeRequest(newId(), "system", TARGET, SubjectId.of("bob"), "drift",
                Optional.empty()), waiting.id(), "in progress")).isInstanceOf(OpenResult.Blocked.class);
        assertThat(store.binding(SubjectId.of("bob"), TARGET).orElseThrow().operationId()).isEqualTo(waiting.id());
    }

    @Test
    void theRowsOfATargetAreEveryOwnersRowOnItBySubject() {
        var store = operations();
        var bob = submitted(store, "bob");
        var amy = submitted(store, "amy");
        store.open(new ChangeRequest(newId(), "alice", TargetKey.of("vpn-staging"), SubjectId.of("bob"), "elsewhere",
                Optional.empty()), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted");

        assertThat(store.bindingsOn(TARGET)).extracting(b -> b.operationId()).containsExactly(amy.id(), bob.id());
        assertThat(store.bindingsOn(TargetKey.of("nowhere"))).isEmpty();
    }

    @Test
    void refusesToOpenAnOperationIdTwice() {
        var store = operations();
        var id = newId();
        store.open(request(id, "dave"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted");

        assertThatThrownBy(() -> store.open(request(id, "erin"), StepOrder.APPROVE_FIRST,
                WorkflowEvent.SUBMITTED_APPROVE_FIRST, "same id")).isInstanceOf(PreemptedException.class);
        assertThat(store.binding(SubjectId.of("erin"), TARGET)).isEmpty();
    }

    @Test
    void applyIsGuardedByTheVersionRead() {
        var store = operations();
        var op = submitted(store, "frank");
        var sent = store.apply(op.id(), op.version(), WorkflowEvent.APPROVAL_SUBMITTED, note("sent"));
        assertThat(sent.version()).isGreaterThan(op.version());

        assertThatThrownBy(() -> store.apply(op.id(), op.version(), WorkflowEvent.APPROVAL_GRANTED_CREATE, note("stale")))
                .isInstanceOf(PreemptedException.class);
        assertThat(store.find(op.id()).orElseThrow().binding()).contains(BindingStatus.APPROVAL_SENT);
    }

    @Test
    void applyRefusesWhatTheTableRefusesAndWritesNothing() {
        var store = operations();
        var op = submitted(store, "grace");

        assertThatThrownBy(() -> store.apply(op.id(), op.version(), WorkflowEvent.DEPLOYED, note("too early")))
                .isInstanceOf(IllegalTransitionException.class);
        var after = store.find(op.id()).orElseThrow();
        assertThat(after.version()).isEqualTo(op.version());
        assertThat(store.history(op.id())).hasSize(1);
    }

    @Test
    void applyIfAllowedFlipsOnceAndThenAnswersEmpty() {
        var store = operations();
        var op = submitted(store, "heidi");

        assertThat(store.applyIfAllowed(op.id(), WorkflowEvent.APPROVAL_SUBMITTED, note("sent"))).isPresent();
        assertThat(store.applyIfAllowed(op.id(), WorkflowEvent.APPROVAL_SUBMITTED, note("sent again"))).isEmpty();
        assertThat(store.applyIfAllowed(newId(), WorkflowEvent.APPROVAL_SUBMITTED, note("unknown"))).isEmpty();
        assertThat(store.history(op.id())).hasSize(2);
    }

    @Test
    void ofRacingApplyIfAllowedCallsExactlyOneFlips() throws Exception {
        var store = operations();
        var op = submitted(store, "ivan");
        var start = new CountDownLatch(1);
        var pool = Executors.newFixedThreadPool(4);
        try {
            var results = new ArrayList<Future<Optional<Operation>>>();
            for (var i = 0; i < 8; i++) {
                Callable<Optional<Operation>> call = () -> {
                    start.await();
                    return store.applyIfAllowed(op.id(), WorkflowEvent.APPROVAL_REJECTED, note("rejected"));
                };
                results.add(pool.submit(call));
            }
            start.countDown();
            var flipped = 0;
            for (var result : results) {
                if (result.get(10, TimeUnit.SECONDS).isPresent()) {
                    flipped++;
                }
            }
            assertThat(flipped).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void replacedOperationStillTakesStepOnlyEventsButNotBindingEvents() {
        var store = operations();
        var first = rejected(store, "judy");
        opened(store.open(request(newId(), "judy"), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "again"));

        assertThat(store.applyIfAllowed(first.id(), WorkflowEvent.APPROVAL_GRANTED_CREATE, note("late"))).isEmpty();
        assertThat(store.applyIfAllowed(first.id(), WorkflowEvent.CLOSE_STARTED, note("cleanup"))).isPresent();
        assertThat(store.binding(SubjectId.of("judy"), TARGET).orElseThrow().status()).isEqualTo(BindingStatus.APPROVAL_SENDING);
    }

    @Test
    void recordsAMergeRequestIdempotentlyAndFindsOperationsByIt() {
        var store = operations();
        var op = opened(store.open(request(newId(), "ken"), StepOrder.CREATE_FIRST,
                WorkflowEvent.SUBMITTED_CREATE_FIRST, "submitted"));
        var mr = new MergeRequestRef("platform/access-config", 7, "changeflow/" + op.id(), "https://gitlab.example/mr/7");

        assertThat(store.recordMergeRequest(op.id(), mr)).isTrue();
        assertThat(store.recordMergeRequest(op.id(), mr)).isTrue();
        assertThat(store.recordMergeRequest(op.id(), new MergeRequestRef("platform/access-config", 8, "other",
                "https://gitlab.example/mr/8"))).isFalse();
        assertThat(store.find(op.id()).orElseThrow().mergeRequest()).contains(mr);
        assertThat(store.findByMergeRequest("platform/access-config", 7)).extracting(Operation::id).containsExactly(op.id());
        assertThat(store.findByMergeRequest("platform/access-config", 8)).isEmpty();
        assertThat(store.findAll(List.of(op.id(), newId()))).extracting(Operation::id).containsExactly(op.id());
    }

    @Test
    void recordingAMergeRequestForAMissingOperationAnswersFalseAndCreatesNothing() {
        var store = operations();
        var missing = newId();
        var mr = new MergeRequestRef("platform/access-config", 9, "changeflow/" + missing, "https://gitlab.example/mr/9");

        assertThat(store.recordMergeRequest(missing, mr)).isFalse();
        assertThat(store.find(missing)).isEmpty();
        assertThat(store.findByMergeRequest("platform/access-config", 9)).isEmpty();
    }

    @Test
    void idleInWalksTheCandidatesInPagesByOperationIdAndLeavesOutOthers() {
        var store = operations();
        var ids = new ArrayList<OperationId>();
        for (var i = 0; i < 5; i++) {
            ids.add(submitted(store, "page-" + i).id());
        }
        var sent = store.find(ids.get(1)).orElseThrow();
        store.apply(sent.id(), sent.version(), WorkflowEvent.APPROVAL_SUBMITTED, note("sent"));
        var rejected = store.find(ids.get(2)).orElseThrow();
        store.apply(rejected.id(), rejected.version(), WorkflowEvent.APPROVAL_REJECTED, note("rejected"));
        var waiting = java.util.Set.of(BindingStatus.APPROVAL_SENDING, BindingStatus.APPROVAL_SENT);

        var first = store.idleIn(waiting, java.time.Duration.ZERO, new Operations.IdPage(Optional.empty(), 2));
        var second = store.idleIn(waiting, java.time.Duration.ZERO, new Operations.IdPage(Optional.of(first.getLast().id()), 2));

        assertThat(first).extracting(Operation::id).containsExactly(ids.get(0), ids.get(1));
        assertThat(second).extracting(Operation::id).as("the rejected one is not a candidate").containsExactly(ids.get(3), ids.get(4));
        assertThat(store.idleIn(waiting, java.time.Duration.ZERO, new Operations.IdPage(Optional.of(ids.get(4)), 2))).isEmpty();
        assertThat(store.idleIn(waiting, Duration.ofDays(1), new Operations.IdPage(Optional.empty(), 10)))
                .as("written just now: not idle for a day").isEmpty();
        assertThat(store.idleIn(java.util.Set.of(), java.time.Duration.ZERO, new Operations.IdPage(Optional.empty(), 10))).isEmpty();
    }

    /** {@link #rejected} on {@code subject}, recording {@code mr} when given, then replaced by a new request. */
    private static Operation replaced(Operations store, String subject, Optional<MergeRequestRef> mr, boolean closeFailed) {
        var op = rejected(store, subject);
        mr.ifPresent(ref -> assertThat(store.recordMergeRequest(op.id(), ref)).isTrue());
        if (closeFailed) {
            var read = store.find(op.id()).orElseThrow();
            read = store.apply(read.id(), read.version(), WorkflowEvent.CLOSE_STARTED, note("closing"));
            store.apply(read.id(), read.version(), WorkflowEvent.CLOSE_FAILED, note("409"));
        }
        opened(store.open(request(newId(), subject), StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "again"));
        var detached = store.find(op.id()).orElseThrow();
        assertThat(detached.binding()).as("replaced: owns no row").isEmpty();
        return detached;
    }

    @Test
    void detachedAtReadsTheReplacedRequestsAtAStepThatRecordAMergeRequestInPagesByOperationId() {
        var store = operations();
        var project = "platform/detached-" + IDS.incrementAndGet();
        var before = submitted(store, "d-before");
        var rejectedOnly = replaced(store, "d-rejected", Optional.of(new MergeRequestRef(project, 1, "changeflow/a", "u1")), false);
        replaced(store, "d-without-mr", Optional.empty(), false);
        var attached = rejected(store, "d-attached");
        assertThat(store.recordMergeRequest(attached.id(), new MergeRequestRef(project, 3, "changeflow/c", "u3"))).isTrue();
        var closeFailed = replaced(store, "d-close-failed", Optional.of(new MergeRequestRef(project, 4, "changeflow/d", "u4")), true);
        var owing = java.util.Set.of(StepStatus.APPROVAL_REJECTED, StepStatus.CLOSE_FAILED);
        // finding S8: a close that failed before it found the merge request the request does not record
        var unrecordedCloseFailed = replaced(store, "d-close-failed-unrecorded", Optional.empty(), true);
        assertThat(store.detachedAt(java.util.Set.of(StepStatus.CLOSE_FAILED), new Operations.IdPage(Optional.of(closeFailed.id()), 10)))
                .extracting(Operation::id).as("at CLOSE_FAILED without a recorded merge request").containsExactly(unrecordedCloseFailed.id());
        assertThat(store.detachedAt(java.util.Set.of(StepStatus.APPROVAL_REJECTED), new Operations.IdPage(Optional.of(closeFailed.id()), 10)))
                .as("at another step without one: nothing to close").isEmpty();
        var later = store.find(unrecordedCloseFailed.id()).orElseThrow();
        later = store.apply(later.id(), later.version(), WorkflowEvent.CLOSE_STARTED, note("closing"));
        store.apply(later.id(), later.version(), WorkflowEvent.CLOSE_DONE, note("closed"));

        var all = store.detachedAt(owing, new Operations.IdPage(Optional.empty(), 10));
        var first = store.detachedAt(owing, new Operations.IdPage(Optional.empty(), 1));
        var rest = store.detachedAt(owing, new Operations.IdPage(Optional.of(first.getLast().id()), 10));

        assertThat(all).extracting(Operation::id).as("replaced, at one of the steps, with a merge request of their own")
                .containsExactly(rejectedOnly.id(), closeFailed.id());
        assertThat(all).allSatisfy(op -> assertThat(op.binding()).isEmpty());
        assertThat(all.getLast().step()).isEqualTo(StepStatus.CLOSE_FAILED);
        assertThat(all.getLast().mergeRequest()).map(MergeRequestRef::iid).contains(4L);
        assertThat(first).extracting(Operation::id).containsExactly(rejectedOnly.id());
        assertThat(rest).extracting(Operation::id).containsExactly(closeFailed.id());
        assertThat(store.detachedAt(java.util.Set.of(StepStatus.CLOSE_FAILED), new Operations.IdPage(Optional.of(before.id()), 10)))
                .extracting(Operation::id).containsExactly(closeFailed.id());
        assertThat(store.detachedAt(java.util.Set.of(), new Operations.IdPage(Optional.empty(), 10))).isEmpty();
        assertThat(store.detachedAt(owing, new Operations.IdPage(Optional.empty(), 0))).isEmpty();
    }

    /** {@link #submitted}, walked to MERGED by {@code mr}, its merged commit recorded first when one is given. */
    private static Operation mergedBy(Operations store, String subject, MergeRequestRef mr, Optional<String> commit) {
        var op = submitted(store, subject);
        for (var event : List.of(WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_GRANTED_MERGE,
                WorkflowEvent.HANDLE_STARTED)) {
            op = store.apply(op.id(), op.version(), event, note(event.name()));
        }
        assertThat(store.recordMergeRequest(op.id(), mr)).isTrue();
        commit.ifPresent(sha -> store.recordMergedCommit(mr, sha));
        op = store.find(op.id()).orElseThrow();
        return store.apply(op.id(), op.version(), WorkflowEvent.MERGED, note("merged"));
    }

    @Test
    void theMergedCommitIsRecordedOncePerMergeRequestAndTheMergedOperationsAreReadInMergeOrder() {
        var store = operations();
        var project = "platform/commits-" + IDS.incrementAndGet();
        var mr21 = new MergeRequestRef(project, 21, "changeflow/a", "https://gitlab.example/mr/21");
        var mr20 = new MergeRequestRef(project, 20, "changeflow/b", "https://gitlab.example/mr/20");
        var mr22 = new MergeRequestRef(project, 22, "changeflow/c", "https://gitlab.example/mr/22");
        var first = mergedBy(store, "fay", mr21, Optional.of("c21"));
        var second = mergedBy(store, "gus", mr20, Optional.of("c20"));
        var third = mergedBy(store, "hal", mr22, Optional.empty());
        store.recordMergedCommit(mr21, "another");

        var orders = store.mergeOrders(List.of(mr20, mr21, mr22));
        assertThat(orders.get(mr21)).as("merge order follows the merges, not the numbers").isLessThan(orders.get(mr20));
        assertThat(orders.get(mr20)).isLessThan(orders.get(mr22));
        assertThat(store.mergedAwaitingDeploy(project, 10))
                .extracting(m -> m.operation().id(), Operations.MergedOperation::mergeOrder, Operations.MergedOperation::mergedCommit)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(first.id(), orders.get(mr21), Optional.of("c21")), // the first commit stays
                        org.assertj.core.groups.Tuple.tuple(second.id(), orders.get(mr20), Optional.of("c20")),
                        org.assertj.core.groups.Tuple.tuple(third.id(), orders.get(mr22), Optional.empty()));
        assertThat(store.mergedAwaitingDeploy(project, 2)).extracting(m -> m.operation().id())
                .containsExactly(first.id(), second.id());
        assertThat(store.mergedAwaitingDeploy("platform/elsewhere", 10)).isEmpty();

        var unconfirmed = store.find(first.id()).orElseThrow();
        store.apply(unconfirmed.id(), unconfirmed.version(), WorkflowEvent.DEPLOY_DEADLINE_PASSED, note("no report"));
        var deployed = store.find(second.id()).orElseThrow();
        store.apply(deployed.id(), deployed.version(), WorkflowEvent.DEPLOYED, note("in effect"));
        assertThat(store.mergedAwaitingDeploy(project, 10)).as("only requests still waiting for their deploy report")
                .extracting(m -> m.operation().id()).containsExactly(first.id(), third.id());
    }
}
