package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.IDEMPOTENCY_RECORD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.state.BindingStatus;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 33 item 2: what one admission ({@code POST /api/requests}, {@link SubmitChangeRequest}) costs the database
 * through the persistence adapter, counted, never timed. The first step's row is the work queue's (one insert,
 * {@code FirstStepCostTest} in adapters-scheduler); here the queue is the in-memory one.
 */
class AdmissionCostTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(4);

    /**
     * Nine statements on three borrowed connections: the idempotency claim (one insert), the look for an operation of an
     * expired key, and one transaction (the subject-target row, the operation, its history, the row, its history, the
     * key's outcome, and the opened operation with its history in one read). Before issue 33 it was twelve on six: a
     * read of the row before the transaction, the operation and its history read again after the first step was
     * queued, and the outcome stored after the answer on a connection of its own (still so until the outcome moved
     * into the opening transaction, which changed this test's sequence: the outcome was the last statement, after
     * the transaction).
     */
    @Test
    void aNewRequestIsAdmittedWithNineStatementsOnThreeConnectionsAndAnswersWhatItsTransactionWrote() {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, "true");
        var operations = persistence.operations();
        var submit = submitOn(app);
        var id = Fixtures.newId().value();
        var recorder = persistence.statements();

        recorder.start();
        var result = submit.submit(new SubmitChangeRequest.Command(
                InMemoryChangeflow.submission(id, FakeTargets.SINGLE, Fixtures.unique("s")), "alice"));
        var sent = recorder.stopSent();

        assertThat(result).isInstanceOfSatisfying(SubmitChangeRequest.Result.Accepted.class, accepted -> {
            assertThat(accepted.request().status()).contains(BindingStatus.APPROVAL_SENDING);
            assertThat(accepted.request().timeline()).hasSize(1);
            var stored = operations.findWithHistory(accepted.request().operationId()).orElseThrow();
            assertThat(accepted.request()).isEqualTo(io.changeflow.application.query.RequestView.of(stored.operation(),
                    stored.history()));
        });
        assertThat(app.queue.pending(StepKind.SUBMIT_APPROVAL, id)).isPresent();
        assertThat(sent).extracting(s -> kind(s.sql()) + (s.inTransaction() ? " (tx)" : "")).containsExactly(
                "insert idempotency_record",
                "select operation",
                "select binding (tx)",
                "insert operation (tx)",
                "insert operation_history (tx)",
                "insert binding (tx)",
                "insert binding_history (tx)",
                "update idempotency_record (tx)",
                "select operation (tx)");
        assertThat(connections(sent)).isEqualTo(3);
        assertThat(persistence.idempotencyRecords().checkOrInsert(id, "another payload", Duration.ofDays(1),
                SubmitChangeRequest.IN_FLIGHT_ABANDONED_AFTER))
                .as("the key claims the outcome its request's transaction wrote")
                .isEqualTo(new IdempotencyRecords.Claim.Existing(fingerprintOf(result), Optional.of("ACCEPTED")));
    }

    /**
     * The outcome is written by the transaction that writes the request, or not at all: a failure after the outcome's
     * statement (the connection lost before the commit, stood in for by an exception right after it) leaves neither the
     * request nor an outcome, and the key is released, so a retry is validated again and accepted.
     */
    @Test
    void anOpeningTransactionThatFailsLeavesNoOutcomeAndARetryIsAccepted() {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, "true");
        var submit = submitOn(app);
        var id = Fixtures.newId().value();
        var submission = InMemoryChangeflow.submission(id, FakeTargets.SINGLE, Fixtures.unique("s"));
        persistence.statements().hookAfter(Thread.currentThread(), "update `idempotency_record`", sql -> {
            throw new IllegalStateException("lost before the commit");
        });

        assertThatThrownBy(() -> submit.submit(new SubmitChangeRequest.Command(submission, "alice")))
                .hasStackTraceContaining("lost before the commit");
        assertThat(persistence.operations().find(io.changeflow.domain.request.OperationId.of(id))).isEmpty();
        assertThat(persistence.dsl().fetchCount(IDEMPOTENCY_RECORD, IDEMPOTENCY_RECORD.IDEM_KEY.eq(id)))
                .as("released, no outcome left behind").isZero();

        assertThat(submit.submit(new SubmitChangeRequest.Command(submission, "alice")))
                .isInstanceOf(SubmitChangeRequest.Result.Accepted.class);
        assertThat(persistence.dsl().fetchValue(IDEMPOTENCY_RECORD.OUTCOME, IDEMPOTENCY_RECORD.IDEM_KEY.eq(id)))
                .isEqualTo("ACCEPTED");
    }

    /**
     * A refused submission stores no outcome (the opening transaction records the attempt as BLOCKED in the row's
     * history) and releases its key: two statements more than nothing, the release on a connection of its own.
     */
    @Test
    void aRefusedSubmissionRecordsTheBlockedAttemptAndReleasesItsKey() {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, "true");
        var submit = submitOn(app);
        var subject = Fixtures.unique("s");
        submit.submit(new SubmitChangeRequest.Command(
                InMemoryChangeflow.submission(Fixtures.newId().value(), FakeTargets.SINGLE, subject), "alice"));
        var id = Fixtures.newId().value();
        var recorder = persistence.statements();

        recorder.start();
        var result = submit.submit(new SubmitChangeRequest.Command(
                InMemoryChangeflow.submission(id, FakeTargets.SINGLE, subject), "alice"));
        var sent = recorder.stopSent();

        assertThat(result).isInstanceOf(SubmitChangeRequest.Result.RequestInProgress.class);
        assertThat(sent).extracting(s -> kind(s.sql()) + (s.inTransaction() ? " (tx)" : "")).containsExactly(
                "insert idempotency_record",
                "select operation",
                "select binding (tx)",
                "insert binding_history (tx)",
                "delete idempotency_record");
        assertThat(persistence.dsl().fetchCount(IDEMPOTENCY_RECORD, IDEMPOTENCY_RECORD.IDEM_KEY.eq(id))).isZero();
        assertThat(persistence.dsl().fetchValue(BINDING_HISTORY.OUTCOME, BINDING_HISTORY.OPERATION_ID.eq(id)))
                .isEqualTo("BLOCKED");
    }

    private SubmitChangeRequest submitOn(InMemoryChangeflow app) {
        var operations = persistence.operations();
        return new SubmitChangeRequest(operations, app.targets, app.directory, persistence.idempotencyRecords(),
                app.settings, new StepLauncher(app.queue, new StateChanges(operations, app.metrics)), app.metrics,
                app.approvals, Clock.systemUTC(), SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE, Thread::sleep);
    }

    private static String fingerprintOf(SubmitChangeRequest.Result result) {
        var view = ((SubmitChangeRequest.Result.Accepted) result).request();
        return persistence.dsl().fetchValue(IDEMPOTENCY_RECORD.FINGERPRINT,
                IDEMPOTENCY_RECORD.IDEM_KEY.eq(view.operationId().value()));
    }

    /** Connections borrowed: each autocommit statement borrows one, each transaction one for all its statements. */
    private static int connections(List<StatementRecorder.Sent> sent) {
        var count = 0;
        var inTransaction = false;
        for (var s : sent) {
            if (!s.inTransaction() || !inTransaction) {
                count++;
            }
            inTransaction = s.inTransaction();
        }
        return count;
    }

    private static String kind(String sql) {
        var s = sql.strip().replace("`", "").toLowerCase(java.util.Locale.ROOT);
        var verb = s.split("\\s+", 2)[0];
        var marker = switch (verb) {
            case "insert" -> "into ";
            case "update" -> "update ";
            default -> " from ";
        };
        var rest = s.substring(s.indexOf(marker) + marker.length()).strip();
        var name = rest.split("[\\s(,]", 2)[0];
        return verb + " " + name.substring(name.lastIndexOf('.') + 1);
    }
}
