package io.changeflow.application.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.fake.FakeGrantRecords;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.grant.ExpireGrants;
import io.changeflow.application.grant.RemoveGrant;
import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The operators' audit export: the life of every grant requested in a range or in effect in it (issue 32, item 6). */
class ExportGrantLivesTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final CountingRecords records = new CountingRecords(new FakeGrantRecords(app.operations));

    /** The fake's reads, counted (one statement each on the database). */
    private static final class CountingRecords implements GrantRecords {
        private final GrantRecords inner;
        int reads;

        CountingRecords(GrantRecords inner) {
            this.inner = inner;
        }

        @Override
        public List<Operation> grantsOverlapping(Page page) {
            reads++;
            return inner.grantsOverlapping(page);
        }

        @Override
        public Map<OperationId, List<HistoryEntry>> histories(Collection<OperationId> ids) {
            reads++;
            return inner.histories(ids);
        }

        @Override
        public List<Operation> takingOver(Collection<OperationId> grants) {
            reads++;
            return inner.takingOver(grants);
        }
    }

    private OperationId ownerOf(String subject) {
        return app.operations.binding(SubjectId.of(subject), FakeTargets.SINGLE).orElseThrow().operationId();
    }

    private void roundAndDeploy(String subject) {
        app.scheduledBatchRounds.run(new RunScheduledBatchRounds.Command());
        app.queue.runUntilIdle();
        app.deployed(ownerOf(subject));
    }

    private List<GrantLife> exportAll(Instant from, Instant to) {
        var lives = new ArrayList<GrantLife>();
        var outcome = new ExportGrantLives(records).export(new ExportGrantLives.Command(from, to, Optional.empty()), lives::add);
        assertThat(outcome.next()).isEmpty();
        assertThat(outcome.grants()).isEqualTo(lives.size());
        return lives;
    }

    private static GrantLife lifeOf(List<GrantLife> lives, OperationId id) {
        return lives.stream().filter(l -> l.operationId().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void eachGrantsLifeSaysWhoAskedForWhomWhoApprovedItsMergeRequestAndWhenAndWhyItEnded() {
        var start = app.clock.instant();
        var revoked = app.grantInEffect("alice", "ann", start.plus(Duration.ofDays(30)));
        var givenUp = app.grantInEffect("bob", "bea", start.plus(Duration.ofDays(30)));
        var expired = app.grantInEffect("carl", "cid", start.plus(Duration.ofHours(2)));
        var lasting = app.grantInEffect("dora", "dan", start.plus(Duration.ofDays(30)));
        var refused = app.rejected("eve");
        app.clock.advance(Duration.ofMinutes(5));

        var revocation = app.removeGrant.remove(RemoveGrant.Command.revoke("ann", FakeTargets.SINGLE.value(), "otto", Map.of()));
        assertThat(revocation).isInstanceOf(RemoveGrant.Result.Accepted.class);
        roundAndDeploy("ann");
        app.removeGrant.remove(RemoveGrant.Command.giveUp(null, FakeTargets.SINGLE.value(), "bea"));
        roundAndDeploy("bea");
        app.clock.advance(Duration.ofHours(3));
        app.expireGrants.run(new ExpireGrants.Command());
        app.queue.runUntilIdle();
        roundAndDeploy("cid");
        assertThat(app.operations.binding(SubjectId.of("cid"), FakeTargets.SINGLE).orElseThrow().status())
                .isEqualTo(BindingStatus.EXPIRED);

        var lives = exportAll(start.minusSeconds(1), app.clock.instant());

        assertThat(lives).extracting(GrantLife::operationId).as("grants only, oldest request first")
                .containsExactly(revoked, givenUp, expired, lasting, refused);
        var ann = lifeOf(lives, revoked);
        var approval = app.operations.history(revoked).stream().filter(h -> h.event().name().startsWith("APPROVAL_GRANTED"))
                .findFirst().orElseThrow();
        assertThat(ann.requester()).isEqualTo("alice");
        assertThat(ann.subjectId()).isEqualTo("ann");
        assertThat(ann.kind()).isEqualTo("GRANT");
        assertThat(ann.approvedBy()).contains(approval.actor());
        assertThat(ann.approvedAt()).contains(approval.at());
        assertThat(ann.mergeRequest()).isPresent();
        assertThat(ann.mergedAt()).isPresent();
        assertThat(ann.inEffectAt()).isPresent();
        assertThat(ann.mergedAt().orElseThrow()).isBeforeOrEqualTo(ann.inEffectAt().orElseThrow());
        assertThat(ann.ended()).contains("REVOKED");
        assertThat(ann.endedBy()).contains("otto");
        assertThat(ann.endedByRequest()).isPresent().isNotEqualTo(Optional.of(revoked));
        assertThat(ann.endedAt().orElseThrow()).isAfter(ann.inEffectAt().orElseThrow());
        assertThat(ann.status()).isEqualTo("REVOKED");

        assertThat(lifeOf(lives, givenUp).ended()).contains("GIVEN_UP");
        assertThat(lifeOf(lives, givenUp).endedBy()).contains("bea");
        assertThat(lifeOf(lives, expired).ended()).contains("EXPIRED");
        assertThat(lifeOf(lives, expired).until()).contains(start.plus(Duration.ofHours(2)));

        var dan = lifeOf(lives, lasting);
        assertThat(dan.ended()).isEmpty();
        assertThat(dan.endedAt()).isEmpty();
        assertThat(dan.status()).isEqualTo("VALIDATED");

        var eve = lifeOf(lives, refused);
        assertThat(eve.approvedBy()).isEmpty();
        assertThat(eve.inEffectAt()).isEmpty();
        assertThat(eve.ended()).contains("REJECTED");
        assertThat(eve.endedByRequest()).as("it ended by itself").isEmpty();
    }

    @Test
    void theRangeHasEveryGrantRequestedInItOrInEffectAtSomeInstantOfItNotThoseEndedBeforeOrRequestedAfter() {
        var far = app.clock.instant().plus(Duration.ofDays(30));
        var endedBefore = app.grantInEffect("alice", "ann", far);
        app.removeGrant.remove(RemoveGrant.Command.revoke("ann", FakeTargets.SINGLE.value(), "otto", Map.of()));
        roundAndDeploy("ann");
        var refusedBefore = app.rejected("eve");
        app.clock.advance(Duration.ofHours(1));
        var lastingAcross = app.grantInEffect("bob", "bea", far);
        var endedInside = app.grantInEffect("carl", "cid", far);
        app.clock.advance(Duration.ofHours(1));
        var from = app.clock.instant();
        app.clock.advance(Duration.ofMinutes(10));
        app.removeGrant.remove(RemoveGrant.Command.revoke("cid", FakeTargets.SINGLE.value(), "otto", Map.of()));
        roundAndDeploy("cid");
        app.clock.advance(Duration.ofMinutes(10));
        var requestedInside = app.grantInEffect("dora", "dan", far);
        app.clock.advance(Duration.ofMinutes(40));
        var to = app.clock.instant();
        app.clock.advance(Duration.ofMinutes(10));
        var requestedAfter = app.grantInEffect("finn", "fay", far);

        var lives = exportAll(from, to);

        assertThat(lives).extracting(GrantLife::operationId).as("by request time")
                .containsExactly(lastingAcross, endedInside, requestedInside)
                .doesNotContain(endedBefore, refusedBefore, requestedAfter);
        assertThat(lifeOf(lives, endedInside).endedAt().orElseThrow()).isBetween(from, to);
        assertThat(lifeOf(lives, lastingAcross).inEffectAt().orElseThrow()).isBefore(from);
        assertThat(exportAll(to, to.plus(Duration.ofHours(1)))).extracting(GrantLife::operationId)
                .as("in effect across the next range too").containsExactly(lastingAcross, requestedInside, requestedAfter);
    }

    @Test
    void anExportHandsAtMostItsLimitAndTheNextOneContinuesFromItsCursorThreeReadsAPage() {
        var start = app.clock.instant();
        var ids = new ArrayList<OperationId>();
        for (var subject : List.of("fay", "gil", "hal", "ida", "jo")) {
            ids.add(app.rejected(subject));
            app.clock.advance(Duration.ofSeconds(1));
        }
        var export = new ExportGrantLives(records, 2, 3);
        var from = start.minusSeconds(1);
        var to = app.clock.instant();

        var first = new ArrayList<GrantLife>();
        var outcome = export.export(new ExportGrantLives.Command(from, to, Optional.empty()), first::add);
        assertThat(outcome.grants()).isEqualTo(3);
        assertThat(outcome.next()).isPresent();
        assertThat(records.reads).as("two pages (2 and 1 grants), three reads each").isEqualTo(6);

        var second = new ArrayList<GrantLife>();
        var rest = export.export(new ExportGrantLives.Command(from, to, outcome.next()), second::add);
        assertThat(rest.grants()).isEqualTo(2);
        assertThat(rest.next()).isEmpty();

        var all = new ArrayList<>(first);
        all.addAll(second);
        assertThat(all).extracting(GrantLife::operationId).containsExactlyElementsOf(ids);
    }

    @Test
    void anEmptyReversedOrOverLongRangeIsRefused() {
        var now = app.clock.instant();
        assertThat(ExportGrantLives.check(new ExportGrantLives.Command(now, now, Optional.empty())))
                .contains(ExportGrantLives.Refusal.EMPTY_RANGE);
        assertThat(ExportGrantLives.check(new ExportGrantLives.Command(now, now.minusSeconds(1), Optional.empty())))
                .contains(ExportGrantLives.Refusal.EMPTY_RANGE);
        assertThat(ExportGrantLives.check(new ExportGrantLives.Command(now, now.plus(Duration.ofDays(367)), Optional.empty())))
                .contains(ExportGrantLives.Refusal.RANGE_TOO_LONG);
        assertThat(ExportGrantLives.check(new ExportGrantLives.Command(now, now.plus(Duration.ofDays(366)), Optional.empty())))
                .isEmpty();
        assertThatThrownBy(() -> new ExportGrantLives(records).export(new ExportGrantLives.Command(now, now, Optional.empty()),
                life -> {})).isInstanceOf(IllegalArgumentException.class);
        assertThat(records.reads).isZero();
    }
}
