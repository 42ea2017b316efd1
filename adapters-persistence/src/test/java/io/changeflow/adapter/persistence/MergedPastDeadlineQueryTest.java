package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Operations.PageCursor;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The deploy deadline's candidates on the real database: merged past the deadline by its clock, paged by keyset. */
class MergedPastDeadlineQueryTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    private static OperationId mergedAgo(Duration ago) {
        var op = Fixtures.merged(persistence.operations(), "pat", Fixtures.unique("deadline"));
        persistence.dsl().update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(ago))
                .where(BINDING.OPERATION_ID.eq(op.id().value())).execute();
        return op.id();
    }

    private static List<OperationId> everyPage(Duration age, int pageSize) {
        var seen = new ArrayList<OperationId>();
        var cursor = PageCursor.START;
        for (int pages = 0; pages < 100; pages++) {
            var page = persistence.operations().mergedLongerThan(age, cursor, pageSize);
            assertThat(page.operations()).hasSizeLessThanOrEqualTo(pageSize);
            page.operations().forEach(op -> seen.add(op.id()));
            if (page.next().isEmpty()) {
                return seen;
            }
            cursor = page.next().get();
        }
        throw new AssertionError("the pages never ended");
    }

    @Test
    void pagesThroughEveryMergedRequestPastTheDeadlineOnceOldestFirst() {
        var fresh = mergedAgo(Duration.ofMinutes(5));
        var due = new ArrayList<OperationId>();
        for (int i = 0; i < 7; i++) {
            due.add(mergedAgo(Duration.ofHours(30 - i)));
        }
        // two rows written in the same millisecond: the row key orders them, neither is skipped
        var twinA = mergedAgo(Duration.ofHours(10));
        var twinB = Fixtures.merged(persistence.operations(), "pat", Fixtures.unique("deadline")).id();
        var twinWrittenAt = persistence.dsl().select(BINDING.UPDATED_AT).from(BINDING)
                .where(BINDING.OPERATION_ID.eq(twinA.value())).fetchOne(BINDING.UPDATED_AT);
        persistence.dsl().update(BINDING).set(BINDING.UPDATED_AT, Sql.utcValue(Sql.instant(twinWrittenAt)))
                .where(BINDING.OPERATION_ID.eq(twinB.value())).execute();
        var validated = mergedAgo(Duration.ofHours(40));
        persistence.operations().applyIfAllowed(validated, WorkflowEvent.DEPLOYED, StepNote.system("in effect"));
        persistence.dsl().update(BINDING).set(BINDING.UPDATED_AT, Sql.ago(Duration.ofHours(40)))
                .where(BINDING.OPERATION_ID.eq(validated.value())).execute();

        var seen = everyPage(Duration.ofHours(2), 2);

        assertThat(new HashSet<>(seen)).as("each once").hasSameSizeAs(seen);
        assertThat(seen).containsAll(due).contains(twinA, twinB).doesNotContain(fresh, validated);
        assertThat(seen.indexOf(due.getFirst())).as("oldest first").isLessThan(seen.indexOf(due.getLast()));
        assertThat(persistence.operations().find(due.getFirst()).orElseThrow().binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aRequestMovedOnBetweenPagesIsNotReadAgainAndTheRestIsStillReached() {
        var ids = new ArrayList<OperationId>();
        for (int i = 0; i < 5; i++) {
            ids.add(mergedAgo(Duration.ofDays(400).minusHours(i)));
        }
        var first = persistence.operations().mergedLongerThan(Duration.ofDays(300), PageCursor.START, 2);
        assertThat(first.operations()).extracting(op -> op.id()).containsExactly(ids.get(0), ids.get(1));
        first.operations().forEach(op -> persistence.operations().apply(op.id(), op.version(),
                WorkflowEvent.DEPLOY_DEADLINE_PASSED, StepNote.system("past the deadline")));

        var second = persistence.operations().mergedLongerThan(Duration.ofDays(300), first.next().orElseThrow(), 2);
        assertThat(second.operations()).extracting(op -> op.id()).containsExactly(ids.get(2), ids.get(3));
        var third = persistence.operations().mergedLongerThan(Duration.ofDays(300), second.next().orElseThrow(), 2);
        assertThat(third.operations()).extracting(op -> op.id()).containsExactly(ids.get(4));
        assertThat(third.next()).isEmpty();
        assertThat(persistence.operations().find(ids.get(0)).orElseThrow().binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);
    }
}
