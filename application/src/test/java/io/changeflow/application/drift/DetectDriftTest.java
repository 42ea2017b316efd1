package io.changeflow.application.drift;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.fake.FakeDrifts;
import io.changeflow.application.fake.FakeLineOrigins;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftPolicy;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DetectDriftTest {

    private static final String FILE = "grants/db-prod-readonly.txt";
    private static final String BATCH_FILE = "grants/wiki-editors.txt";
    private static final String HEADER = "# Access grants for target db-prod-readonly, managed by Changeflow.\n"
            + "# One line per subject: <subject> until=<ISO instant|never> op=<operationId>\n";
    private static final String MALLORY = "mallory until=never op=00000000-0000-4000-8000-00000000bad1";

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeDrifts drifts = new FakeDrifts();
    private final FakeLineOrigins origins = new FakeLineOrigins(app.gitlab);
    private final DetectDrift detect = new DetectDrift(app.targets, app.gitlab, origins, app.operations, drifts,
            new RemoveDriftLine(app.operations, app.targets, app.batches, drifts, app.clock), app.clock,
            new DetectDrift.Policy(Duration.ofMinutes(5), Duration.ofSeconds(30)));

    /** The single-MR target reports only (the tests of what is found and kept). */
    private void reportOnly() {
        app.targets.add(app.targets.find(FakeTargets.SINGLE).orElseThrow().withDrift(DriftPolicy.REPORT));
        app.targets.add(app.targets.find(FakeTargets.BATCHABLE).orElseThrow().withDrift(DriftPolicy.REPORT));
    }

    private DetectDrift.Result run() {
        var result = detect.run(new DetectDrift.Command());
        app.clock.advance(Duration.ofMinutes(5));
        return result;
    }

    private String main() {
        return app.gitlab.fileOn(FakeTargets.PROJECT, "main", FILE).orElse("");
    }

    private List<DriftItem> open() {
        return drifts.list(io.changeflow.application.port.out.Drifts.Query.in(DriftStatus.ACTIVE, 100));
    }

    @Test
    void theFirstRunImportsTheLinesAlreadyThereAsTheBaselineAndNeverAsDriftToRemove() {
        reportOnly();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n# ask Sam first\n");

        var first = run();

        assertThat(first.checked()).isEqualTo(2);
        assertThat(first.baselineLines()).isEqualTo(1);
        assertThat(first.notGrants()).isEqualTo(1);
        assertThat(open()).extracting(DriftItem::kind).containsExactlyInAnyOrder(DriftKind.BASELINE, DriftKind.NOT_A_GRANT);
        assertThat(open()).noneMatch(i -> i.kind().removable());

        var second = run();

        assertThat(second.found()).isZero();
        assertThat(second.resolved()).isZero();
        assertThat(open()).extracting(DriftItem::kind).containsExactlyInAnyOrder(DriftKind.BASELINE, DriftKind.NOT_A_GRANT);
    }

    @Test
    void aLineAPersonAddsAfterTheBaselineIsAnItemWithItsCommitAndAuthorReadOnceAndSeenAgainWithoutAnotherBlame() {
        reportOnly();
        run();
        var readsBefore = app.gitlab.calls().getOrDefault("readFile", 0);

        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        var found = run();

        assertThat(found.unapprovedLines()).isEqualTo(1);
        assertThat(app.gitlab.calls().get("readFile") - readsBefore).as("one read of each target's file").isEqualTo(2);
        assertThat(origins.calls).as("one blame, of the file with a new item").isEqualTo(1);
        var item = open().getFirst();
        assertThat(item.kind()).isEqualTo(DriftKind.UNAPPROVED_LINE);
        assertThat(item.subject()).contains(SubjectId.of("mallory"));
        assertThat(item.line()).isEqualTo(MALLORY);
        assertThat(item.evidence().author()).contains("Mallory Hand");
        assertThat(item.evidence().commitSha()).contains(origins.commit);
        var firstSeen = item.firstSeen();

        var again = run();

        assertThat(again.found()).isZero();
        assertThat(origins.calls).as("no blame for an item known already").isEqualTo(1);
        assertThat(open()).singleElement().satisfies(i -> {
            assertThat(i.id()).isEqualTo(item.id());
            assertThat(i.firstSeen()).isEqualTo(firstSeen);
            assertThat(i.lastSeen()).isAfter(firstSeen);
        });
    }

    @Test
    void anItemWhoseLineIsGoneIsResolved() {
        reportOnly();
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();

        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER);
        var result = run();

        assertThat(result.resolved()).isEqualTo(1);
        assertThat(open()).isEmpty();
        assertThat(drifts.list(io.changeflow.application.port.out.Drifts.Query.in(java.util.Set.of(DriftStatus.RESOLVED), 10)))
                .singleElement().satisfies(i -> assertThat(i.statusActor()).isEqualTo("system"));
    }

    @Test
    void aGrantInEffectHasNoDriftItsHandEditIsReportedAndItsMissingLineToo() {
        var until = app.clock.instant().plus(Duration.ofDays(30));
        var op = app.grantInEffect("alice", "alice", until);
        run();
        assertThat(open()).isEmpty();

        var edited = main().replace(until.toString(), "2099-01-01T00:00:00Z");
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, edited);
        var result = run();

        assertThat(result.editedLines()).isEqualTo(1);
        assertThat(open()).singleElement().satisfies(i -> {
            assertThat(i.kind()).isEqualTo(DriftKind.EDITED_LINE);
            assertThat(i.operation()).contains(op);
            assertThat(i.kind().removable()).isFalse();
        });

        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER);
        var missing = run();

        assertThat(missing.missingLines()).isEqualTo(1);
        assertThat(missing.resolved()).as("the edited line is gone").isEqualTo(1);
        assertThat(open()).singleElement().satisfies(i -> assertThat(i.kind()).isEqualTo(DriftKind.MISSING_LINE));
    }

    @Test
    void aTargetGitLabCannotBeAskedAboutIsSkippedAndItsItemsStayAsTheyAre() {
        reportOnly();
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();

        app.gitlab.failNext("readFile", 2, () -> ExternalCallException.status("gitlab", 503, "503"));
        var result = run();

        assertThat(result.unreadable()).isEqualTo(2);
        assertThat(result.checked()).isZero();
        assertThat(result.resolved()).isZero();
        assertThat(open()).singleElement().satisfies(i -> assertThat(i.status()).isEqualTo(DriftStatus.OPEN));
    }

    @Test
    void aFailedBlameStoresTheNewItemWithoutEvidence() {
        reportOnly();
        run();
        origins.failing = true;
        app.gitlab.editMain(FakeTargets.PROJECT, BATCH_FILE, MALLORY + "\n");

        var result = run();

        assertThat(result.unapprovedLines()).isEqualTo(1);
        assertThat(open()).singleElement().satisfies(i -> assertThat(i.evidence().commitSha()).isEmpty());
    }

    @Test
    void anAcknowledgedItemStaysAcknowledgedWhileItsLineIsThere() {
        reportOnly();
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();
        var item = open().getFirst();
        drifts.move(item, DriftStatus.ACKNOWLEDGED, "otto", "a test account", app.clock.instant(), Optional.empty());

        var result = run();

        assertThat(result.found()).isZero();
        assertThat(drifts.find(item.id()).orElseThrow().status()).isEqualTo(DriftStatus.ACKNOWLEDGED);
    }

    @Test
    void theIntervalFallsBackToFiveMinutesWhenMissingGarbledZeroOrNegativeNeverOff() {
        assertThat(DetectDrift.Policy.of(RawValue.of("30s"), new RawValue(Optional.empty())).every())
                .isEqualTo(Duration.ofSeconds(30));
        for (var garbled : new String[] {"", " ", "off", "0", "-5m", "never", "5 minutes"}) {
            assertThat(DetectDrift.Policy.of(RawValue.of(garbled), RawValue.of("garbled")))
                    .as(garbled).isEqualTo(DetectDrift.Policy.defaults());
        }
        assertThat(DetectDrift.Policy.of(RawValue.of("1m"), RawValue.of("-1s")).settle()).isEqualTo(Duration.ofSeconds(30));
        assertThat(DetectDrift.Policy.of(RawValue.of("1m"), RawValue.of("0")).settle()).isZero();
        assertThat(DetectDrift.Policy.of(new RawValue(Optional.empty()), new RawValue(Optional.empty())))
                .isEqualTo(DetectDrift.Policy.defaults());
        assertThat(DetectDrift.Policy.defaults().every()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aRowWrittenJustBeforeTheReadIsLeftForTheNextRun() {
        run();
        var until = app.clock.instant().plus(Duration.ofDays(30));
        app.grantInEffect("alice", "alice", until);
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER);

        var soon = detect.run(new DetectDrift.Command());

        assertThat(soon.missingLines()).as("the row was written within the settle time").isZero();
        app.clock.advance(Duration.ofMinutes(1));
        assertThat(detect.run(new DetectDrift.Command()).missingLines()).isEqualTo(1);
    }


    @Test
    void onARemoveTargetALineNobodyApprovedIsRemovedThroughTheRemovalRoundAndItsItemResolvedOnceGone() {
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");

        var found = run();

        assertThat(found.removalsOpened()).isEqualTo(1);
        var item = open().getFirst();
        assertThat(item.status()).isEqualTo(DriftStatus.REMOVING);
        var removal = item.removal().orElseThrow();
        assertThat(app.op(removal).kind()).isEqualTo(io.changeflow.domain.state.ChangeKind.REVOCATION);
        assertThat(app.op(removal).binding()).contains(io.changeflow.domain.state.BindingStatus.REVOKING);

        var whileRunning = run();
        assertThat(whileRunning.resolved()).as("the line is still on main").isZero();
        assertThat(whileRunning.removalsOpened()).isZero();

        app.scheduledBatchRounds.run(new io.changeflow.application.batch.RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(removal);
        assertThat(main()).doesNotContain("mallory");
        assertThat(app.op(removal).binding()).contains(io.changeflow.domain.state.BindingStatus.REVOKED);
        assertThat(run().resolved()).as("the row was written just before the read: left for the next run").isZero();

        var after = run();

        assertThat(after.resolved()).isEqualTo(1);
        assertThat(after.found()).isZero();
        assertThat(open()).isEmpty();
    }

    @Test
    void aLineOfARequestStillInProgressIsLeftOpenUntilTheRequestEnds() {
        run();
        var waiting = app.submittedApprovingFirst("eve");
        var eveLine = "eve until=never op=" + waiting.value();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + eveLine + "\n");
        app.clock.advance(Duration.ofMinutes(1));

        var found = run();

        assertThat(found.unapprovedLines()).isEqualTo(1);
        assertThat(found.removalsOpened()).as("eve's row is owned by her request").isZero();
        assertThat(open()).singleElement().satisfies(i -> assertThat(i.status()).isEqualTo(DriftStatus.OPEN));
    }

    @Test
    void anOperatorsRemovalOfAReportedLineOpensTheRemovalAndMarksTheItemRemoving() {
        reportOnly();
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();
        var item = open().getFirst();
        var removeLine = new RemoveDriftLine(app.operations, app.targets, app.batches, drifts, app.clock);

        var removal = removeLine.open(item, "otto", "not ours");

        assertThat(removal).isPresent();
        assertThat(drifts.find(item.id()).orElseThrow().status()).isEqualTo(DriftStatus.REMOVING);
        assertThat(app.op(removal.get()).reason()).contains("not ours");
        assertThat(removeLine.open(drifts.find(item.id()).orElseThrow(), "otto", "again")).as("already removing").isEmpty();
    }
    private OperationId adopt(DriftItem item) {
        var act = new ActOnDrift(drifts, (i, actor, reason) -> Optional.empty(), app.submit, app.audit, app.clock);
        var result = act.act(new ActOnDrift.Command(String.valueOf(item.id()), new ActOnDrift.Action.Adopt(null), "otto",
                Map.of()));
        assertThat(result).isInstanceOf(ActOnDrift.Result.Done.class);
        return ((ActOnDrift.Result.Done) result).request().orElseThrow();
    }

    /**
     * Issue 36: an adoption the approver refuses leaves the line nobody approved on main; the item does not stay ADOPTED
     * (nobody would look at it again) but is OPEN again for an operator, naming the request that ended. A baseline line
     * is never removed by itself, so it waits for the operator.
     */
    @Test
    void anAdoptedBaselineLineWhoseRequestTheApproverRefusesIsOpenAgainForAnOperator() {
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();
        var item = open().stream().filter(i -> i.kind() == DriftKind.BASELINE).findFirst().orElseThrow();
        var request = adopt(item);
        assertThat(drifts.find(item.id()).orElseThrow().removal()).as("the item names its adopting request").contains(request);
        app.queue.runUntilIdle();
        run();
        assertThat(drifts.find(item.id()).orElseThrow().status()).as("the request is in progress").isEqualTo(DriftStatus.ADOPTED);

        app.decide(request, HandleApprovalCallback.Decision.REJECTED);
        assertThat(app.op(request).binding()).contains(BindingStatus.REJECTED);
        app.clock.advance(Duration.ofMinutes(1));
        run();

        var now = drifts.find(item.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(DriftStatus.OPEN);
        assertThat(now.statusNote()).contains(request.value()).contains("REJECTED").contains("without a grant");
        assertThat(now.removal()).as("no longer names the adopting request").isEmpty();
        assertThat(ActOnDrift.allowedActions(now)).contains("REMOVE", "ADOPT", "ACKNOWLEDGE");
        assertThat(main()).as("a baseline line is never removed by itself").contains(MALLORY);
    }

    /**
     * A line nobody approved, adopted, whose request an operator closes: OPEN again, and on a removing target the same run
     * opens its removal.
     */
    @Test
    void anAdoptedLineWhoseRequestIsClosedIsOpenAgainAndRemovedByTheNextRunOnARemovingTarget() {
        reportOnly();
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();
        var item = open().getFirst();
        assertThat(item.kind()).isEqualTo(DriftKind.UNAPPROVED_LINE);
        var request = adopt(item);
        app.queue.runUntilIdle();
        app.targets.add(app.targets.find(FakeTargets.SINGLE).orElseThrow().withDrift(DriftPolicy.REMOVE));

        app.closeRequest.close(new io.changeflow.application.recovery.CloseChangeRequest.Command(request.value(), "otto",
                Map.of()));
        app.queue.runUntilIdle();
        assertThat(app.op(request).binding()).contains(BindingStatus.CLOSED);
        app.clock.advance(Duration.ofMinutes(1));
        var result = run();

        assertThat(result.removalsOpened()).isEqualTo(1);
        var now = drifts.find(item.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(DriftStatus.REMOVING);
        var removal = now.removal().orElseThrow();
        assertThat(removal).isNotEqualTo(request);
        assertThat(app.op(removal).kind()).isEqualTo(io.changeflow.domain.state.ChangeKind.REVOCATION);
    }

    /** An adoption the approver says yes to: its merge rewrites the line, and the item is resolved. */
    @Test
    void anAdoptedLineWhoseRequestTakesEffectIsResolved() {
        reportOnly();
        run();
        app.gitlab.editMain(FakeTargets.PROJECT, FILE, HEADER + MALLORY + "\n");
        run();
        var item = open().getFirst();
        var request = adopt(item);

        app.approveAndRun(request);
        app.deployed(request);
        assertThat(app.op(request).binding()).contains(BindingStatus.VALIDATED);
        app.clock.advance(Duration.ofMinutes(1));
        run();

        assertThat(drifts.find(item.id()).orElseThrow().status()).isEqualTo(DriftStatus.RESOLVED);
        assertThat(main()).doesNotContain(MALLORY).contains("mallory until=never op=" + request.value());
        assertThat(open()).isEmpty();
    }
}
