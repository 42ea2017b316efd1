package io.changeflow.benchmarks.db;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.benchmarks.support.NoMetrics;
import io.changeflow.benchmarks.support.PersistenceHarness;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The application's admission use case ({@link SubmitChangeRequest}) on the real jOOQ ports of a
 * {@link PersistenceHarness}: the database work of POST /api/requests without HTTP and without the
 * durable step (the work queue accepts and forgets). Access is OPEN, the one target is batchable.
 */
public final class InProcessAdmission {

    public static final String TARGET = "dashboards-viewer";

    /** Only a superseded request's approval would be withdrawn; each benchmark submission is for a subject of its own. */
    private static final Approvals NO_APPROVALS = new Approvals() {
        @Override
        public Ticket submit(ApprovalForm form) {
            throw new UnsupportedOperationException("the admission benchmark sends no approval");
        }

        @Override
        public Ticket read(io.changeflow.domain.request.OperationId operationId) {
            throw new UnsupportedOperationException("the admission benchmark reads no approval");
        }

        @Override
        public Ticket withdraw(io.changeflow.domain.request.OperationId operationId) {
            throw new UnsupportedOperationException("the admission benchmark withdraws no approval");
        }
    };

    private final SubmitChangeRequest submit;

    public InProcessAdmission(PersistenceHarness persistence) {
        var target = new Target(TargetKey.of(TARGET), "Dashboards, viewer", "benchmark target", "platform/access-config",
                "grants/dashboards-viewer.txt", true, null).withAskFor(AskPolicy.ANYONE);
        Targets targets = new Targets() {
            @Override
            public List<Target> all() {
                return List.of(target);
            }

            @Override
            public Optional<Target> find(TargetKey key) {
                return key.equals(target.key()) ? Optional.of(target) : Optional.empty();
            }
        };
        var settings = new Settings(key -> key.equals(Settings.ACCESS_MODE) ? Optional.of("OPEN") : Optional.empty());
        var metrics = new NoMetrics();
        var queue = new WorkQueue() {
            @Override
            public boolean schedule(Step step, Duration delay) {
                return true;
            }

            @Override
            public boolean isScheduled(StepKind kind, String ref) {
                return false;
            }

            @Override
            public int backlog() {
                return 0;
            }

            @Override
            public Backlog backlogSummary() {
                return new Backlog(0, 0, 0, 0, Integer.MAX_VALUE, java.util.Optional.empty());
            }
        };
        this.submit = new SubmitChangeRequest(persistence.operations(), targets, employeeId -> java.util.Optional.empty(),
                persistence.idempotencyRecords(), settings,
                new StepLauncher(queue, new StateChanges(persistence.operations(), metrics)), metrics, NO_APPROVALS,
                Clock.systemUTC(), SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE, Thread::sleep);
    }

    /** Submits a fresh request for {@code subject}; returns the answer's code (ACCEPTED expected). */
    public String admit(String subject) {
        var submission = new Submission(UUID.randomUUID().toString(), TARGET, subject, "benchmark admission", null);
        return submit.submit(new SubmitChangeRequest.Command(submission, "alice")).code();
    }
}
