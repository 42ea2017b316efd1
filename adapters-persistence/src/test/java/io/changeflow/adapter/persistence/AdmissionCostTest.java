package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.state.BindingStatus;
import java.time.Clock;
import java.util.List;
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
     * Nine statements: the idempotency claim (one insert), the look for an operation of an expired key, the opening
     * transaction (the subject-target row, the operation, its history, the row, its history, and the opened operation
     * with its history in one read), and the stored outcome. Before issue 33 it was twelve: a read of the row before
     * the transaction, and the operation and its history read again after the first step was queued.
     */
    @Test
    void aNewRequestIsAdmittedWithNineStatementsAndAnswersWhatItsTransactionWrote() {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, "true");
        var operations = persistence.operations();
        var submit = new SubmitChangeRequest(operations, app.targets, app.directory, persistence.idempotencyRecords(),
                app.settings, new StepLauncher(app.queue, new StateChanges(operations, app.metrics)), app.metrics,
                app.approvals, Clock.systemUTC(), SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE, Thread::sleep);
        var id = Fixtures.newId().value();
        var recorder = persistence.statements();

        recorder.start();
        var result = submit.submit(new SubmitChangeRequest.Command(
                InMemoryChangeflow.submission(id, FakeTargets.SINGLE, Fixtures.unique("s")), "alice"));
        var statements = recorder.stop();

        assertThat(result).isInstanceOfSatisfying(SubmitChangeRequest.Result.Accepted.class, accepted -> {
            assertThat(accepted.request().status()).contains(BindingStatus.APPROVAL_SENDING);
            assertThat(accepted.request().timeline()).hasSize(1);
            var stored = operations.findWithHistory(accepted.request().operationId()).orElseThrow();
            assertThat(accepted.request()).isEqualTo(io.changeflow.application.query.RequestView.of(stored.operation(),
                    stored.history()));
        });
        assertThat(app.queue.pending(StepKind.SUBMIT_APPROVAL, id)).isPresent();
        assertThat(kinds(statements)).containsExactly(
                "insert idempotency_record",
                "select operation",
                "select binding",
                "insert operation",
                "insert operation_history",
                "insert binding",
                "insert binding_history",
                "select operation",
                "update idempotency_record");
    }

    private static List<String> kinds(List<String> statements) {
        return statements.stream().map(AdmissionCostTest::kind).toList();
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
