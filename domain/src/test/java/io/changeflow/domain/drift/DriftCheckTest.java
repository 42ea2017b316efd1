package io.changeflow.domain.drift;

import static io.changeflow.domain.drift.DriftWorld.file;
import static io.changeflow.domain.drift.DriftWorld.line;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DriftCheckTest {

    private final DriftWorld world = new DriftWorld();

    @Test
    void aFileHoldingExactlyTheGrantsInEffectHasNoDrift() {
        var alice = world.grant("alice", BindingStatus.VALIDATED);
        var bob = world.grant("bob", BindingStatus.VALIDATED);

        assertThat(world.check(file(line(alice), line(bob)))).isEmpty();
        assertThat(world.check(DriftWorld.HEADER + "\n\n" + line(bob) + "  \n   " + line(alice))).isEmpty();
    }

    @Test
    void aLineOfAnOperationNobodyKnowsWasNotApproved() {
        var unknown = "mallory until=never op=" + world.nextId().value();

        assertThat(world.check(file(unknown))).singleElement().satisfies(f -> {
            assertThat(f.kind()).isEqualTo(DriftKind.UNAPPROVED_LINE);
            assertThat(f.subject()).contains(SubjectId.of("mallory"));
            assertThat(f.line()).isEqualTo(unknown);
            assertThat(f.kind().removable()).isTrue();
        });
    }

    @Test
    void aRequestMergedByAPersonBeforeTheApproverDecidedIsAnUnapprovedLine() {
        var waiting = world.grant("carol", BindingStatus.APPROVAL_SENT, StepOrder.CREATE_FIRST);
        var created = world.grant("dave", BindingStatus.MR_CREATED, StepOrder.CREATE_FIRST);
        var rejected = world.grant("erin", BindingStatus.REJECTED, StepOrder.CREATE_FIRST);
        var closed = world.grant("frank", BindingStatus.CLOSED);

        assertThat(world.check(file(line(waiting), line(created), line(rejected), line(closed))))
                .extracting(Finding::kind, Finding::operation)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(DriftKind.UNAPPROVED_LINE, Optional.of(waiting.id())),
                        org.assertj.core.groups.Tuple.tuple(DriftKind.UNAPPROVED_LINE, Optional.of(created.id())),
                        org.assertj.core.groups.Tuple.tuple(DriftKind.UNAPPROVED_LINE, Optional.of(rejected.id())),
                        org.assertj.core.groups.Tuple.tuple(DriftKind.UNAPPROVED_LINE, Optional.of(closed.id())));
    }

    @ParameterizedTest
    @EnumSource(value = BindingStatus.class, names = {"MR_CREATING", "MR_CREATED", "CREATE_FAILED", "MERGING",
            "BATCH_WAITING", "BATCHED", "HANDLE_FAILED", "MERGED", "DEPLOY_UNCONFIRMED", "DEPLOY_FAILED"})
    void theLineOfAnApprovedGrantOnItsWayIsInFlightPresentOrNot(BindingStatus status) {
        var approved = world.grant("gina", status, StepOrder.APPROVE_FIRST);

        assertThat(world.check(file(line(approved)))).isEmpty();
        assertThat(world.check(file())).isEmpty();
    }

    @Test
    void aLineOfAGrantWhoseRemovalWasConfirmedIsAnEndedGrantLine() {
        var expired = world.removal(world.replaced("hank"), ChangeKind.EXPIRY, BindingStatus.EXPIRED);
        var revoked = world.removal(world.replaced("iris"), ChangeKind.REVOCATION, BindingStatus.REVOKED);

        var found = world.check(file(line(world.records().operations().get(expired.removes().orElseThrow())),
                line(world.records().operations().get(revoked.removes().orElseThrow()))));

        assertThat(found).extracting(Finding::kind).containsExactly(DriftKind.ENDED_GRANT_LINE, DriftKind.ENDED_GRANT_LINE);
        assertThat(found).allMatch(f -> f.kind().removable());
    }

    @ParameterizedTest
    @EnumSource(value = BindingStatus.class, names = {"EXPIRING", "REVOKING", "APPROVAL_SENDING", "APPROVAL_SENT",
            "BATCH_WAITING", "BATCHED", "MERGED", "HANDLE_FAILED", "DEPLOY_UNCONFIRMED"})
    void theLineOfARemovalUnderWayIsInFlightPresentOrNot(BindingStatus status) {
        var grant = world.replaced("jack");
        world.removal(grant, ChangeKind.EXPIRY, status);

        assertThat(world.check(file(line(grant)))).isEmpty();
        assertThat(world.check(file())).isEmpty();
    }

    @Test
    void aGrantInEffectWithoutItsLineIsMissingAndWithAnotherLineIsEdited() {
        var kept = world.grant("kim", BindingStatus.VALIDATED);
        var gone = world.grant("leo", BindingStatus.VALIDATED);
        var edited = world.grant("mia", BindingStatus.VALIDATED);
        var handEdit = "mia until=2099-01-01T00:00:00Z op=" + edited.id().value();

        var found = world.check(file(line(kept), handEdit));

        assertThat(found).extracting(Finding::kind, Finding::line).containsExactly(
                org.assertj.core.groups.Tuple.tuple(DriftKind.EDITED_LINE, handEdit),
                org.assertj.core.groups.Tuple.tuple(DriftKind.MISSING_LINE, line(gone)));
        assertThat(found).noneMatch(f -> f.kind().removable());
    }

    @Test
    void aLineWhoseUntilHasMorePrecisionThanTheRecordsKeepIsTheSameGrant() {
        var alice = world.grant("alice", BindingStatus.VALIDATED);
        var precise = "alice until=2027-01-01T00:00:00.000400Z op=" + alice.id().value();

        assertThat(world.check(file(precise))).isEmpty();
        assertThat(world.check(file("alice until=2027-01-01T00:00:00.004Z op=" + alice.id().value())))
                .extracting(Finding::kind).containsExactly(DriftKind.EDITED_LINE);
    }

    @Test
    void aGrantWhoseRemovalWasNotApprovedStillNeedsExactlyItsLine() {
        var grant = world.replaced("nina");
        world.removal(grant, ChangeKind.REVOCATION, BindingStatus.REMOVAL_REJECTED);

        assertThat(world.check(file(line(grant)))).isEmpty();
        assertThat(world.check(file())).extracting(Finding::kind).containsExactly(DriftKind.MISSING_LINE);
    }

    @Test
    void whileARenewalWaitsTheRenewedGrantsLineIsInFlightAndSoIsTheRenewalsOnceApproved() {
        var old = world.replaced("olga");
        var renewal = world.renewal(old, BindingStatus.APPROVAL_SENT, Optional.of(Instant.parse("2027-06-01T00:00:00Z")));

        assertThat(world.check(file(line(old)))).isEmpty();
        assertThat(world.check(file(line(renewal)))).extracting(Finding::kind).containsExactly(DriftKind.UNAPPROVED_LINE);

        var merged = world.renewal(old, BindingStatus.MERGED, Optional.of(Instant.parse("2027-06-01T00:00:00Z")));
        assertThat(world.check(file(line(merged)))).isEmpty();
        assertThat(world.check(file(line(old)))).isEmpty();
    }

    @Test
    void aLineOfAGrantALaterOneReplacedIsAnEndedGrantLine() {
        var old = world.replaced("pat");

        assertThat(world.check(file(line(old)))).extracting(Finding::kind).containsExactly(DriftKind.ENDED_GRANT_LINE);
    }

    @Test
    void aLineNamingAnotherSubjectsOperationWasNotApproved() {
        var alice = world.grant("alice", BindingStatus.VALIDATED);
        var copied = "quinn until=never op=" + alice.id().value();

        assertThat(world.check(file(line(alice), copied))).singleElement()
                .satisfies(f -> assertThat(f.kind()).isEqualTo(DriftKind.UNAPPROVED_LINE));
    }

    @Test
    void contentThatIsNotAGrantIsReportedAndAnUnparsableLineOfAKnownSubjectIsAnEdit() {
        var rose = world.grant("rose", BindingStatus.VALIDATED);

        var found = world.check(file("# ask Sam before adding anyone", "rose until=tomorrow op=" + rose.id().value(),
                "see the wiki page"));

        assertThat(found).extracting(Finding::kind).containsExactly(DriftKind.NOT_A_GRANT, DriftKind.EDITED_LINE,
                DriftKind.NOT_A_GRANT);
        assertThat(found).noneMatch(f -> f.kind().removable());
        assertThat(found.get(2).subject()).isEmpty();
    }

    @Test
    void aSubjectWhoseRowWasWrittenAfterTheFileWasReadIsLeftForTheNextRun() {
        var removal = world.removal(world.replaced("sam"), ChangeKind.EXPIRY, BindingStatus.EXPIRED);
        var removed = world.records().operations().get(removal.removes().orElseThrow());
        var validated = world.grant("tom", BindingStatus.VALIDATED);
        world.rewritten(removal, DriftWorld.SETTLED);
        world.rewritten(validated, DriftWorld.SETTLED.plusSeconds(1));

        assertThat(world.check(file(line(removed)))).isEmpty();
    }

    @Test
    void beforeTheBaselineEveryLineTheRecordsDoNotAccountForIsImportedNeverRemoved() {
        var unknown = "uma until=never op=" + world.nextId().value();
        var gone = world.grant("vic", BindingStatus.VALIDATED);

        var first = world.check(file(unknown, "free text"), DriftCheck.Baseline.NOT_TAKEN);

        assertThat(first).extracting(Finding::kind).containsExactly(DriftKind.BASELINE, DriftKind.NOT_A_GRANT,
                DriftKind.MISSING_LINE);
        assertThat(first).noneMatch(f -> f.kind().removable());
        assertThat(first.get(1).line()).isEqualTo("free text");
        assertThat(first.get(2).line()).isEqualTo(line(gone));

        var later = "walt until=never op=" + world.nextId().value();
        var next = world.check(file(unknown, later), DriftCheck.Baseline.taken(List.of(unknown)));
        assertThat(next).extracting(Finding::kind, Finding::line).containsExactly(
                org.assertj.core.groups.Tuple.tuple(DriftKind.BASELINE, unknown),
                org.assertj.core.groups.Tuple.tuple(DriftKind.UNAPPROVED_LINE, later),
                org.assertj.core.groups.Tuple.tuple(DriftKind.MISSING_LINE, line(gone)));
    }

    @Test
    void theSameLineOfTheSameSubjectHasTheSameFingerprintAndAnyOtherLineAnother() {
        var a = new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(SubjectId.of("x")), "x until=never op=1", Optional.empty(), "a");
        var again = new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(SubjectId.of("x")), "x until=never op=1",
                Optional.of(OperationId.of("00000000-0000-4000-8000-000000000001")), "another note");
        var other = new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(SubjectId.of("x")), "x until=never op=2", Optional.empty(), "a");

        assertThat(a.fingerprint()).isEqualTo(again.fingerprint()).hasSize(64);
        assertThat(a.fingerprint()).isNotEqualTo(other.fingerprint());
        assertThat(DriftCheck.operationsNamedIn(file("x until=never op=00000000-0000-4000-8000-000000000001", "junk")))
                .containsExactly(OperationId.of("00000000-0000-4000-8000-000000000001"));
    }

    @Test
    void theDriftSettingRemovesUnlessItSaysReport() {
        assertThat(DriftPolicy.parse("report")).isEqualTo(DriftPolicy.REPORT);
        assertThat(DriftPolicy.parse(" Report ")).isEqualTo(DriftPolicy.REPORT);
        for (var garbled : new String[] {null, "", " ", "off", "none", "false", "reports", "remove"}) {
            assertThat(DriftPolicy.parse(garbled)).as(String.valueOf(garbled)).isEqualTo(DriftPolicy.REMOVE);
        }
    }

    @Test
    void aResolvedItemCanOnlyBeOpenedAgainAndNothingMovesToItself() {
        for (var from : DriftStatus.values()) {
            assertThat(from.allows(from)).as(from.name()).isFalse();
        }
        assertThat(DriftStatus.RESOLVED.allows(DriftStatus.OPEN)).isTrue();
        assertThat(DriftStatus.RESOLVED.allows(DriftStatus.ACKNOWLEDGED)).isFalse();
        assertThat(DriftStatus.ADOPTED.allows(DriftStatus.REMOVING)).isFalse();
        assertThat(DriftStatus.ADOPTED.allows(DriftStatus.OPEN)).as("an adoption that ended without a grant").isTrue();
    }
}
