package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION_HISTORY;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.GrantRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit export's range on the real database (issue 32): every grant requested in the range or in effect at some
 * instant of it (in effect before its end, not ended before its start), with grants before, inside, across and after
 * it. Times are written into the rows, as the workflow would have written them at those instants.
 */
class JooqGrantRecordsOverlapTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    private static final String TARGET = "db-prod-readonly";
    private static final Instant FROM = at("10:00");
    private static final Instant TO = at("11:00");

    private Operations operations;
    private GrantRecords records;

    private static Instant at(String time) {
        return Instant.parse("2001-01-01T" + time + ":00Z");
    }

    @BeforeEach
    void empty() {
        operations = persistence.operationsOnEmptyTables();
        records = persistence.grantRecords();
    }

    /** A grant (or renewal) requested at {@code requested}, in effect from {@code inEffect} when given. */
    private OperationId grant(String requested, Optional<String> inEffect) {
        var op = Fixtures.opened(operations, Fixtures.request(Fixtures.unique("s"), TARGET));
        persistence.dsl().update(OPERATION).set(OPERATION.CREATED_AT, Sql.utc(at(requested)))
                .where(OPERATION.ID.eq(op.id().value())).execute();
        inEffect.ifPresent(time -> history(op.id(), BindingStatus.VALIDATED, time));
        return op.id();
    }

    private OperationId inEffect(String requested, String validated) {
        return grant(requested, Optional.of(validated));
    }

    /** A request of {@code kind} taking {@code grant} over, which reached {@code status} at {@code time}. */
    private OperationId taker(OperationId grant, ChangeKind kind, BindingStatus status, String time) {
        var id = Fixtures.newId();
        var row = persistence.dsl().fetchSingle(OPERATION, OPERATION.ID.eq(grant.value())).copy();
        row.setId(id.value());
        row.setChangeKind(kind.name());
        row.setRemovesOperationId(grant.value());
        row.setCreatedAt(Sql.utc(at(time).minusSeconds(60)));
        persistence.dsl().executeInsert(row);
        history(id, status, time);
        return id;
    }

    private void history(OperationId id, BindingStatus status, String time) {
        persistence.dsl().insertInto(OPERATION_HISTORY, OPERATION_HISTORY.OPERATION_ID, OPERATION_HISTORY.EVENT,
                        OPERATION_HISTORY.TO_STEP, OPERATION_HISTORY.TO_BINDING, OPERATION_HISTORY.VERSION,
                        OPERATION_HISTORY.ACTOR, OPERATION_HISTORY.CREATED_AT)
                .values(id.value(), WorkflowEvent.EXPIRY_DUE.name(), 0, status.name(), 99L, "test", Sql.utc(at(time)))
                .execute();
    }

    @Test
    void everyGrantRequestedInTheRangeOrInEffectAtSomeInstantOfItPageByPage() {
        var endedBefore = inEffect("08:00", "08:10");
        taker(endedBefore, ChangeKind.REVOCATION, BindingStatus.REVOKED, "09:00");
        var endedAtTheStart = inEffect("08:00", "08:10");
        taker(endedAtTheStart, ChangeKind.REVOCATION, BindingStatus.REVOKED, "10:00");
        var endedInside = inEffect("08:00", "08:10");
        taker(endedInside, ChangeKind.EXPIRY, BindingStatus.EXPIRED, "10:30");
        var removalUnderWay = inEffect("08:00", "08:10");
        taker(removalUnderWay, ChangeKind.REVOCATION, BindingStatus.REVOKING, "09:00");
        var renewedBefore = inEffect("07:00", "07:10");
        var renewal = taker(renewedBefore, ChangeKind.GRANT, BindingStatus.VALIDATED, "09:30");
        var lastingAcross = inEffect("06:00", "06:10");
        var inEffectInside = inEffect("09:00", "10:15");
        var inEffectAtTheEnd = inEffect("09:00", "11:00");
        var neverInEffect = grant("09:00", Optional.empty());
        var requestedInside = grant("10:20", Optional.empty());
        var requestedAtTheEnd = inEffect("11:00", "11:05");
        var requestedAfter = inEffect("11:05", "11:10");

        var all = records.grantsOverlapping(new GrantRecords.Page(FROM, TO, Optional.empty(), 100));

        assertThat(all).extracting(Operation::id)
                .containsExactlyInAnyOrder(endedAtTheStart, endedInside, removalUnderWay, renewal, lastingAcross,
                        inEffectInside, requestedInside)
                .doesNotContain(endedBefore, renewedBefore, inEffectAtTheEnd, neverInEffect, requestedAtTheEnd,
                        requestedAfter);
        assertThat(all).isSortedAccordingTo(Comparator.comparing(Operation::createdAt).thenComparing(op -> op.id().value()));
        assertThat(all).allSatisfy(op -> assertThat(op.kind()).isEqualTo(ChangeKind.GRANT));

        var paged = new ArrayList<Operation>();
        Optional<GrantRecords.Cursor> after = Optional.empty();
        for (var pages = 0; pages < 10; pages++) {
            var page = records.grantsOverlapping(new GrantRecords.Page(FROM, TO, after, 2));
            paged.addAll(page);
            if (page.size() < 2) {
                break;
            }
            after = Optional.of(new GrantRecords.Cursor(page.getLast().createdAt(), page.getLast().id()));
        }
        assertThat(paged).extracting(Operation::id).containsExactlyElementsOf(all.stream().map(Operation::id).toList());
    }

    @Test
    void aGrantInEffectAtTheRangesEndOrRemovedJustBeforeItsStartIsNotInIt() {
        var removedJustBefore = inEffect("08:00", "08:10");
        taker(removedJustBefore, ChangeKind.REVOCATION, BindingStatus.REVOKED, "09:59");
        var inEffectJustBeforeTheEnd = inEffect("08:00", "10:59");

        assertThat(records.grantsOverlapping(new GrantRecords.Page(FROM, TO, Optional.empty(), 100)))
                .extracting(Operation::id).containsExactly(inEffectJustBeforeTheEnd);
        assertThat(records.grantsOverlapping(new GrantRecords.Page(at("09:00"), FROM, Optional.empty(), 100)))
                .extracting(Operation::id).containsExactly(removedJustBefore);
    }
}
