package io.changeflow.application.approval;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.Approvals.Ticket;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The approval check: converges requests whose approval callback was lost (docs/operations.md, "The approval
 * check") by asking the approval system about each request waiting on it; decisions go through
 * {@link HandleApprovalCallback}. Runs on a schedule; {@link #checkNow} checks one request at once. Outcomes
 * and fairness: docs/workflow.md.
 */
public final class ReconcileApprovals {

    /** The binding states the check looks at. */
    public static final Set<BindingStatus> CHECKED = Set.copyOf(EnumSet.of(BindingStatus.APPROVAL_SENDING,
            BindingStatus.APPROVAL_SENT, BindingStatus.APPROVAL_FAILED));

    private static final System.Logger LOG = System.getLogger(ReconcileApprovals.class.getName());
    private static final int MAX_PAUSE_DOUBLINGS = 4;

    /**
     * @param after    a request is checked once its last state write is this old
     * @param every    how often the check runs (the pause after a failed run is a multiple of it)
     * @param deadline a request still pending this long after it was made is withdrawn
     * @param limit    requests per run
     */
    public record Policy(Duration after, Duration every, Duration deadline, int limit) {

        public static final Duration DEFAULT_AFTER = Duration.ofMinutes(10);
        public static final Duration DEFAULT_EVERY = Duration.ofMinutes(1);
        public static final Duration DEFAULT_DEADLINE = Duration.ofDays(7);
        public static final int DEFAULT_LIMIT = 100;

        public Policy {
            Objects.requireNonNull(after, "after");
            Objects.requireNonNull(every, "every");
            Objects.requireNonNull(deadline, "deadline");
            if (!positive(after) || !positive(every) || !positive(deadline) || limit < 1) {
                throw new IllegalArgumentException("the approval check needs positive durations and limit");
            }
        }

        public static Policy defaults() {
            return new Policy(DEFAULT_AFTER, DEFAULT_EVERY, DEFAULT_DEADLINE, DEFAULT_LIMIT);
        }

        /**
         * From configuration text, fail-safe: a missing, garbled, zero or negative value means its default.
         * Durations as {@code 30s}, {@code 10m}, {@code 7d}, milliseconds, or ISO-8601.
         */
        public static Policy of(String after, String every, String deadline, String limit) {
            return new Policy(LenientSettings.duration(after).orElse(DEFAULT_AFTER),
                    LenientSettings.duration(every).orElse(DEFAULT_EVERY),
                    LenientSettings.duration(deadline).orElse(DEFAULT_DEADLINE),
                    LenientSettings.positiveCount(limit).orElse(DEFAULT_LIMIT));
        }

        private static boolean positive(Duration d) {
            return !d.isNegative() && !d.isZero();
        }
    }

    /** One scheduled run (the policy says everything). */
    public record Command() {}

    /**
     * What one run did.
     *
     * @param approvalSystemDown the run stopped (or was skipped) because the approval system failed transiently
     */
    public record Result(int examined, int decided, int resubmitted, int withdrawn, boolean approvalSystemDown) {}

    /** What checking one request did. */
    public enum Outcome {
        /** The approval system's decision was applied now. */
        DECIDED,
        /** Submitted again (unknown there), or back to SENT (pending there after a failed send). */
        RESUBMITTED,
        /** Pending past its deadline: withdrawn, the request is REJECTED. */
        WITHDRAWN,
        /** Still pending within its deadline, or the decision was applied already (e.g. by its callback). */
        WAITING,
        /** Not waiting on the approval system (any more), or nothing the approval system knows. */
        SKIPPED
    }

    private final Operations operations;
    private final Approvals approvals;
    private final SubmitApproval submit;
    private final HandleApprovalCallback decisions;
    private final Policy policy;
    private final Clock clock;

    private Optional<OperationId> cursor = Optional.empty();
    private int failedRuns;
    private Instant pausedUntil = Instant.MIN;

    public ReconcileApprovals(Operations operations, Approvals approvals, SubmitApproval submit,
                              HandleApprovalCallback decisions, Policy policy, Clock clock) {
        this.operations = operations;
        this.approvals = approvals;
        this.submit = submit;
        this.decisions = decisions;
        this.policy = policy;
        this.clock = clock;
    }

    public Policy policy() {
        return policy;
    }

    public synchronized Result reconcile(Command command) {
        if (clock.instant().isBefore(pausedUntil)) {
            return new Result(0, 0, 0, 0, true);
        }
        var page = operations.idleIn(CHECKED, policy.after(), new Operations.IdPage(cursor, policy.limit()));
        int examined = 0;
        int decided = 0;
        int resubmitted = 0;
        int withdrawn = 0;
        for (var op : page) {
            Outcome outcome;
            try {
                outcome = check(op);
            } catch (ExternalCallException e) {
                if (e.isTransient()) {
                    backOff(e);
                    return new Result(examined, decided, resubmitted, withdrawn, true);
                }
                LOG.log(Level.WARNING, () -> "the approval system refused the check of " + op.id() + ": " + e.status());
                outcome = Outcome.SKIPPED;
            } catch (PreemptedException e) {
                LOG.log(Level.DEBUG, () -> op.id() + " changed while it was checked; the next round looks again");
                outcome = Outcome.SKIPPED;
            }
            cursor = Optional.of(op.id());
            examined++;
            switch (outcome) {
                case DECIDED -> decided++;
                case RESUBMITTED -> resubmitted++;
                case WITHDRAWN -> withdrawn++;
                case WAITING, SKIPPED -> {
                }
            }
        }
        if (page.size() < policy.limit()) {
            cursor = Optional.empty();
        }
        failedRuns = 0;
        pausedUntil = Instant.MIN;
        return new Result(examined, decided, resubmitted, withdrawn, false);
    }

    /**
     * Checks one request ({@code op}, as just read) now, whatever its age.
     *
     * @throws ExternalCallException when the approval system cannot be asked (nothing was written)
     */
    public Outcome checkNow(Operation op) {
        if (!op.binding().map(CHECKED::contains).orElse(false)) {
            return Outcome.SKIPPED;
        }
        return check(op);
    }

    private Outcome check(Operation op) {
        var status = op.binding().orElseThrow();
        var ticket = approvals.read(op.id());
        if (ticket.decided()) {
            if (!approvedByAParty(op, ticket)) {
                return decide(op, ticket);
            }
            // issue 32: an approval by the requester or the subject does not count (its detail is written there);
            // the request still waits, so the approval deadline below still ends the wait
            decide(op, ticket);
        }
        if (ticket.status() == TicketStatus.UNKNOWN && status == BindingStatus.APPROVAL_FAILED) {
            return Outcome.SKIPPED;
        }
        var deadline = deadline(op);
        if (!clock.instant().isBefore(deadline.at())) {
            return withdraw(op, deadline.reason());
        }
        if (ticket.status() == TicketStatus.UNKNOWN || status != BindingStatus.APPROVAL_SENT) {
            return resubmit(op, ticket);
        }
        return Outcome.WAITING;
    }

    private Outcome decide(Operation op, Ticket ticket) {
        var answer = decisions.handle(SubmitApproval.commandOf(op, ticket));
        LOG.log(Level.INFO, () -> "approval check: " + op.id() + " is " + ticket.status() + " at the approval system ("
                + answer + ")");
        return answer == CallbackAnswer.PROCESSED ? Outcome.DECIDED : Outcome.WAITING;
    }

    private Outcome resubmit(Operation op, Ticket ticket) {
        if (op.binding().orElseThrow() == BindingStatus.APPROVAL_FAILED) {
            // pending there: the approval system took the form after all; no call between the two writes
            var sending = submit.requestAgain(op);
            if (sending.isEmpty()) {
                return Outcome.SKIPPED;
            }
            LOG.log(Level.INFO, () -> "approval check: " + op.id() + " failed to send but is pending at the approval system");
            submit.sent(sending.get(), ticket);
            return Outcome.RESUBMITTED;
        }
        LOG.log(Level.INFO, () -> "approval check: " + op.id() + " is " + ticket.status() + " at the approval system at "
                + op.state() + "; sending it again");
        return submit.send(op) ? Outcome.RESUBMITTED : Outcome.SKIPPED;
    }

    private Outcome withdraw(Operation op, String reason) {
        var after = approvals.withdraw(op.id());
        if ((after.status() == TicketStatus.APPROVED && !approvedByAParty(op, after))
                || after.status() == TicketStatus.REJECTED) {
            // an approver decided in the meantime: that decision counts
            return decide(op, after);
        }
        // a decided ticket's requestId is its decision's; the withdrawal of a request whose approval did not count
        // gets a key of its own
        var requestId = after.status() == TicketStatus.WITHDRAWN ? after.requestId() : java.util.Optional.<String>empty();
        var answer = decisions.handle(SubmitApproval.commandOf(op,
                new Ticket(TicketStatus.WITHDRAWN, after.ticket(), requestId, after.ext()), reason));
        LOG.log(Level.INFO, () -> "approval check: " + op.id() + " waited past its deadline; withdrawn (" + answer + ")");
        return answer == CallbackAnswer.PROCESSED ? Outcome.WITHDRAWN : Outcome.WAITING;
    }

    /** An approval by the request's requester or subject, which does not count (issue 32, separation of duties). */
    private static boolean approvedByAParty(Operation op, Ticket ticket) {
        return ticket.status() == TicketStatus.APPROVED
                && ticket.decidedBy().flatMap(approver -> HandleApprovalCallback.conflictOf(op, approver)).isPresent();
    }

    private record Deadline(Instant at, String reason) {}

    private Deadline deadline(Operation op) {
        var byPolicy = op.createdAt().plus(policy.deadline());
        if (op.kind().removes()) {
            // a removal's expiresAt is the grant's until (passed, for an expiry): only the approval deadline bounds it
            return new Deadline(byPolicy, "No approver decided within " + spoken(policy.deadline())
                    + "; the removal was withdrawn.");
        }
        var renewed = op.isRenewal() ? operations.find(op.removes().orElseThrow()).flatMap(Operation::expiresAt)
                : Optional.<Instant>empty();
        if (renewed.isPresent() && renewed.get().isBefore(byPolicy)) {
            // issue 36: nobody keeps access past its until without an approver's yes to the later one
            return new Deadline(renewed.get(), "No approver decided the renewal before the grant it renews expired ("
                    + renewed.get() + "); the renewal was withdrawn and the grant's line is removed. You can apply again.");
        }
        if (op.expiresAt().isPresent() && op.expiresAt().get().isBefore(byPolicy)) {
            return new Deadline(op.expiresAt().get(), "No approver decided before the requested access would have ended ("
                    + op.expiresAt().get() + "); the request was withdrawn. You can apply again.");
        }
        return new Deadline(byPolicy, "No approver decided within " + spoken(policy.deadline())
                + "; the request was withdrawn. You can apply again.");
    }

    private void backOff(ExternalCallException e) {
        failedRuns++;
        var pause = policy.every().multipliedBy(1L << Math.min(failedRuns, MAX_PAUSE_DOUBLINGS));
        pausedUntil = clock.instant().plus(pause);
        LOG.log(Level.WARNING, () -> "approval check: the approval system is unavailable (" + e.kind() + " " + e.status()
                + "); nothing changed, next check in " + pause);
    }

    /** A duration as a person says it: "7 days", "36 hours", "90 minutes", "45 seconds". */
    static String spoken(Duration d) {
        if (d.toDays() > 0 && d.equals(Duration.ofDays(d.toDays()))) {
            return plural(d.toDays(), "day");
        }
        if (d.toHours() > 0 && d.equals(Duration.ofHours(d.toHours()))) {
            return plural(d.toHours(), "hour");
        }
        if (d.toMinutes() > 0 && d.equals(Duration.ofMinutes(d.toMinutes()))) {
            return plural(d.toMinutes(), "minute");
        }
        return plural(Math.max(1, d.toSeconds()), "second");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
