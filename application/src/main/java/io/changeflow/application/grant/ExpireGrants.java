package io.changeflow.application.grant;

import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Expiry as a change (issue 18), the recurring job: every grant in effect whose expiry passed by the
 * database clock, plus {@link Policy#grace()}, is removed through the workflow (a removal round per file). A renewal
 * still undecided at the until of the grant it renews is ended first (issue 36), so that grant's line goes too.
 * Design: docs/workflow.md.
 */
public final class ExpireGrants {

    private static final System.Logger LOG = System.getLogger(ExpireGrants.class.getName());

    /**
     * @param grace grants expiring within this much of the database clock are removed in the same round; zero or more
     * @param every the pause between two runs; positive
     * @param limit rows looked at per run (expired and still-due each); positive
     */
    public record Policy(Duration grace, Duration every, int limit) {

        public static final Duration DEFAULT_GRACE = Duration.ZERO;
        public static final Duration DEFAULT_EVERY = Duration.ofMinutes(1);
        public static final int DEFAULT_LIMIT = 500;

        public Policy {
            Objects.requireNonNull(grace, "grace");
            Objects.requireNonNull(every, "every");
            if (grace.isNegative() || every.isZero() || every.isNegative() || limit < 1) {
                throw new IllegalArgumentException("the expiry grace must not be negative; the interval and limit positive");
            }
        }

        public static Policy defaults() {
            return new Policy(DEFAULT_GRACE, DEFAULT_EVERY, DEFAULT_LIMIT);
        }

        /**
         * From configuration text ({@code 10m}, {@code 90s}, {@code PT1H}; a bare number is milliseconds). Fail-safe:
         * a missing, garbled or negative grace is 0 (a grant is removed at its expiry; never "never expire"); a
         * missing, garbled, zero or negative interval is its default.
         */
        public static Policy of(RawValue grace, RawValue every) {
            var g = grace.text().map(String::strip).filter(t -> !t.isEmpty()).flatMap(DeployDeadline.Policy::parseDuration)
                    .filter(d -> !d.isNegative()).orElse(DEFAULT_GRACE);
            var e = every.text().map(String::strip).filter(t -> !t.isEmpty()).flatMap(DeployDeadline.Policy::parseDuration)
                    .filter(d -> !d.isNegative() && !d.isZero()).orElse(DEFAULT_EVERY);
            return new Policy(g, e, DEFAULT_LIMIT);
        }
    }

    /** One scheduled run (the policy says everything). */
    public record Command() {}

    /**
     * @param due      rows in effect found past their expiry (plus the grace)
     * @param opened   removals this run opened
     * @param admitted removals admitted to a removal round by this run (new ones and ones still due; not those that
     *                 wait for the approver first)
     */
    public record Result(int due, int opened, int admitted, int renewalsEnded) {

        /** A run that ended no renewal. */
        public Result(int due, int opened, int admitted) {
            this(due, opened, admitted, 0);
        }
    }

    private final Operations operations;
    private final RemovalRounds removals;
    private final EndUndecidedRenewals renewals;
    private final Policy policy;

    /**
     * @param approvalCheck asked first about a renewal past the until of the grant it renews (a decision found counts)
     * @param close         closes such a renewal that never reached the approval system
     */
    public ExpireGrants(Operations operations, Batches batches, Targets targets, StepLauncher launcher,
                        ReconcileApprovals approvalCheck, CloseChangeRequest close, Policy policy) {
        this(operations, batches, targets, launcher, approvalCheck, close, policy, RemovalRounds.RANDOM_IDS);
    }

    /** @param ids the IDs of the removal operations (seeded in tests) */
    public ExpireGrants(Operations operations, Batches batches, Targets targets, StepLauncher launcher,
                        ReconcileApprovals approvalCheck, CloseChangeRequest close, Policy policy,
                        Supplier<OperationId> ids) {
        this.operations = operations;
        this.removals = new RemovalRounds(operations, batches, targets, launcher, ids);
        this.renewals = new EndUndecidedRenewals(operations, approvalCheck, close);
        this.policy = policy;
    }

    public Result run(Command command) {
        // first the renewals nobody approved by the until of the grant they renew: the row goes back to that grant,
        // which this same run then removes (issue 36)
        var renewalsEnded = renewals.run(policy.limit());
        var due = operations.dueForExpiry(policy.grace(), policy.limit());
        var opened = 0;
        var waitingForRound = 0;
        for (var row : due) {
            var until = row.expiresAt().map(Instant::toString).orElse("?");
            var result = removals.open(row, WorkflowEvent.EXPIRY_DUE, RemovalRounds.Asking.BY_TARGET, "system",
                    "The grant expired at " + until + "; its line is removed from the grant file.");
            if (result.isPresent() && result.get() instanceof Operations.OpenResult.Opened o) {
                opened++;
                // one that waits for the approver first is not admitted (the approval callback admits it)
                if (o.operation().binding().filter(BindingStatus.REMOVAL_DUE::contains).isPresent()) {
                    waitingForRound++;
                }
            }
        }
        var admitted = waitingForRound;
        for (var removal : operations.stuck(BindingStatus.REMOVAL_DUE, Duration.ZERO, policy.limit())) {
            if (removals.admit(removal)) {
                admitted++;
            }
        }
        if (!due.isEmpty() || admitted > 0 || renewalsEnded > 0) {
            var o = opened;
            var a = admitted;
            LOG.log(Level.INFO, () -> "expiry: " + renewalsEnded + " undecided renewals ended, " + due.size()
                    + " grants past their expiry, " + o + " removals opened, " + a + " admitted to their removal round");
        }
        return new Result(due.size(), opened, admitted, renewalsEnded);
    }
}
