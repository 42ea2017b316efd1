package io.changeflow.application.drift;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeDrifts;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An operator's actions on drift items (issue 36, item 2): each moves the item by the table and is audited. */
class ActOnDriftTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final FakeDrifts drifts = new FakeDrifts();
    private final List<DriftItem> removalsOpened = new ArrayList<>();
    private Optional<OperationId> removalAnswer = Optional.of(OperationId.of("0b0b0000-0000-4000-8000-000000000001"));
    private final ActOnDrift act = new ActOnDrift(drifts, (item, actor, reason) -> {
        removalsOpened.add(item);
        return removalAnswer;
    }, app.submit, app.audit, app.clock);

    private DriftItem found(DriftKind kind, String subject, String line) {
        return found(FakeTargets.SINGLE, kind, subject, line);
    }

    private DriftItem found(TargetKey target, DriftKind kind, String subject, String line) {
        var finding = new Finding(kind, Optional.ofNullable(subject).map(SubjectId::of), line, Optional.empty(),
                "found in a test");
        var evidence = new Evidence(Optional.of("c0ffee"), Optional.of("mallory"), Optional.of(app.clock.instant()));
        var ids = drifts.record(target, List.of(new Drifts.Sighting(finding, evidence)), "c0ffee", app.clock.instant());
        return drifts.find(ids.getFirst()).orElseThrow();
    }

    private ActOnDrift.Result run(long id, ActOnDrift.Action action) {
        return act.act(new ActOnDrift.Command(String.valueOf(id), action, "otto", Map.of("ip", "10.0.0.1")));
    }

    private DriftStatus statusOf(DriftItem item) {
        return drifts.find(item.id()).orElseThrow().status();
    }

    private List<io.changeflow.application.port.out.AuditLog.Entry> auditOf(DriftItem item) {
        return app.audit.about("drift:" + item.id());
    }

    @Test
    void anAcknowledgementKeepsTheLineWithTheOperatorsReasonAndIsAudited() {
        var item = found(DriftKind.EDITED_LINE, "alice", "alice until=never op=0a0a0000-0000-4000-8000-000000000009");

        var result = run(item.id(), new ActOnDrift.Action.Acknowledge("  agreed with the team lead on the phone "));

        assertThat(result).isInstanceOf(ActOnDrift.Result.Done.class);
        var now = drifts.find(item.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(DriftStatus.ACKNOWLEDGED);
        assertThat(now.statusActor()).isEqualTo("otto");
        assertThat(now.statusNote()).contains("agreed with the team lead on the phone");
        assertThat(auditOf(item)).singleElement().satisfies(entry -> {
            assertThat(entry.actor()).isEqualTo("otto");
            assertThat(entry.action()).isEqualTo("ACKNOWLEDGE_DRIFT");
            assertThat(entry.parameters()).containsEntry("result", "ACKNOWLEDGED").containsEntry("ip", "10.0.0.1")
                    .containsEntry("kind", "EDITED_LINE");
        });
    }

    @Test
    void anAcknowledgementWithoutAReasonIsRefusedAndTheItemStaysOpen() {
        var item = found(DriftKind.NOT_A_GRANT, null, "# call bob before removing anything");

        for (var reason : new String[] {null, "", "   ", "x".repeat(ActOnDrift.REASON_MAX + 1), "bell\u0007"}) {
            var result = run(item.id(), new ActOnDrift.Action.Acknowledge(reason));
            assertThat(result).as("reason %s", reason).isInstanceOf(ActOnDrift.Result.Invalid.class);
            assertThat(((ActOnDrift.Result.Invalid) result).fieldErrors()).singleElement()
                    .satisfies(e -> assertThat(e.field()).isEqualTo("reason"));
        }
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
        assertThat(auditOf(item)).hasSize(5).allSatisfy(e -> assertThat(e.parameters()).containsEntry("result",
                "INVALID_REQUEST"));
    }

    @Test
    void anItemHandledAlreadyAnswersAlreadyHandledAndNothingMoves() {
        var item = found(DriftKind.UNAPPROVED_LINE, "bob", "bob until=never op=0a0a0000-0000-4000-8000-000000000010");
        assertThat(run(item.id(), new ActOnDrift.Action.Acknowledge("known"))).isInstanceOf(ActOnDrift.Result.Done.class);

        assertThat(run(item.id(), new ActOnDrift.Action.Acknowledge("again")))
                .isEqualTo(new ActOnDrift.Result.AlreadyHandled(DriftStatus.ACKNOWLEDGED));
        assertThat(drifts.find(item.id()).orElseThrow().statusNote()).contains("known").doesNotContain("again");
        assertThat(auditOf(item)).extracting(e -> e.parameters().get("result"))
                .containsExactly("ACKNOWLEDGED", "DRIFT_ALREADY_HANDLED");
    }

    @Test
    void anUnknownOrMalformedItemIsNotFoundAndNotAudited() {
        for (var id : new String[] {"999", "abc", "", null, "-1", "1 OR 1=1"}) {
            assertThat(act.act(new ActOnDrift.Command(id, new ActOnDrift.Action.Acknowledge("x"), "otto", Map.of())))
                    .as("id %s", id).isInstanceOf(ActOnDrift.Result.NotFound.class);
        }
        assertThat(app.audit.all()).isEmpty();
    }

    @Test
    void removingOpensTheWorkflowsRemovalOfExactlyThatLineAndTheItemIsRemoving() {
        var item = found(DriftKind.BASELINE, "carol", "carol until=never op=0a0a0000-0000-4000-8000-000000000011");

        var result = run(item.id(), new ActOnDrift.Action.Remove());

        assertThat(removalsOpened).extracting(DriftItem::line).containsExactly(item.line());
        var now = drifts.find(item.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(DriftStatus.REMOVING);
        assertThat(now.removal()).isEqualTo(removalAnswer);
        assertThat(result).isEqualTo(new ActOnDrift.Result.Done(now, removalAnswer));
        assertThat(auditOf(item)).singleElement().satisfies(e -> {
            assertThat(e.action()).isEqualTo("REMOVE_DRIFT");
            assertThat(e.parameters()).containsEntry("operationId", removalAnswer.orElseThrow().value());
        });
    }

    @Test
    void aRemovalTheWorkflowCannotStartNowLeavesTheItemOpen() {
        removalAnswer = Optional.empty();
        var item = found(DriftKind.UNAPPROVED_LINE, "dora", "dora until=never op=0a0a0000-0000-4000-8000-000000000012");

        assertThat(run(item.id(), new ActOnDrift.Action.Remove())).isInstanceOf(ActOnDrift.Result.NotPossible.class);
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
    }

    @Test
    void aMissingLineIsNeitherRemovedNorAdoptedButCanBeAcknowledged() {
        var item = found(DriftKind.MISSING_LINE, "erin", "erin until=never op=0a0a0000-0000-4000-8000-000000000013");
        assertThat(ActOnDrift.allowedActions(item)).containsExactly("ACKNOWLEDGE");

        assertThat(run(item.id(), new ActOnDrift.Action.Remove())).isInstanceOf(ActOnDrift.Result.NotPossible.class);
        assertThat(run(item.id(), new ActOnDrift.Action.Adopt(null))).isInstanceOf(ActOnDrift.Result.NotPossible.class);
        assertThat(removalsOpened).isEmpty();
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
        assertThat(run(item.id(), new ActOnDrift.Action.Acknowledge("restored by hand tomorrow")))
                .isInstanceOf(ActOnDrift.Result.Done.class);
    }

    @Test
    void adoptingOpensAGrantRequestForTheSubjectWithTheUntilGivenRequestedByTheOperator() {
        var item = found(DriftKind.UNAPPROVED_LINE, "frank", "frank until=never op=0a0a0000-0000-4000-8000-000000000014");
        var until = app.clock.instant().plus(Duration.ofDays(30));

        var result = run(item.id(), new ActOnDrift.Action.Adopt(until.toString()));

        assertThat(result).isInstanceOf(ActOnDrift.Result.Done.class);
        var request = ((ActOnDrift.Result.Done) result).request().orElseThrow();
        var op = app.op(request);
        assertThat(op.subject()).isEqualTo(SubjectId.of("frank"));
        assertThat(op.target()).isEqualTo(FakeTargets.SINGLE);
        assertThat(op.requester()).isEqualTo("otto");
        assertThat(op.expiresAt()).contains(until);
        assertThat(op.reason()).contains("drift item " + item.id()).contains(item.line());
        assertThat(op.binding()).as("an approver still decides").isNotEqualTo(Optional.of(BindingStatus.VALIDATED));
        var now = drifts.find(item.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(DriftStatus.ADOPTED);
        assertThat(now.statusNote()).contains(request.value()).contains(until.toString());
        assertThat(auditOf(item)).singleElement().satisfies(e -> {
            assertThat(e.action()).isEqualTo("ADOPT_DRIFT");
            assertThat(e.parameters()).containsEntry("until", until.toString()).containsEntry("operationId", request.value());
        });
    }

    @Test
    void anUntilThatIsNoDateOrInThePastIsAFieldErrorOnUntilAndNothingIsOpened() {
        var item = found(DriftKind.BASELINE, "gina", "gina until=never op=0a0a0000-0000-4000-8000-000000000015");
        var past = app.clock.instant().minus(Duration.ofDays(1)).toString();

        for (var until : new String[] {"next week", past}) {
            var result = run(item.id(), new ActOnDrift.Action.Adopt(until));
            assertThat(result).isInstanceOf(ActOnDrift.Result.Invalid.class);
            assertThat(((ActOnDrift.Result.Invalid) result).fieldErrors()).singleElement()
                    .satisfies(e -> assertThat(e.field()).isEqualTo("until"));
        }
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
        assertThat(app.operations.binding(SubjectId.of("gina"), FakeTargets.SINGLE)).isEmpty();
    }

    @Test
    void adoptingWhileTheSubjectsRequestIsInProgressIsRefusedWithTheSubmissionsAnswer() {
        app.submitAccepted(FakeTargets.SINGLE, "hank");
        var item = found(DriftKind.UNAPPROVED_LINE, "hank", "hank until=never op=0a0a0000-0000-4000-8000-000000000016");

        var result = run(item.id(), new ActOnDrift.Action.Adopt(null));

        assertThat(result).isEqualTo(new ActOnDrift.Result.Refused(new SubmitChangeRequest.Result.RequestInProgress()));
        assertThat(result.code()).isEqualTo("REQUEST_IN_PROGRESS");
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
    }

    @Test
    void contentThatIsNotAGrantLineIsNeitherAdoptedNorRemoved() {
        var item = found(DriftKind.NOT_A_GRANT, null, "# owners: platform team");
        assertThat(ActOnDrift.allowedActions(item)).containsExactly("ACKNOWLEDGE");

        assertThat(run(item.id(), new ActOnDrift.Action.Adopt(null))).isInstanceOf(ActOnDrift.Result.NotPossible.class);
        assertThat(run(item.id(), new ActOnDrift.Action.Remove())).as("nobody's notes are removed")
                .isInstanceOf(ActOnDrift.Result.NotPossible.class);
        assertThat(removalsOpened).isEmpty();
        assertThat(statusOf(item)).isEqualTo(DriftStatus.OPEN);
    }

    @Test
    void anAcknowledgedItemMayStillBeRemovedOrAdoptedButAnAdoptedOneNoMore() {
        var item = found(DriftKind.BASELINE, "ivy", "ivy until=never op=0a0a0000-0000-4000-8000-000000000017");
        run(item.id(), new ActOnDrift.Action.Acknowledge("imported; decide next week"));
        assertThat(ActOnDrift.allowedActions(drifts.find(item.id()).orElseThrow())).containsExactly("REMOVE", "ADOPT");

        assertThat(run(item.id(), new ActOnDrift.Action.Adopt(null))).isInstanceOf(ActOnDrift.Result.Done.class);
        var adopted = drifts.find(item.id()).orElseThrow();
        assertThat(ActOnDrift.allowedActions(adopted)).isEmpty();
        assertThat(run(item.id(), new ActOnDrift.Action.Remove()))
                .isEqualTo(new ActOnDrift.Result.AlreadyHandled(DriftStatus.ADOPTED));
        assertThat(removalsOpened).isEmpty();
    }

    @Test
    void theDriftOfAPersonIsOnTheirOwnPageAndOnTheirRequestersButNoOneElses() {
        app.submitAccepted(FakeTargets.SINGLE, "jack");
        var mine = found(DriftKind.UNAPPROVED_LINE, "jack", "jack until=never op=0a0a0000-0000-4000-8000-000000000018");
        var forKim = found(DriftKind.MISSING_LINE, "kim", "kim until=never op=0a0a0000-0000-4000-8000-000000000019");
        found(DriftKind.UNAPPROVED_LINE, "lena", "lena until=never op=0a0a0000-0000-4000-8000-000000000020");
        app.submit("jack", InMemoryChangeflow.submission(InMemoryChangeflow.newOperationId(), FakeTargets.BATCHABLE, "kim"));
        var list = new ListMyDrift(drifts, app.operations);

        assertThat(list.list(new ListMyDrift.Command("jack")))
                .extracting(m -> m.item().id(), ListMyDrift.Mine::asSubject)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(mine.id(), true),
                        org.assertj.core.groups.Tuple.tuple(forKim.id(), false));
        assertThat(list.list(new ListMyDrift.Command("kim"))).extracting(m -> m.item().id()).containsExactly(forKim.id());
        assertThat(list.list(new ListMyDrift.Command("nobody"))).isEmpty();
    }

    @Test
    void theOperatorsListIsNarrowedByStatusTargetAndKind() {
        var open = found(DriftKind.UNAPPROVED_LINE, "max", "max until=never op=0a0a0000-0000-4000-8000-000000000021");
        var acknowledged = found(DriftKind.NOT_A_GRANT, null, "# a note");
        run(acknowledged.id(), new ActOnDrift.Action.Acknowledge("keep the note"));
        var elsewhere = found(FakeTargets.BATCHABLE, DriftKind.UNAPPROVED_LINE, "max", "max until=never op=0a0a0000-0000-4000-8000-000000000022");
        var list = new ListDrift(drifts);

        assertThat(list.list(new ListDrift.Command(Optional.empty(), Optional.empty(), Optional.empty(), 100)))
                .extracting(DriftItem::id).containsExactlyInAnyOrder(open.id(), acknowledged.id(), elsewhere.id());
        assertThat(list.list(new ListDrift.Command(Optional.of(DriftStatus.OPEN), Optional.of(FakeTargets.SINGLE),
                Optional.empty(), 100))).extracting(DriftItem::id).containsExactly(open.id());
        assertThat(list.list(new ListDrift.Command(Optional.empty(), Optional.empty(), Optional.of(DriftKind.NOT_A_GRANT),
                0))).extracting(DriftItem::id).containsExactly(acknowledged.id());
    }

    @Test
    void anOperatorsRemovalGoesThroughDriftDetectionsRemovalOfExactlyThatLineAndWaitsForARequestInProgress() {
        var removals = new RemoveDriftLine(app.operations, app.targets, app.batches, drifts, app.clock);
        var operatorsAct = new ActOnDrift(drifts, removals::open, app.submit, app.audit,
                app.clock);
        var line = "zoe until=never op=0a0a0000-0000-4000-8000-000000000031";
        var item = found(DriftKind.BASELINE, "zoe", line);

        var result = operatorsAct.act(new ActOnDrift.Command(String.valueOf(item.id()), new ActOnDrift.Action.Remove(),
                "otto", Map.of()));

        assertThat(result).isInstanceOf(ActOnDrift.Result.Done.class);
        var removal = ((ActOnDrift.Result.Done) result).request().orElseThrow();
        var now = drifts.find(item.id()).orElseThrow();
        assertThat(now.status()).isEqualTo(DriftStatus.REMOVING);
        assertThat(now.removal()).contains(removal);
        assertThat(app.operations.binding(SubjectId.of("zoe"), FakeTargets.SINGLE).orElseThrow().operationId())
                .isEqualTo(removal);

        app.submitAccepted(FakeTargets.SINGLE, "yann");
        var busy = found(DriftKind.UNAPPROVED_LINE, "yann", "yann until=never op=0a0a0000-0000-4000-8000-000000000032");
        assertThat(operatorsAct.act(new ActOnDrift.Command(String.valueOf(busy.id()), new ActOnDrift.Action.Remove(),
                "otto", Map.of()))).isInstanceOf(ActOnDrift.Result.NotPossible.class);
        assertThat(statusOf(busy)).isEqualTo(DriftStatus.OPEN);
    }
}
