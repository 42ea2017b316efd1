package io.changeflow.application.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link Drifts} contract, run against the in-memory fake ({@code FakeDriftsTest}) and the jOOQ adapter on the real
 * database ({@code JooqDriftsContractTest}): each test starts on an empty store.
 */
public abstract class DriftsContract {

    private static final TargetKey DB = TargetKey.of("db-prod-readonly");
    private static final TargetKey VPN = TargetKey.of("vpn-staging");
    private static final Instant T0 = Instant.parse("2026-12-07T03:00:00Z");
    private static final Instant T1 = T0.plusSeconds(300);
    private static final Evidence BLAME = new Evidence(Optional.of("a".repeat(40)), Optional.of("Mallory"),
            Optional.of(Instant.parse("2026-12-06T22:00:00Z")));

    private Drifts drifts;

    protected abstract Drifts drifts();

    @BeforeEach
    void empty() {
        drifts = drifts();
    }

    private static Finding unapproved(String subject) {
        return new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(SubjectId.of(subject)),
                subject + " until=never op=00000000-0000-4000-8000-000000000001",
                Optional.of(OperationId.of("00000000-0000-4000-8000-000000000001")), "nobody approved it");
    }

    private static Drifts.Sighting seen(Finding finding) {
        return new Drifts.Sighting(finding, BLAME);
    }

    @Test
    void aNewFindingIsStoredOpenWithItsEvidence() {
        var ids = drifts.record(DB, List.of(seen(unapproved("mallory"))), "c1", T0);

        assertThat(ids).hasSize(1);
        assertThat(drifts.find(ids.getFirst())).get().satisfies(item -> {
            assertThat(item.status()).isEqualTo(DriftStatus.OPEN);
            assertThat(item.kind()).isEqualTo(DriftKind.UNAPPROVED_LINE);
            assertThat(item.subject()).contains(SubjectId.of("mallory"));
            assertThat(item.line()).isEqualTo("mallory until=never op=00000000-0000-4000-8000-000000000001");
            assertThat(item.evidence()).isEqualTo(BLAME);
            assertThat(item.firstSeen()).isEqualTo(T0);
            assertThat(item.lastSeen()).isEqualTo(T0);
            assertThat(item.commitSeen()).contains("c1");
        });
    }

    @Test
    void seeingTheSameLineAgainUpdatesItsLastSightingOnly() {
        var id = drifts.record(DB, List.of(seen(unapproved("mallory"))), "c1", T0).getFirst();

        var again = drifts.record(DB, List.of(new Drifts.Sighting(unapproved("mallory"), Evidence.NONE)), "c2", T1);

        assertThat(again).isEmpty();
        assertThat(drifts.activeOn(DB)).singleElement().satisfies(item -> {
            assertThat(item.id()).isEqualTo(id);
            assertThat(item.firstSeen()).isEqualTo(T0);
            assertThat(item.lastSeen()).isEqualTo(T1);
            assertThat(item.commitSeen()).contains("c2");
            assertThat(item.evidence()).isEqualTo(BLAME);
        });
    }

    @Test
    void theSameLineOfAnotherKindOrTargetIsAnotherItem() {
        var finding = unapproved("mallory");
        var baseline = new Finding(DriftKind.BASELINE, finding.subject(), finding.line(), finding.operation(), "imported");

        drifts.record(DB, List.of(seen(finding), seen(baseline)), "c1", T0);
        drifts.record(VPN, List.of(seen(finding)), "c1", T0);

        assertThat(drifts.activeOn(DB)).extracting(i -> i.kind()).containsExactlyInAnyOrder(DriftKind.UNAPPROVED_LINE,
                DriftKind.BASELINE);
        assertThat(drifts.activeOn(VPN)).hasSize(1);
    }

    @Test
    void aMoveIsGuardedByTheStatusAndVersionReadAndByTheTable() {
        var id = drifts.record(DB, List.of(seen(unapproved("mallory"))), "c1", T0).getFirst();
        var read = drifts.find(id).orElseThrow();

        var acknowledged = drifts.move(read, DriftStatus.ACKNOWLEDGED, "otto", "known test account", T1, Optional.empty());

        assertThat(acknowledged).get().satisfies(item -> {
            assertThat(item.status()).isEqualTo(DriftStatus.ACKNOWLEDGED);
            assertThat(item.statusActor()).isEqualTo("otto");
            assertThat(item.statusNote()).isEqualTo("known test account");
            assertThat(item.statusAt()).isEqualTo(T1);
            assertThat(item.version()).isGreaterThan(read.version());
        });
        assertThat(drifts.move(read, DriftStatus.REMOVING, "system", "stale", T1, Optional.empty())).isEmpty();
        assertThat(drifts.move(acknowledged.get(), DriftStatus.OPEN, "otto", "not in the table", T1, Optional.empty()))
                .isEmpty();
        assertThat(drifts.find(id).orElseThrow().status()).isEqualTo(DriftStatus.ACKNOWLEDGED);
    }

    @Test
    void aRemovalIsRecordedWithTheItemAndAResolvedItemSeenAgainIsOpenAgain() {
        var id = drifts.record(DB, List.of(seen(unapproved("mallory"))), "c1", T0).getFirst();
        var removal = OperationId.of("00000000-0000-4000-8000-000000000777");
        var removing = drifts.move(drifts.find(id).orElseThrow(), DriftStatus.REMOVING, "system", "removing", T0,
                Optional.of(removal)).orElseThrow();
        assertThat(removing.removal()).contains(removal);
        var resolved = drifts.move(removing, DriftStatus.RESOLVED, "system", "no longer on main", T1, Optional.empty())
                .orElseThrow();
        assertThat(drifts.activeOn(DB)).isEmpty();

        var reopened = drifts.record(DB, List.of(seen(unapproved("mallory"))), "c3", T1.plusSeconds(60));

        assertThat(reopened).containsExactly(id);
        assertThat(drifts.find(id)).get().satisfies(item -> {
            assertThat(item.status()).isEqualTo(DriftStatus.OPEN);
            assertThat(item.firstSeen()).isEqualTo(T1.plusSeconds(60));
            assertThat(item.removal()).isEmpty();
            assertThat(item.version()).isGreaterThan(resolved.version());
        });
    }

    /** Issue 36: an ADOPTED item names its adopting request; moved on (its request ended) it no longer does. */
    @Test
    void anAdoptedItemNamesItsAdoptingRequestUntilItLeavesAdopted() {
        var id = drifts.record(DB, List.of(seen(unapproved("mallory"))), "c1", T0).getFirst();
        var request = OperationId.of("00000000-0000-4000-8000-000000000888");
        var adopted = drifts.move(drifts.find(id).orElseThrow(), DriftStatus.ADOPTED, "otto", "adopted", T0,
                Optional.of(request)).orElseThrow();
        assertThat(adopted.removal()).contains(request);

        var open = drifts.move(adopted, DriftStatus.OPEN, "system", "the adopting request ended without a grant", T1,
                Optional.empty()).orElseThrow();

        assertThat(open.status()).isEqualTo(DriftStatus.OPEN);
        assertThat(open.removal()).isEmpty();
        assertThat(drifts.move(adopted, DriftStatus.RESOLVED, "system", "stale", T1, Optional.empty()))
                .as("guarded by the status and version read").isEmpty();
    }

    @Test
    void theBaselineIsTakenOnceAndListsAndCountsFilter() {
        assertThat(drifts.baselineOf(DB)).isEmpty();
        drifts.markBaseline(DB, "c1", T0);
        drifts.markBaseline(DB, "c2", T1);
        assertThat(drifts.baselineOf(DB)).contains(T0);

        var ids = drifts.record(DB, List.of(seen(unapproved("mallory")), seen(unapproved("eve"))), "c1", T0);
        drifts.record(VPN, List.of(seen(unapproved("eve"))), "c1", T1);
        drifts.move(drifts.find(ids.get(0)).orElseThrow(), DriftStatus.ACKNOWLEDGED, "otto", "fine", T1, Optional.empty());

        assertThat(drifts.countUnhandled()).isEqualTo(Map.of(DriftKind.UNAPPROVED_LINE, 2L));
        assertThat(drifts.list(Drifts.Query.in(DriftStatus.UNHANDLED, 10))).hasSize(2);
        assertThat(drifts.list(new Drifts.Query(DriftStatus.ACTIVE, Optional.of(DB), Optional.of(SubjectId.of("eve")),
                Optional.of(DriftKind.UNAPPROVED_LINE), 10))).singleElement()
                .satisfies(item -> assertThat(item.id()).isEqualTo(ids.get(1)));
        assertThat(drifts.list(Drifts.Query.in(DriftStatus.ACTIVE, 1))).singleElement()
                .satisfies(item -> assertThat(item.target()).isEqualTo(VPN));
    }
}
