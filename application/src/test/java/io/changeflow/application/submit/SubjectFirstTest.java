package io.changeflow.application.submit;

import static io.changeflow.application.fake.InMemoryChangeflow.newOperationId;
import static io.changeflow.application.fake.InMemoryChangeflow.submission;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.submit.SubmitChangeRequest.Result;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 37: on a target where people may ask for others ({@code anyone}, {@code related}), a request asked for
 * someone never keeps that person from asking themselves. Their own request supersedes it while it is not yet merging
 * (approval withdrawn, merge request closed, a note for its requester); once it is merging the subject gets 409
 * REQUEST_IN_PROGRESS naming it. Only the subject wins: a third person's request for them stays refused.
 */
class SubjectFirstTest {

    private static final TargetKey TARGET = FakeTargets.SINGLE;

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @BeforeEach
    void anyoneMayAskForAnyone() {
        app.targets.withAskFor(TARGET, AskPolicy.ANYONE);
    }

    private OperationId ask(String requester, String subject) {
        var id = newOperationId();
        assertThat(app.submit(requester, submission(id, TARGET, subject))).isInstanceOf(Result.Accepted.class);
        return OperationId.of(id);
    }

    private Result bobAsksHimself() {
        return app.submit("bob", submission(newOperationId(), TARGET, "bob"));
    }

    private OperationId holderOfBobsRow() {
        return app.operations.binding(SubjectId.of("bob"), TARGET).orElseThrow().operationId();
    }

    /**
     * Ended CLOSED at SUPERSEDED_BY_SUBJECT (its requester may apply again), the row handed on; at CLOSE_DONE once the
     * close step launched for a merge request it had, or may have had (finding S8), ran.
     */
    private void assertSuperseded(OperationId id) {
        assertSuperseded(app, id);
    }

    private static void assertSuperseded(InMemoryChangeflow app, OperationId id) {
        var superseded = app.op(id);
        assertThat(superseded.step()).isIn(StepStatus.SUPERSEDED_BY_SUBJECT, StepStatus.CLOSE_DONE);
        assertThat(superseded.ownsBinding()).isFalse();
        assertThat(superseded.hint()).isEqualTo(Hint.CAN_REAPPLY);
        assertThat(app.operations.history(id)).filteredOn(h -> h.event() == WorkflowEvent.SUPERSEDED_BY_SUBJECT)
                .singleElement().satisfies(h -> assertThat(h.toBinding()).contains(BindingStatus.CLOSED));
    }

    @Test
    void theSubjectsOwnRequestSupersedesOneAskedForThemWhoseMergeRequestWaitsForTheApprover() {
        var alices = ask("alice", "bob");
        app.queue.runUntilIdle();
        var mr = app.mr(alices);
        assertThat(app.op(alices).binding()).as("its merge request open, the approver deciding")
                .contains(BindingStatus.APPROVAL_SENT);

        var own = bobAsksHimself();

        assertThat(own).isInstanceOf(Result.Accepted.class);
        var bobs = ((Result.Accepted) own).request().operationId();
        assertThat(holderOfBobsRow()).isEqualTo(bobs);
        assertSuperseded(alices);
        assertThat(app.operations.history(alices)).filteredOn(h -> h.event() == WorkflowEvent.SUPERSEDED_BY_SUBJECT)
                .singleElement().extracting(h -> h.detail()).asString().as("the note its requester reads")
                .contains("Superseded").contains("bob").contains("asked for this access themselves").contains(bobs.value())
                .contains("Nothing of it was merged");
        assertThat(app.approvals.withdrawn()).as("its approver no longer decides it").containsExactly(alices);

        app.queue.runUntilIdle();
        assertThat(app.gitlab.get(mr.project(), mr.iid()).state()).as("its merge request").isEqualTo(MergeRequestState.CLOSED);
        assertThat(app.gitlab.merges()).isZero();
        assertThat(app.decide(alices, HandleApprovalCallback.Decision.APPROVED).name()).as("a late approval")
                .isEqualTo("IGNORED_STALE");
        assertThat(holderOfBobsRow()).isEqualTo(bobs);
    }

    @Test
    void aRequestAskedForThemStillWaitingForTheApproverGivesWayWithoutAnyMergeRequest() {
        var app = InMemoryChangeflow.approvingFirst();
        app.targets.withAskFor(TARGET, AskPolicy.ANYONE);
        var id = newOperationId();
        assertThat(app.submit("alice", submission(id, TARGET, "bob"))).isInstanceOf(Result.Accepted.class);
        var alices = OperationId.of(id);
        app.queue.runUntilIdle();
        assertThat(app.op(alices).binding()).contains(BindingStatus.APPROVAL_SENT);

        assertThat(app.submit("bob", submission(newOperationId(), TARGET, "bob"))).isInstanceOf(Result.Accepted.class);

        assertSuperseded(app, alices);
        assertThat(app.approvals.withdrawn()).containsExactly(alices);
        assertThat(app.queue.isScheduled(StepKind.CLOSE, alices.value())).as("no merge request to close").isFalse();
    }

    @Test
    void aRequestAskedForThemThatIsMergingIsNeverTakenBackAndTheSubjectIsToldWhatIsUnderWay() {
        var alices = ask("alice", "bob");
        app.queue.runUntilIdle();
        app.decide(alices, HandleApprovalCallback.Decision.APPROVED);
        assertThat(app.op(alices).binding()).contains(BindingStatus.MERGING);

        var own = bobAsksHimself();

        assertThat(own).isInstanceOf(Result.RequestInProgress.class);
        assertThat(own.code()).isEqualTo("REQUEST_IN_PROGRESS");
        var underWay = ((Result.RequestInProgress) own).askedForYou().orElseThrow();
        assertThat(underWay.operationId()).isEqualTo(alices);
        assertThat(underWay.requester()).isEqualTo("alice");
        assertThat(underWay.status()).contains(BindingStatus.MERGING);
        assertThat(app.approvals.withdrawn()).isEmpty();

        app.queue.runUntilIdle();
        assertThat(app.op(alices).binding()).as("alice's request goes on").contains(BindingStatus.MERGED);
    }

    @Test
    void onlyTheSubjectWinsAThirdPersonsRequestForThemAndAnyRequestAgainstTheSubjectsOwnAreRefused() {
        var alices = ask("alice", "bob");
        app.queue.runUntilIdle();

        var carols = app.submit("carol", submission(newOperationId(), TARGET, "bob"));
        assertThat(carols).isInstanceOf(Result.RequestInProgress.class);
        assertThat(((Result.RequestInProgress) carols).askedForYou()).as("carol is not bob: told nothing about it").isEmpty();
        assertThat(holderOfBobsRow()).isEqualTo(alices);

        var bobs = ((Result.Accepted) bobAsksHimself()).request().operationId();
        var againstBob = app.submit("alice", submission(newOperationId(), TARGET, "bob"));
        assertThat(againstBob).isInstanceOf(Result.RequestInProgress.class);
        assertThat(((Result.RequestInProgress) againstBob).askedForYou()).isEmpty();
        assertThat(holderOfBobsRow()).as("the subject's own request is never superseded").isEqualTo(bobs);
    }

    @Test
    void aRenewalAskedForThemGivesWayAndTheirGrantStaysInEffectUntilTheirOwnRenewalDecides() {
        var grant = app.grantInEffect("bob", "bob", app.clock.instant().plus(Duration.ofDays(30)));
        var alices = ask("alice", "bob");
        app.queue.runUntilIdle();
        assertThat(app.op(alices).isRenewal()).isTrue();

        var own = bobAsksHimself();

        assertThat(own).isInstanceOf(Result.Accepted.class);
        assertSuperseded(alices);
        var bobs = app.op(((Result.Accepted) own).request().operationId());
        assertThat(bobs.isRenewal()).as("bob's own request renews the grant in effect").isTrue();
        assertThat(bobs.removes()).contains(grant);
        assertThat(app.op(grant).binding()).as("the grant is not ended by the superseded renewal").isEmpty();
    }

    @Test
    void aMergeRequestOpenedWhileItsRequestIsSupersededIsClosedByTheStepThatOpenedIt() {
        var alices = ask("alice", "bob");
        var own = new AtomicReference<Result>();
        // GitLab opened alice's merge request; before the create step records it, bob asks for himself
        app.operations.beforeNextMergeRequestRecord(() -> own.set(bobAsksHimself()));

        app.queue.runUntilIdle();

        assertThat(own.get()).isInstanceOf(Result.Accepted.class);
        var bobs = ((Result.Accepted) own.get()).request().operationId();
        assertSuperseded(alices);
        var opened = app.gitlab.mergeRequestsOf(FakeTargets.PROJECT);
        assertThat(opened).as("alice's, opened late, and bob's own").hasSize(2);
        assertThat(opened.stream().filter(iid -> app.gitlab.get(FakeTargets.PROJECT, iid).state() == MergeRequestState.OPENED))
                .as("the late one is closed: nobody owns it; only bob's is open")
                .containsExactly(app.mr(bobs).iid());
        assertThat(app.gitlab.merges()).isZero();
        assertThat(holderOfBobsRow()).isEqualTo(bobs);
    }

    /** Finding S8 of the simulation (issue 30), seeds 290155 and 306982 of the wider world. */
    @Test
    void aRequestWhoseCreateFailedAfterGitLabOpenedItsMergeRequestGivesWayAndThatMergeRequestIsFoundByItsBranchAndClosed() {
        var alices = ask("alice", "bob");
        // GitLab opened alice's merge request; recording it fails (the database was away a moment): the create step fails
        app.operations.beforeNextMergeRequestRecord(() -> {
            throw new IllegalStateException("connection reset");
        });
        app.queue.runUntilIdle();
        assertThat(app.op(alices).binding()).contains(BindingStatus.CREATE_FAILED);
        assertThat(app.op(alices).mergeRequest()).as("opened on GitLab, not recorded").isEmpty();
        var orphan = app.gitlab.findBySourceBranch(FakeTargets.PROJECT, MergeRequestTexts.branchOf(alices)).orElseThrow();

        var own = bobAsksHimself();
        app.queue.runUntilIdle();

        assertThat(own).isInstanceOf(Result.Accepted.class);
        var bobs = ((Result.Accepted) own).request().operationId();
        assertSuperseded(alices);
        assertThat(app.gitlab.get(FakeTargets.PROJECT, orphan.iid()).state()).as("alice's, found by her request's branch")
                .isEqualTo(MergeRequestState.CLOSED);
        assertThat(app.op(alices).mergeRequest()).hasValueSatisfying(mr -> assertThat(mr.iid()).isEqualTo(orphan.iid()));
        assertThat(app.op(alices).step()).isEqualTo(StepStatus.CLOSE_DONE);
        assertThat(app.gitlab.mergeRequestsOf(FakeTargets.PROJECT).stream()
                .filter(iid -> app.gitlab.get(FakeTargets.PROJECT, iid).state() == MergeRequestState.OPENED))
                .as("only bob's own is open").containsExactly(app.mr(bobs).iid());
    }
}
