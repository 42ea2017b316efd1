package io.changeflow.application.submit;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.query.RequestView;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.workflow.Emit;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Accepts a change request: synchronous validation only, then the workflow is handed to the durable work
 * queue and the answer is "accepted" with the operationId (HTTP 202). A duplicate submit answers with the
 * original request. The order of checks and concurrent duplicates: docs/workflow.md.
 *
 * <p>Rate limiting runs in the web layer before this use case, so a duplicate over quota gets 429
 * rather than DUPLICATE_SUBMIT: accepted by design.
 */
public final class SubmitChangeRequest {

    /** How long an idempotency key is remembered by default. */
    public static final Duration DEFAULT_KEY_TIME_TO_LIVE = Duration.ofDays(7);

    /**
     * How long a claimed key without an answer counts as "still being validated" (IDEMPOTENCY_IN_FLIGHT).
     * Validation takes milliseconds; a claim this old belongs to an instance that died before answering,
     * and the next retry of the same request takes it over and is validated again.
     */
    public static final Duration IN_FLIGHT_ABANDONED_AFTER = Duration.ofSeconds(30);

    /** How long a duplicate waits at most for the original request's answer before IDEMPOTENCY_IN_FLIGHT. */
    public static final Duration DUPLICATE_WAIT = Duration.ofSeconds(2);

    /** How often a waiting duplicate looks at the key again (one primary-key read each time). */
    public static final Duration DUPLICATE_RECHECK = Duration.ofMillis(50);

    /** The most looks of one waiting duplicate, whatever the clock says: the wait ends even if time stood still. */
    static final int MAX_LOOKS = (int) (DUPLICATE_WAIT.toMillis() / DUPLICATE_RECHECK.toMillis()) + 1;

    static final String ACCEPTED_OUTCOME = "ACCEPTED";

    /** How a waiting duplicate waits between two looks at the key: {@code Thread::sleep} in production. */
    @FunctionalInterface
    public interface Pause {
        void pause(Duration duration) throws InterruptedException;
    }

    private static final System.Logger LOG = System.getLogger(SubmitChangeRequest.class.getName());

    /** Rows whose owner ended without a merge: its own merge request is to be closed. */
    private static final Set<BindingStatus> ENDED_UNMERGED = Set.of(BindingStatus.REJECTED, BindingStatus.CLOSED);

    /** A submission by {@code requester} (the caller's canonical account). */
    public record Command(Submission submission, String requester) {
        public Command {
            Objects.requireNonNull(submission, "submission");
            Objects.requireNonNull(requester, "requester");
        }
    }

    /** The answer; {@link #code()} is the stable code of the API contract. */
    public sealed interface Result {

        default String code() {
            return switch (this) {
                case Accepted accepted -> "ACCEPTED";
                case DuplicateSubmit duplicate -> "DUPLICATE_SUBMIT";
                case Invalid invalid -> "INVALID_REQUEST";
                case ServiceClosed closed -> "SERVICE_CLOSED";
                case NotAllowedForSubject notAllowed -> "NOT_ALLOWED_FOR_SUBJECT";
                case RequestInProgress inProgress -> "REQUEST_IN_PROGRESS";
                case AlreadyInEffect inEffect -> "ALREADY_IN_EFFECT";
                case InFlight inFlight -> "IDEMPOTENCY_IN_FLIGHT";
                case KeyReused reused -> "IDEMPOTENCY_KEY_REUSED";
            };
        }

        /** 202: accepted; the workflow runs asynchronously. */
        record Accepted(RequestView request) implements Result {}

        /** 202: the same operationId with the same payload was accepted before: its current view. */
        record DuplicateSubmit(RequestView request) implements Result {}

        /** 400: field errors, all at once. */
        record Invalid(List<FieldError> fieldErrors) implements Result {
            public Invalid {
                fieldErrors = List.copyOf(fieldErrors);
            }
        }

        /** 403: submissions are closed (access mode CLOSED, or outside the test window). */
        record ServiceClosed() implements Result {}

        /**
         * 403: the target's policy of who may ask for whom ({@link io.changeflow.domain.request.AskPolicy}) does not let
         * this requester ask for this subject. Decided before anything about the subject's access is read.
         */
        record NotAllowedForSubject() implements Result {}

        /**
         * 409: an active request (or one awaiting recovery) exists for this subject and target. {@code askedForYou}: the
         * subject asked for themselves while a request someone else asked for them is past the point where it gives way
         * (merging, merged, in a batch): that request, whose requester the subject may know.
         */
        record RequestInProgress(Optional<RequestView> askedForYou) implements Result {
            public RequestInProgress {
                Objects.requireNonNull(askedForYou, "askedForYou");
            }

            public RequestInProgress() {
                this(Optional.empty());
            }
        }

        /** 409: the subject already has this target in effect. */
        record AlreadyInEffect() implements Result {}

        /** 409: the original request with this operationId is still being validated: retry shortly. */
        record InFlight() implements Result {}

        /** 422: the operationId was used for a different payload. */
        record KeyReused() implements Result {}
    }

    private final Operations operations;
    private final Targets targets;
    private final Directory directory;
    private final IdempotencyRecords idempotency;
    private final Settings settings;
    private final StepLauncher launcher;
    private final BusinessMetrics metrics;
    private final Clock clock;
    private final Duration keyTimeToLive;
    private final Pause pause;
    private final SubjectFirst subjectFirst;

    /**
     * @param directory tells who relates to whom, for targets whose policy is {@code related}
     * @param approvals withdraws the approval of a request someone else asked for a subject who then asks themselves
     * @param pause     how a duplicate waits for the original's answer between looks ({@code Thread::sleep})
     */
    public SubmitChangeRequest(Operations operations, Targets targets, Directory directory, IdempotencyRecords idempotency,
                               Settings settings, StepLauncher launcher, BusinessMetrics metrics, Approvals approvals,
                               Clock clock, Duration keyTimeToLive, Pause pause) {
        this.operations = operations;
        this.targets = targets;
        this.directory = Objects.requireNonNull(directory, "directory");
        this.idempotency = idempotency;
        this.settings = settings;
        this.launcher = launcher;
        this.metrics = metrics;
        this.clock = clock;
        this.keyTimeToLive = keyTimeToLive;
        this.pause = Objects.requireNonNull(pause, "pause");
        this.subjectFirst = new SubjectFirst(operations, new StateChanges(operations, metrics),
                Objects.requireNonNull(approvals, "approvals"), launcher);
    }

    public Result submit(Command command) {
        var validation = command.submission().validate(command.requester(), clock.instant());
        if (validation instanceof Submission.Validation.Invalid invalid) {
            return new Result.Invalid(invalid.errors());
        }
        var request = ((Submission.Validation.Valid) validation).request();
        var key = request.operationId().value();
        var fingerprint = request.fingerprint();
        var waitUntil = clock.instant().plus(DUPLICATE_WAIT);
        for (var look = 1; ; look++) {
            switch (idempotency.checkOrInsert(key, fingerprint, keyTimeToLive, IN_FLIGHT_ABANDONED_AFTER)) {
                case IdempotencyRecords.Claim.Existing existing -> {
                    var answer = answerExisting(request, fingerprint, existing);
                    if (!(answer instanceof Result.InFlight)) {
                        return answer;
                    }
                }
                case IdempotencyRecords.Claim.RetryLater retryLater -> {
                    // the winner of the insert vanished before it could be read: look again
                }
                case IdempotencyRecords.Claim.Fresh fresh -> {
                    return validateOwned(request, key);
                }
            }
            if (!waitForOriginal(look, waitUntil)) {
                return new Result.InFlight();
            }
        }
    }

    /**
     * Waits for the next look at a key another request is validating; false once the wait is over
     * ({@link #DUPLICATE_WAIT} by the clock, or {@link #MAX_LOOKS}) or the thread was interrupted.
     */
    private boolean waitForOriginal(int looks, Instant waitUntil) {
        var left = Duration.between(clock.instant(), waitUntil);
        if (looks >= MAX_LOOKS || left.isNegative() || left.isZero()) {
            return false;
        }
        try {
            pause.pause(left.compareTo(DUPLICATE_RECHECK) < 0 ? left : DUPLICATE_RECHECK);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** This caller owns the key: it validates, opens the request and stores (or releases) the answer. */
    private Result validateOwned(ChangeRequest request, String key) {
        Result result;
        try {
            result = decide(request);
        } catch (RuntimeException e) {
            releaseQuietly(key);
            throw e;
        }
        if (result instanceof Result.Accepted) {
            // its outcome was stored by the transaction that opened the request (issue 33): nothing more to write
            return result;
        }
        if (result instanceof Result.DuplicateSubmit) {
            try {
                idempotency.complete(key, ACCEPTED_OUTCOME);
            } catch (RuntimeException e) {
                // The request is accepted and stored; a retry finds the operation itself (see answerExisting).
                LOG.log(Level.WARNING, "could not store the outcome of " + key + "; retries resolve through the operation", e);
            }
        } else {
            releaseQuietly(key);
        }
        return result;
    }

    private Result decide(ChangeRequest request) {
        var earlier = operations.find(request.operationId());
        if (earlier.isPresent()) {
            // The key's record expired (or its outcome was never stored), but the operation exists: answered as a
            // duplicate would be, before the access check, so a retry after access closed is not told 403.
            return sameRequest(earlier.get(), request) ? duplicateOf(earlier.get()) : new Result.KeyReused();
        }
        if (!settings.accessOpen(clock.instant())) {
            return new Result.ServiceClosed();
        }
        var target = targets.find(request.target());
        if (target.isEmpty()) {
            return new Result.Invalid(List.of(new FieldError("targetKey", "UNKNOWN", "there is no such target")));
        }
        if (!mayAsk(request, target.get())) {
            return new Result.NotAllowedForSubject();
        }
        if (request.duration().isPresent()) {
            // issue 32 item 3: a duration is bounded by the target's maximum; its end is fixed when its line is written
            var refused = target.get().durations().checkDuration(request.duration().get());
            return refused.<Result>map(error -> new Result.Invalid(List.of(error)))
                    .orElseGet(() -> openFor(request, target.get()));
        }
        return switch (target.get().durations().apply(request.expiresAt(), clock.instant())) {
            case GrantDurations.Applied.TooFar tooFar -> new Result.Invalid(List.of(tooFar.error()));
            case GrantDurations.Applied.Ends ends -> openFor(new ChangeRequest(request.operationId(), request.requester(),
                    request.target(), request.subject(), request.reason(), ends.expiresAt()), target.get());
        };
    }

    /** Opens the request, with the end the target's rules gave it, on its row. */
    private Result openFor(ChangeRequest request, Target target) {
        var order = orderFor(target, request);
        var event = order == StepOrder.APPROVE_FIRST ? WorkflowEvent.SUBMITTED_APPROVE_FIRST : WorkflowEvent.SUBMITTED_CREATE_FIRST;
        var opened = open(request, order, event);
        var madeWay = false;
        if (opened.isEmpty()) {
            return new Result.RequestInProgress();
        }
        if (opened.get() instanceof Operations.OpenResult.Blocked blocked
                && !blocked.existing().operationId().equals(request.operationId())
                && !BindingStatus.REMOVABLE.contains(blocked.existing().status())) {
            switch (subjectFirst.makeWay(request, blocked.existing())) {
                case SubjectFirst.Outcome.Superseded superseded -> {
                    // its close and withdrawal are under way already: nothing is owed by the row it held
                    madeWay = true;
                    opened = open(request, order, event);
                }
                case SubjectFirst.Outcome.UnderWay underWay -> {
                    return new Result.RequestInProgress(Optional.of(
                            RequestView.summaryOf(underWay.other())));
                }
                case SubjectFirst.Outcome.Held held -> {
                    // the row's holder stays: REQUEST_IN_PROGRESS below
                }
            }
            if (opened.isEmpty()) {
                return new Result.RequestInProgress();
            }
        }
        return switch (opened.get()) {
            case Operations.OpenResult.Blocked blocked when blocked.existing().operationId().equals(request.operationId()) ->
                    duplicateOf(operations.find(request.operationId()).orElseThrow());
            // in effect: VALIDATED with the same expiry, or a grant whose removal was not approved (REMOVAL_REJECTED)
            case Operations.OpenResult.Blocked blocked when BindingStatus.REMOVABLE.contains(blocked.existing().status()) ->
                    new Result.AlreadyInEffect();
            case Operations.OpenResult.Blocked blocked -> new Result.RequestInProgress();
            case Operations.OpenResult.Opened o -> {
                if (!madeWay && o.replaced().isPresent()) {
                    closeOwedBy(o.replaced().get(), o.operation());
                }
                yield accepted(o, target);
            }
        };
    }

    /**
     * Opens the request on its row, storing the key's outcome (ACCEPTED) in the same transaction; empty when a
     * concurrent application won the row meanwhile (nothing stored: the key is released).
     */
    private Optional<Operations.OpenResult> open(ChangeRequest request, StepOrder order, WorkflowEvent event) {
        try {
            return Optional.of(operations.open(request, order, event, "Submitted by " + request.requester() + ".",
                    new IdempotencyRecords.Outcome(request.operationId().value(), ACCEPTED_OUTCOME)));
        } catch (PreemptedException e) {
            LOG.log(Level.INFO, () -> "concurrent application for " + request.subject() + "/" + request.target());
            return Optional.empty();
        }
    }

    /**
     * A refused or closed request whose merge request may still be open (its close failed, or its task was lost)
     * is detached by this re-application, where no job looks any more: its close is scheduled now. The close step
     * reads the merge request first, so one already closed costs a read.
     */
    private void closeOwedBy(Binding row, Operation opened) {
        if (!ENDED_UNMERGED.contains(row.status()) || row.operationId().equals(opened.id())) {
            return;
        }
        operations.find(row.operationId())
                .filter(old -> old.mergeRequest().isPresent() && old.step() != StepStatus.CLOSE_DONE)
                .ifPresent(old -> launcher.launchOwedClose(old.id()));
    }

    /**
     * Issue 37: the target's policy of who may ask for whom. A directory that cannot answer relates nobody (fail
     * closed: the requester may still ask for themselves).
     */
    private boolean mayAsk(ChangeRequest request, Target target) {
        var requester = request.requester();
        var subject = request.subject().value();
        return target.askFor().allows(requester, subject, () -> {
            try {
                return directory.relates(requester, subject);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the directory could not tell whether " + requester + " relates to " + subject
                        + "; refused as unrelated", e);
                return false;
            }
        });
    }

    /**
     * Batchable targets always approve first: a batch member joins the waiting set when its approval
     * is granted and its change travels in the batch's merge request, so a merge request of its own
     * (which the create-first order opens before approval) would defeat the aggregation. A request of a duration
     * approves first: the create-first order would write its line, and so fix its end, before the approval.
     */
    private StepOrder orderFor(Target target, ChangeRequest request) {
        // a request of a duration approves first too: its line is first written after approval, when its end is fixed
        return target.batchable() || request.duration().isPresent() || settings.approveFirst().value()
                ? StepOrder.APPROVE_FIRST : StepOrder.CREATE_FIRST;
    }

    private Result accepted(Operations.OpenResult.Opened opened, Target target) {
        var op = opened.operation();
        Emit.quietly("submitted", () -> metrics.submitted(target.key().value()));
        var launched = op.order() == StepOrder.APPROVE_FIRST
                ? launcher.launchFirst(op.id(), StepKind.SUBMIT_APPROVAL, WorkflowEvent.APPROVAL_SUBMIT_FAILED)
                : launcher.launchFirst(op.id(), StepKind.CREATE, WorkflowEvent.CREATE_ERROR);
        if (launched) {
            // the answer shows the request as its opening transaction left it: nothing read again (issue 33)
            return new Result.Accepted(RequestView.of(op, opened.history()));
        }
        // Accepted even when the queue refused: the request exists and shows its explicit failure state, whose
        // hint KEEP_WAITING is kept true by RetryTransientFailures (it re-runs the step once the backlog has room,
        // until the transient deadline, then CONTACT_MAINTAINERS).
        return new Result.Accepted(operations.findWithHistory(op.id())
                .map(current -> RequestView.of(current.operation(), current.history()))
                .orElseGet(() -> RequestView.of(op, opened.history())));
    }

    private Result answerExisting(ChangeRequest request, String fingerprint, IdempotencyRecords.Claim.Existing existing) {
        if (!existing.fingerprint().equals(fingerprint)) {
            return new Result.KeyReused();
        }
        var op = operations.find(request.operationId());
        if (op.isPresent() && sameRequest(op.get(), request)) {
            return duplicateOf(op.get());
        }
        return new Result.InFlight();
    }

    private Result duplicateOf(Operation op) {
        return new Result.DuplicateSubmit(RequestView.of(op, operations.history(op.id())));
    }

    /**
     * A retry is the same request; one that names no end also matches a stored request whose end the target's default
     * gave (issue 32: the default counts from the first submission, so a retry cannot reproduce it).
     */
    private static boolean sameRequest(Operation op, ChangeRequest request) {
        var stored = op.request();
        if (stored.fingerprint().equals(request.fingerprint())) {
            return true;
        }
        return request.expiresAt().isEmpty() && stored.expiresAt().isPresent()
                && new ChangeRequest(stored.operationId(), stored.requester(), stored.target(), stored.subject(),
                        stored.reason(), Optional.empty()).fingerprint().equals(request.fingerprint());
    }

    private void releaseQuietly(String key) {
        try {
            idempotency.release(key);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "could not release idempotency key " + key + "; it expires with its time to live", e);
        }
    }
}
