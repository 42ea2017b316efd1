package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Batches.Claim;
import io.changeflow.application.port.out.Operations.RequestFilter;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OperationQueriesTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    @Test
    void storesWhatWasAskedAndBothLayersWithTheirHistory() {
        var operations = persistence.operations();
        var expiry = Instant.now().plus(Duration.ofDays(3)).truncatedTo(ChronoUnit.MILLIS);
        var request = new io.changeflow.domain.request.ChangeRequest(Fixtures.newId(), "ivy",
                io.changeflow.domain.request.TargetKey.of(Fixtures.unique("db")), SubjectId.of("ivy"), "on call", Optional.of(expiry));
        var opened = Fixtures.opened(operations, request);
        assertThat(opened.version()).isEqualTo(1);
        assertThat(opened.step()).isEqualTo(StepStatus.APPROVAL_SUBMITTING);
        assertThat(opened.binding()).contains(BindingStatus.APPROVAL_SENDING);
        assertThat(opened.expiresAt()).contains(expiry);
        assertThat(opened.order()).isEqualTo(StepOrder.APPROVE_FIRST);
        assertThat(Duration.between(opened.createdAt(), Instant.now()).abs()).as("stored as UTC").isLessThan(Duration.ofMinutes(1));

        var sent = operations.apply(opened.id(), 1, WorkflowEvent.APPROVAL_SUBMITTED, new StepNote("sent", "system"));
        operations.recordApprovalTicket(sent.id(), "APR-1");
        assertThat(operations.find(sent.id()).orElseThrow().approvalTicket()).contains("APR-1");
        assertThat(operations.history(sent.id())).extracting(h -> h.event())
                .containsExactly(WorkflowEvent.SUBMITTED_APPROVE_FIRST, WorkflowEvent.APPROVAL_SUBMITTED);
        var last = operations.history(sent.id()).getLast();
        assertThat(last.fromStep()).contains(StepStatus.APPROVAL_SUBMITTING);
        assertThat(last.toBinding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(last.fromBinding()).contains(BindingStatus.APPROVAL_SENDING);

        assertThat(operations.bindingsOf(SubjectId.of("ivy"))).extracting(b -> b.operationId()).contains(sent.id());
        assertThat(operations.requestsOf("ivy", 0, 10)).extracting(o -> o.id()).containsExactly(sent.id());
        var sentTarget = Optional.of(sent.target());
        assertThat(operations.requestsOf("ivy", new RequestFilter(Optional.of(BindingStatus.APPROVAL_SENT), sentTarget), 0, 10))
                .extracting(o -> o.id()).containsExactly(sent.id());
        assertThat(operations.requestsOf("ivy", new RequestFilter(Optional.of(BindingStatus.MERGED), Optional.empty()), 0, 10)).isEmpty();
        assertThat(operations.requestsOf("ivy", new RequestFilter(Optional.empty(), Optional.of(io.changeflow.domain.request.TargetKey.of("no-such-target"))), 0, 10))
                .isEmpty();
        assertThat(operations.findAll(List.of(sent.id(), Fixtures.newId()))).extracting(o -> o.id()).containsExactly(sent.id());
    }

    /** Issue 37: a person's requests are those they made and the grants someone else asked for them, newest first. */
    @Test
    void aPersonsRequestsAreTheirOwnAndThoseAskedForThemNotOthersTheyAreNotPartOf() {
        var operations = persistence.operations();
        var person = Fixtures.unique("kim");
        var colleague = Fixtures.unique("lee");
        var own = Fixtures.opened(operations, new io.changeflow.domain.request.ChangeRequest(Fixtures.newId(), person,
                io.changeflow.domain.request.TargetKey.of(Fixtures.unique("own")), SubjectId.of(person), "mine", Optional.empty()));
        var forThem = Fixtures.opened(operations, new io.changeflow.domain.request.ChangeRequest(Fixtures.newId(), colleague,
                io.changeflow.domain.request.TargetKey.of(Fixtures.unique("for")), SubjectId.of(person), "for kim", Optional.empty()));
        var forTheColleague = Fixtures.opened(operations, new io.changeflow.domain.request.ChangeRequest(Fixtures.newId(), person,
                io.changeflow.domain.request.TargetKey.of(Fixtures.unique("by")), SubjectId.of(colleague), "for lee", Optional.empty()));

        assertThat(operations.requestsOf(person, 0, 10)).extracting(o -> o.id())
                .containsExactlyInAnyOrder(own.id(), forThem.id(), forTheColleague.id());
        assertThat(operations.requestsOf(colleague, 0, 10)).extracting(o -> o.id())
                .containsExactlyInAnyOrder(forThem.id(), forTheColleague.id());
        assertThat(operations.requestsOf(person, new RequestFilter(Optional.empty(), Optional.of(forThem.target())), 0, 10))
                .extracting(o -> o.id()).containsExactly(forThem.id());
        assertThat(operations.requestsOf(Fixtures.unique("nobody"), 0, 10)).isEmpty();
    }

    @Test
    void reapplicationResetsTheRowInPlaceAndDetachesTheOldOwner() {
        var operations = persistence.operations();
        var target = Fixtures.unique("re");
        var old = Fixtures.rejected(operations, "jack", target);
        var row = operations.binding(old.subject(), old.target()).orElseThrow();
        var again = Fixtures.opened(operations, Fixtures.request("jack", target));
        var reset = operations.binding(old.subject(), old.target()).orElseThrow();
        assertThat(reset.operationId()).isEqualTo(again.id());
        assertThat(reset.version()).isEqualTo(row.version() + 1);
        assertThat(persistence.dsl().fetchCount(BINDING, BINDING.TARGET_KEY.eq(target))).isEqualTo(1);
        assertThat(persistence.dsl().fetchCount(BINDING_HISTORY, BINDING_HISTORY.TARGET_KEY.eq(target)
                .and(BINDING_HISTORY.OUTCOME.in("APPLIED", "REAPPLIED")))).isEqualTo(2);
        var detached = operations.find(old.id()).orElseThrow();
        assertThat(detached.binding()).isEmpty();
        assertThat(operations.applyIfAllowed(old.id(), WorkflowEvent.APPROVAL_SUBMITTED, StepNote.system("late"))).isEmpty();
    }

    @Test
    void mergeRequestsAreRecordedOnceAndFoundForSingleRequestsAndBatchMembers() {
        var operations = persistence.operations();
        var op = Fixtures.walked(operations, Fixtures.request("kim", Fixtures.unique("mr")), WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_CREATE);
        var mr = new MergeRequestRef("group/config", 41, "change/" + op.id(), "https://gitlab.example/group/config/-/merge_requests/41");
        assertThat(operations.recordMergeRequest(op.id(), mr)).isTrue();
        assertThat(operations.recordMergeRequest(op.id(), mr)).as("idempotent").isTrue();
        assertThat(operations.recordMergeRequest(op.id(), new MergeRequestRef("group/config", 42, "b", "u"))).isFalse();
        assertThat(operations.findByMergeRequest("group/config", 41)).extracting(o -> o.id()).containsExactly(op.id());
        var missing = Fixtures.newId();
        assertThat(operations.recordMergeRequest(missing, new MergeRequestRef("group/config", 43, "c", "u")))
                .as("no such operation").isFalse();
        assertThat(operations.find(missing)).isEmpty();
        assertThat(operations.findByMergeRequest("group/config", 43)).isEmpty();

        var partition = Fixtures.unique("mrb");
        var members = Fixtures.bulkWaiting(persistence.dsl(), partition, 3);
        var batch = ((Claim.Claimed) persistence.batches().claim(partition, 10)).batch();
        var batchMr = new MergeRequestRef("group/config", 77, "batch/" + batch.id(), "https://gitlab.example/77");
        persistence.batches().recordMergeRequest(batch.id(), batchMr);
        assertThat(operations.findByMergeRequest("group/config", 77)).extracting(o -> o.id())
                .containsExactlyInAnyOrderElementsOf(members);
        assertThat(operations.find(members.getFirst()).orElseThrow().mergeRequest()).contains(batchMr);
        assertThat(operations.find(members.getFirst()).orElseThrow().batchId()).contains(batch.id());
    }

    @Test
    void theScanAndStuckQueriesUseTheDatabaseClock() {
        var operations = persistence.operations();
        var dsl = persistence.dsl();
        var fresh = Fixtures.merged(operations, "lee", Fixtures.unique("w"));
        var inWindow = Fixtures.merged(operations, "lee", Fixtures.unique("w"));
        var tooOld = Fixtures.merged(operations, "lee", Fixtures.unique("w"));
        dsl.update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(Duration.ofMinutes(30)))
                .where(BINDING.OPERATION_ID.eq(inWindow.id().value())).execute();
        dsl.update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(Duration.ofDays(3)))
                .where(BINDING.OPERATION_ID.eq(tooOld.id().value())).execute();

        var page = operations.scan(Set.of(BindingStatus.MERGED), Duration.ofMinutes(10), 1000);
        assertThat(page.operations()).extracting(o -> o.id()).as("no upper age: nothing falls out of a window")
                .contains(inWindow.id(), tooOld.id()).doesNotContain(fresh.id());
        assertThat(page.next()).as("a short page ends the scan").isEmpty();

        var stuck = operations.stuck(Set.of(BindingStatus.MERGED), Duration.ofMinutes(20), 1000);
        assertThat(stuck).extracting(o -> o.id()).contains(inWindow.id(), tooOld.id()).doesNotContain(fresh.id());
        assertThat(stuck.indexOf(stuck.stream().filter(o -> o.id().equals(tooOld.id())).findFirst().orElseThrow()))
                .as("oldest first").isLessThan(stuck.indexOf(stuck.stream().filter(o -> o.id().equals(inWindow.id())).findFirst().orElseThrow()));
        assertThat(operations.stuck(Set.of(), Duration.ofMinutes(20), 1000)).extracting(o -> o.id()).contains(inWindow.id());
        assertThat(operations.stuck(Set.of(BindingStatus.MERGED), inWindow.target(), Duration.ofMinutes(20),
                1000)).extracting(o -> o.id()).containsExactly(inWindow.id());
    }

    @Test
    void aStepOnlyWriteOfAReplacedOwnerStillWorks() {
        var operations = persistence.operations();
        var target = Fixtures.unique("close");
        var old = Fixtures.rejected(operations, "mo", target);
        Fixtures.opened(operations, Fixtures.request("mo", target));
        var detached = operations.find(old.id()).orElseThrow();
        var closing = operations.apply(old.id(), detached.version(), WorkflowEvent.CLOSE_STARTED, StepNote.system("closing MR"));
        assertThat(closing.step()).isEqualTo(StepStatus.CLOSE_STARTED);
        assertThat(closing.binding()).isEmpty();
        assertThat(operations.find(OperationId.of(old.id().value())).orElseThrow().version()).isEqualTo(detached.version() + 1);
    }
}
