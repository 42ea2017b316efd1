package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 18, item 5 on the real database: how many grants in effect expire within a window of the database clock,
 * and the soonest of them, counted by the database in one statement whatever the window holds.
 */
class ExpiringGrantsQueryTest {

    private static final WorkflowEvent[] TO_VALIDATED = {WorkflowEvent.APPROVAL_SUBMITTED,
            WorkflowEvent.APPROVAL_GRANTED_CREATE, WorkflowEvent.CREATE_STARTED, WorkflowEvent.MR_PIPELINE_PASSED,
            WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED, WorkflowEvent.DEPLOYED};
    private static final Duration DAY = Duration.ofHours(24);
    private static final int IN_THE_DAY = 15;
    private static final int FAR_AHEAD = 2000;

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);
    private static Operation soonest;

    @BeforeAll
    static void seed() {
        var target = Fixtures.unique("expiring");
        var now = Instant.now();
        // in effect and in the next 24 hours (one already past its expiry, not yet taken by the expiry job)
        soonest = validated("past", target, Optional.of(now.minus(Duration.ofMinutes(5))));
        for (int i = 1; i < IN_THE_DAY; i++) {
            validated("in-day-" + i, target, Optional.of(now.plus(Duration.ofMinutes(80L * i))));
        }
        // not counted: later, for good, not in effect yet, being removed
        validated("next-week", target, Optional.of(now.plus(Duration.ofDays(7))));
        validated("forever", target, Optional.empty());
        Fixtures.walked(persistence.operations(), request("pending", target, Optional.of(now.plus(Duration.ofHours(2)))),
                WorkflowEvent.APPROVAL_SUBMITTED);
        var leaving = validated("leaving", target, Optional.of(now.plus(Duration.ofHours(3))));
        var row = persistence.operations().binding(leaving.subject(), leaving.target()).orElseThrow();
        persistence.operations().openRemoval(row, Fixtures.newId(), WorkflowEvent.REVOCATION_REQUESTED, "leaving",
                "given up");
        // many grants in effect far beyond every window asked here, so the plan is the one of a full table
        var insert = persistence.dsl().insertInto(BINDING, BINDING.SUBJECT_ID, BINDING.TARGET_KEY, BINDING.OPERATION_ID,
                BINDING.STATUS, BINDING.VERSION, BINDING.EXPIRES_AT);
        for (int i = 0; i < FAR_AHEAD; i++) {
            insert = insert.values("far-" + i, target, Fixtures.newId().value(), BindingStatus.VALIDATED.name(), 1L,
                    java.time.LocalDateTime.ofInstant(now.plus(Duration.ofDays(40 + i % 60)), java.time.ZoneOffset.UTC));
        }
        insert.execute();
        persistence.dsl().execute("ANALYZE TABLE binding");
    }

    private static ChangeRequest request(String subject, String target, Optional<Instant> until) {
        return new ChangeRequest(Fixtures.newId(), "alice", TargetKey.of(target), SubjectId.of(subject), "for a test",
                until.map(at -> at.truncatedTo(ChronoUnit.MILLIS)));
    }

    private static Operation validated(String subject, String target, Optional<Instant> until) {
        var op = Fixtures.walked(persistence.operations(), request(subject, target, until), TO_VALIDATED);
        assertThat(op.binding()).contains(BindingStatus.VALIDATED);
        return op;
    }

    @Test
    void countsEveryGrantInEffectOfTheWindowAndListsTheSoonestInOneStatement() {
        var recorder = persistence.statements();
        recorder.start();
        var page = persistence.operations().expiringWithin(DAY, 10);
        var statements = recorder.stop();

        assertThat(statements).as("counted and listed by one statement").hasSize(1);
        assertThat(statements.getFirst().toLowerCase(Locale.ROOT)).contains("count(*) over ()").contains("limit 10");
        assertThat(page.count()).isEqualTo(IN_THE_DAY);
        assertThat(page.first()).hasSize(10).allMatch(b -> b.status() == BindingStatus.VALIDATED);
        assertThat(page.first().getFirst().operationId()).isEqualTo(soonest.id());
        assertThat(page.first()).extracting(b -> b.expiresAt().orElseThrow()).isSorted();
        assertThat(page.first()).extracting(Binding::subject).extracting(SubjectId::value)
                .doesNotContain("next-week", "forever", "pending", "leaving");
    }

    @Test
    void theCountReadsARangeOfTheStatusExpiryIndex() {
        var recorder = persistence.statements();
        recorder.start();
        persistence.operations().expiringWithin(DAY, 50);
        var sql = recorder.stop().getFirst();
        var keys = persistence.dsl().fetch("EXPLAIN " + sql).stream()
                .map(r -> String.valueOf(r.get("key"))).toList();
        assertThat(keys).contains("idx_binding_status_expires");
    }

    @Test
    void theWindowIsReadInTheDatabaseClock() {
        var operations = persistence.operations();
        var week = operations.expiringWithin(Duration.ofDays(8), 500);
        assertThat(week.count()).isEqualTo(IN_THE_DAY + 1);
        assertThat(week.first()).hasSize(IN_THE_DAY + 1);
        var minute = operations.expiringWithin(Duration.ofMinutes(1), 5);
        assertThat(minute.count()).as("only the one past its expiry").isEqualTo(1);
        assertThat(minute.first()).extracting(Binding::operationId).containsExactly(soonest.id());
    }
}
