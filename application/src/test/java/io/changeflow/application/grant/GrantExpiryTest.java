package io.changeflow.application.grant;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import io.changeflow.domain.hint.Hint;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.RetriggerStep;
import java.util.Map;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 18, items 1 and 4: expiry as a change, through the batch machinery's removal rounds. */
class GrantExpiryTest {

    private static final String SINGLE_FILE = "grants/db-prod-readonly.txt";
    private static final String BATCH_FILE = "grants/wiki-editors.txt";

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    /** A grant of {@code subject} on {@code target} until {@code until}, taken all the way to VALIDATED. */
    private OperationId validated(TargetKey target, String subject, Instant until) {
        var op = app.approvedGrant(subject, target, subject, until);
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(op);
        assertThat(app.op(op).binding()).contains(BindingStatus.VALIDATED);
        return op;
    }

    /** A grant of {@code subject} on the single-MR target, expired an hour later and its removal merged. */
    private void expiredAndRemoved(String subject) {
        validated(FakeTargets.SINGLE, subject, app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        roundsAndDeploy();
    }

    private String main(String file) {
        return app.gitlab.fileOn(FakeTargets.PROJECT, "main", file).orElse("");
    }

    private OperationId ownerOf(TargetKey target, String subject) {
        return app.operations.binding(SubjectId.of(subject), target).orElseThrow().operationId();
    }

    private void roundsAndDeploy() {
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
    }

    @Test
    void expiredGrantsAreRemovedByOneMergeRequestPerFileAndEndExpired() {
        var now = app.clock.instant();
        var alice = validated(FakeTargets.SINGLE, "alice", now.plus(Duration.ofHours(1)));
        var bob = validated(FakeTargets.SINGLE, "bob", now.plus(Duration.ofHours(1)));
        var carol = validated(FakeTargets.BATCHABLE, "carol", now.plus(Duration.ofHours(1)));
        var dave = validated(FakeTargets.SINGLE, "dave", now.plus(Duration.ofDays(3)));
        assertThat(main(SINGLE_FILE)).contains("alice until=", "bob until=", "dave until=");
        var opensBefore = app.gitlab.opens();

        app.clock.advance(Duration.ofHours(2));
        var result = app.expireGrants.run(new ExpireGrants.Command());
        assertThat(result.due()).isEqualTo(3);
        assertThat(result.opened()).isEqualTo(3);

        var aliceRemoval = ownerOf(FakeTargets.SINGLE, "alice");
        assertThat(app.op(aliceRemoval).kind()).isEqualTo(ChangeKind.EXPIRY);
        assertThat(app.op(aliceRemoval).binding()).contains(BindingStatus.EXPIRING);
        assertThat(app.op(aliceRemoval).removes()).contains(alice);
        assertThat(app.op(alice).binding()).as("the grant no longer owns the row").isEmpty();
        assertThat(app.batches.isWaiting(aliceRemoval)).isTrue();

        roundsAndDeploy();
        // one merge request for db-prod-readonly's file (alice and bob), one for wiki-editors' (carol)
        assertThat(app.gitlab.opens() - opensBefore).isEqualTo(2);
        assertThat(main(SINGLE_FILE)).doesNotContain("alice until=").doesNotContain("bob until=").contains("dave until=");
        assertThat(main(BATCH_FILE)).doesNotContain("carol until=");
        var bobRemoval = ownerOf(FakeTargets.SINGLE, "bob");
        assertThat(app.mr(aliceRemoval)).isEqualTo(app.mr(bobRemoval));
        assertThat(app.op(aliceRemoval).binding()).contains(BindingStatus.MERGED);
        // no approval was asked for the removal
        assertThat(app.approvals.formOf(aliceRemoval)).isEmpty();

        app.deployed(aliceRemoval);
        app.deployed(ownerOf(FakeTargets.BATCHABLE, "carol"));
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
        assertThat(app.operations.binding(SubjectId.of("bob"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
        assertThat(app.operations.binding(SubjectId.of("carol"), FakeTargets.BATCHABLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
        assertThat(app.op(dave).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.operations.history(aliceRemoval)).extracting(h -> h.event()).containsExactly(
                WorkflowEvent.EXPIRY_DUE, WorkflowEvent.BATCH_CLAIMED, WorkflowEvent.BATCH_MERGED, WorkflowEvent.DEPLOYED);
        assertThat(carol).isNotNull();
    }

    /**
     * Issue 36, item 4: a removal blamed for its batch's failure on a target that is not batchable used to be stuck
     * for good (re-trigger went to re-admission, which refused non-batchable targets; closing is refused for removals).
     */
    @Test
    void aRemovalBlamedForItsFailedBatchOnANonBatchableTargetIsRetriggeredAndRemovesTheLine() {
        var grant = validated(FakeTargets.SINGLE, "erin", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        app.gitlab.nextPipeline(io.changeflow.application.port.out.MergeRequests.PipelineStatus.FAILED);
        roundsAndDeploy();
        var removal = ownerOf(FakeTargets.SINGLE, "erin");
        app.assertState(removal, BindingStatus.HANDLE_FAILED, io.changeflow.domain.state.StepStatus.BATCH_PIPELINE_FAILED);
        assertThat(main(SINGLE_FILE)).contains("erin until=");

        var retriggered = app.retrigger.retrigger(new io.changeflow.application.recovery.RetriggerStep.Command(
                removal.value(), "otto", java.util.Map.of()));

        assertThat(retriggered).isInstanceOf(io.changeflow.application.recovery.RetriggerStep.Result.Retriggered.class);
        assertThat(app.op(removal).binding()).contains(BindingStatus.BATCH_WAITING);
        // the maintainers fixed what broke the pipeline
        app.gitlab.nextPipeline(io.changeflow.application.port.out.MergeRequests.PipelineStatus.PASSED);
        roundsAndDeploy();
        assertThat(app.op(removal).binding()).as(app.op(removal).toString()).contains(BindingStatus.MERGED);
        app.deployed(removal);
        assertThat(main(SINGLE_FILE)).doesNotContain("erin until=");
        assertThat(app.operations.binding(SubjectId.of("erin"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
        assertThat(app.op(removal).removes()).contains(grant);
    }

    /**
     * Issue 36, item 4: a removal whose target left the catalog used to be stuck for good (re-admission refused it,
     * closing is refused for removals). Re-triggering now says what to do; an operator's close ends it with the grant
     * kept as last known (REMOVAL_REJECTED: nothing was removed), never EXPIRED, audited. On a catalog target a removal
     * is still not closed: it is re-triggered.
     */
    @Test
    void aFailedRemovalWhoseTargetLeftTheCatalogIsClosedByAnOperatorWithoutClaimingTheLineRemoved() {
        validated(FakeTargets.SINGLE, "frank", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        app.gitlab.nextPipeline(io.changeflow.application.port.out.MergeRequests.PipelineStatus.FAILED);
        roundsAndDeploy();
        var removal = ownerOf(FakeTargets.SINGLE, "frank");
        app.assertState(removal, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_PIPELINE_FAILED);
        var onCatalogTarget = app.closeRequest.close(new CloseChangeRequest.Command(removal.value(), "otto", Map.of()));
        assertThat(onCatalogTarget).isInstanceOfSatisfying(CloseChangeRequest.Result.NotAllowed.class,
                refused -> assertThat(refused.reason()).contains("re-trigger"));

        app.targets.remove(FakeTargets.SINGLE);
        var retriggered = app.retrigger.retrigger(new RetriggerStep.Command(removal.value(), "otto", Map.of()));
        assertThat(retriggered).isInstanceOfSatisfying(RetriggerStep.Result.NothingToRetrigger.class,
                refused -> assertThat(refused.reason()).contains("no longer in the catalog", "close the removal"));
        var closed = app.closeRequest.close(new CloseChangeRequest.Command(removal.value(), "otto", Map.of()));

        assertThat(closed).isInstanceOf(CloseChangeRequest.Result.Closed.class);
        app.assertState(removal, BindingStatus.REMOVAL_REJECTED, StepStatus.CLOSED_BY_OPERATOR, Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(removal).getLast().detail()).contains("nothing was removed");
        assertThat(app.operations.history(removal).getLast().actor()).isEqualTo("otto");
        assertThat(app.audit.about(removal.value())).extracting(e -> e.action() + "/" + e.parameters().get("result"))
                .contains("CLOSE/Closed");
        assertThat(main(SINGLE_FILE)).contains("frank until=");
    }

    /**
     * Issue 36, item 4: an expiry opened after its target left the catalog can be admitted to no removal round (the
     * rounds follow the catalog) and used to stay EXPIRING for good; an operator closes it, nothing claimed removed.
     */
    @Test
    void aRemovalWaitingForTheRoundOfATargetThatLeftTheCatalogIsClosedByAnOperator() {
        validated(FakeTargets.SINGLE, "hugo", app.clock.instant().plus(Duration.ofHours(1)));
        app.targets.remove(FakeTargets.SINGLE);
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        roundsAndDeploy();
        var removal = ownerOf(FakeTargets.SINGLE, "hugo");
        app.assertState(removal, BindingStatus.EXPIRING, StepStatus.BATCH_WAITING);

        var closed = app.closeRequest.close(new CloseChangeRequest.Command(removal.value(), "otto", Map.of()));

        assertThat(closed).isInstanceOf(CloseChangeRequest.Result.Closed.class);
        app.assertState(removal, BindingStatus.REMOVAL_REJECTED, StepStatus.CLOSED_BY_OPERATOR, Hint.CONTACT_MAINTAINERS);
        app.expireGrants.run(new ExpireGrants.Command());
        assertThat(ownerOf(FakeTargets.SINGLE, "hugo")).as("a closed expiry is not opened again").isEqualTo(removal);
    }

    @Test
    void anExpiredGrantCanBeAppliedForAgainAndReachesValidated() {
        expiredAndRemoved("alice");
        app.deployed(ownerOf(FakeTargets.SINGLE, "alice"));

        var again = validated(FakeTargets.SINGLE, "alice", app.clock.instant().plus(Duration.ofDays(1)));
        assertThat(app.operations.bindingsOf(SubjectId.of("alice"))).singleElement().satisfies(row -> {
            assertThat(row.operationId()).isEqualTo(again);
            assertThat(row.status()).isEqualTo(BindingStatus.VALIDATED);
        });
        assertThat(main(SINGLE_FILE)).contains("alice until=").contains("op=" + again.value());
    }

    @Test
    void aGrantNotYetExpiredStaysUnlessWithinTheGrace() {
        var soon = validated(FakeTargets.SINGLE, "alice", app.clock.instant().plus(Duration.ofMinutes(5)));
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).due()).isZero();
        assertThat(app.op(soon).binding()).contains(BindingStatus.VALIDATED);

        var withGrace = new ExpireGrants(app.operations, app.batches, app.targets, app.launcher, app.approvalCheck,
                app.closeRequest, ExpireGrants.Policy.of(RawValue.of("10m"), RawValue.missing()));
        assertThat(withGrace.run(new ExpireGrants.Command()).opened()).isEqualTo(1);
        assertThat(app.operations.binding(SubjectId.of("alice"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRING);
    }

    @Test
    void aGrantWithoutExpiryNeverExpires() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.approvedAndRun("erin");
        app.deployed(id);
        app.clock.advance(Duration.ofDays(400));
        assertThat(app.expireGrants.run(new ExpireGrants.Command()).due()).isZero();
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
    }

    /** Commits {@code from} replaced by {@code to} in {@code file} on main, as a person would. */
    private void editByHand(String file, String from, String to) {
        assertThat(main(file)).contains(from);
        app.gitlab.commit(FakeTargets.PROJECT, "main", "hand edit", List.of(new FileChange(file, main(file).replace(from, to))));
    }

    /**
     * Issue 36, item 4: the removal of a line edited by hand on main (another until) takes nothing out and never claims
     * it did: it ends with a person (HANDLE_FAILED, contact the maintainers) saying why, never EXPIRED while main grants;
     * its neighbour in the same removal round still ends EXPIRED. It used to end EXPIRED with the edited line on main.
     */
    @Test
    void aRemovalOfALineEditedByHandRemovesNothingAndEndsWithAPersonNeverExpired() {
        var alice = validated(FakeTargets.SINGLE, "alice", app.clock.instant().plus(Duration.ofHours(1)));
        validated(FakeTargets.SINGLE, "bob", app.clock.instant().plus(Duration.ofHours(1)));
        editByHand(SINGLE_FILE, "alice until=" + app.op(alice).expiresAt().orElseThrow(), "alice until=2027-01-31T00:00:00Z");
        app.gitlab.commit(FakeTargets.PROJECT, "main", "a note", List.of(new FileChange(SINGLE_FILE,
                main(SINGLE_FILE) + "a note somebody wrote\n")));

        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        for (var round = 0; round < 4; round++) {
            roundsAndDeploy();
        }
        var bobRemoval = ownerOf(FakeTargets.SINGLE, "bob");
        app.deployed(bobRemoval);

        assertThat(main(SINGLE_FILE)).contains("alice until=2027-01-31T00:00:00Z").contains("a note somebody wrote")
                .doesNotContain("bob until=");
        assertThat(app.operations.binding(SubjectId.of("bob"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
        var aliceRemoval = ownerOf(FakeTargets.SINGLE, "alice");
        app.assertState(aliceRemoval, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_PIPELINE_FAILED, Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(aliceRemoval)).extracting(h -> h.event()).doesNotContain(WorkflowEvent.BATCH_MERGED);
        assertThat(app.operations.history(aliceRemoval).getLast().detail())
                .contains("alice", "edited by hand", "alice until=2027-01-31T00:00:00Z", "reverts the edit", "adopts");
    }

    /**
     * Issue 36, item 4: a hand edit that lands on main after the removal's batch branch was created makes its rebase
     * conflict; generating the change again on main finds the edited line and the removal ends with a person, not
     * EXPIRED.
     */
    @Test
    void aHandEditLandingAfterTheRemovalsMergeRequestOpenedIsFoundWhenItsChangeIsGeneratedAgain() {
        var grant = validated(FakeTargets.SINGLE, "gina", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        app.gitlab.nextNeedRebase(true, io.changeflow.application.port.out.MergeRequests.PipelineStatus.PASSED);
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        var removal = ownerOf(FakeTargets.SINGLE, "gina");
        while (app.operations.find(removal.value()).flatMap(op -> op.mergeRequest()).isEmpty() && app.queue.runNext()) {
            // until the batch's merge request is open
        }
        assertThat(app.op(removal).mergeRequest()).isPresent();
        editByHand(SINGLE_FILE, "gina until=" + app.op(grant).expiresAt().orElseThrow(), "gina until=2027-03-01T00:00:00Z");

        roundsAndDeploy();

        app.assertState(removal, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_PIPELINE_FAILED, Hint.CONTACT_MAINTAINERS);
        assertThat(app.operations.history(removal).getLast().detail()).contains("edited by hand", "gina until=2027-03-01");
        assertThat(main(SINGLE_FILE)).contains("gina until=2027-03-01T00:00:00Z");
        assertThat(app.operations.history(removal)).extracting(h -> h.event()).doesNotContain(WorkflowEvent.BATCH_MERGED);
    }

    /**
     * Issue 36, item 4: a line of the subject whose operation was changed by hand (text the format cannot parse) is
     * not the grant's either; once an operator reverted the edit, re-triggering the removal takes the line out and
     * only then ends EXPIRED.
     */
    @Test
    void aRemovalOfALineWhoseOperationWasEditedByHandEndsWithAPersonAndRemovesTheLineOnceReverted() {
        var grant = validated(FakeTargets.SINGLE, "carol", app.clock.instant().plus(Duration.ofHours(1)));
        var line = app.op(grant).expiresAt().map(until -> "carol until=" + until + " op=" + grant.value()).orElseThrow();
        editByHand(SINGLE_FILE, line, "carol until=" + app.op(grant).expiresAt().orElseThrow() + " op=set-by-hand");

        app.clock.advance(Duration.ofHours(2));
        app.expireGrants.run(new ExpireGrants.Command());
        roundsAndDeploy();
        var removal = ownerOf(FakeTargets.SINGLE, "carol");
        app.assertState(removal, BindingStatus.HANDLE_FAILED, StepStatus.BATCH_PIPELINE_FAILED);
        assertThat(main(SINGLE_FILE)).contains("carol until=").contains("op=set-by-hand");

        editByHand(SINGLE_FILE, "op=set-by-hand", "op=" + grant.value());
        var retriggered = app.retrigger.retrigger(new RetriggerStep.Command(removal.value(), "otto", Map.of()));
        assertThat(retriggered).isInstanceOf(RetriggerStep.Result.Retriggered.class);
        roundsAndDeploy();
        app.deployed(removal);

        assertThat(main(SINGLE_FILE)).doesNotContain("carol until=");
        assertThat(app.operations.binding(SubjectId.of("carol"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);
    }

    @Test
    void aRemovalWhoseAdmissionWasLostIsAdmittedByTheNextRun() {
        validated(FakeTargets.SINGLE, "alice", app.clock.instant().plus(Duration.ofHours(1)));
        app.clock.advance(Duration.ofHours(2));
        app.batches.failNextAdmit(new IllegalStateException("the instance died before admitting"));
        try {
            app.expireGrants.run(new ExpireGrants.Command());
        } catch (IllegalStateException expected) {
            // the run stopped after opening the removal
        }
        var removal = ownerOf(FakeTargets.SINGLE, "alice");
        assertThat(app.batches.isWaiting(removal)).isFalse();

        app.clock.advance(Duration.ofMinutes(1));
        var next = app.expireGrants.run(new ExpireGrants.Command());
        assertThat(next.due()).isZero();
        assertThat(next.admitted()).isEqualTo(1);
        assertThat(app.batches.isWaiting(removal)).isTrue();
    }

    @Test
    void theGraceIsFailSafe() {
        assertThat(ExpireGrants.Policy.of(RawValue.missing(), RawValue.missing())).isEqualTo(ExpireGrants.Policy.defaults());
        assertThat(ExpireGrants.Policy.of(RawValue.of("garbled"), RawValue.of("x")).grace()).isZero();
        assertThat(ExpireGrants.Policy.of(RawValue.of("-5m"), RawValue.missing()).grace()).isZero();
        assertThat(ExpireGrants.Policy.of(RawValue.of("PT-5M"), RawValue.missing()).grace()).isZero();
        assertThat(ExpireGrants.Policy.of(RawValue.of("90s"), RawValue.missing()).grace()).isEqualTo(Duration.ofSeconds(90));
        assertThat(ExpireGrants.Policy.of(RawValue.missing(), RawValue.of("0")).every()).isEqualTo(Duration.ofMinutes(1));
        assertThat(ExpireGrants.Policy.of(RawValue.missing(), RawValue.of("5s")).every()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void anOperatorConfirmsAnUnconfirmedRemovalInEffectAndItEndsExpired() {
        expiredAndRemoved("gus");
        var removal = ownerOf(FakeTargets.SINGLE, "gus");
        app.clock.advance(Duration.ofHours(3));
        app.deployDeadline.run(new io.changeflow.application.deploy.DeployDeadline.Command());
        assertThat(app.op(removal).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);

        var command = new io.changeflow.application.deploy.DeployActionCommand(removal.value(), "otto", java.util.Map.of());
        assertThat(app.confirmDeployed.confirm(command)).isEqualTo(
                new io.changeflow.application.deploy.ConfirmDeployed.Result.Confirmed(removal, BindingStatus.EXPIRED));
        assertThat(app.op(removal).binding()).contains(BindingStatus.EXPIRED);
        assertThat(app.confirmDeployed.confirm(command))
                .isInstanceOf(io.changeflow.application.deploy.ConfirmDeployed.Result.AlreadyInEffect.class);
    }
}
