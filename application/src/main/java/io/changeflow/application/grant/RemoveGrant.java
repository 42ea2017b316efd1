package io.changeflow.application.grant;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.query.RequestView;
import io.changeflow.application.workflow.AuditTrail;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Revocation (issue 18): the subject gives a grant in effect up (only the subject, issue 37: whoever requested it holds
 * no right over it), or an operator revokes one
 * (audited); a REVOCATION_REQUESTED removal takes the row over and joins the removal round of the target's file, or
 * asks the approver first where the target says so. The whole life of a grant: docs/operations.md, "The grant's whole
 * life".
 */
public final class RemoveGrant {

    /** Who removes it. */
    public enum By {
        /** The subject of the grant in effect: giving it up. */
        HOLDER,
        /** An operator: revoking it (audited). */
        OPERATOR
    }

    /**
     * @param subjectId  as sent (untrusted)
     * @param targetKey  as sent (untrusted)
     * @param actor      the authenticated caller's canonical account (written by the server)
     * @param parameters for an operator: already masked and truncated, for the audit entry
     */
    public record Command(String subjectId, String targetKey, String actor, By by, Map<String, String> parameters) {
        public Command {
            Objects.requireNonNull(actor, "actor");
            Objects.requireNonNull(by, "by");
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        }

        /** The caller gives up a grant of {@code subjectId} (empty: their own account) on {@code targetKey}. */
        public static Command giveUp(String subjectId, String targetKey, String caller) {
            return new Command(subjectId == null || subjectId.isBlank() ? caller : subjectId, targetKey, caller, By.HOLDER,
                    Map.of());
        }

        public static Command revoke(String subjectId, String targetKey, String operator, Map<String, String> parameters) {
            return new Command(subjectId, targetKey, operator, By.OPERATOR, parameters);
        }
    }

    /** The answer; {@link #code()} is the stable code of the API contract. */
    public sealed interface Result {

        default String code() {
            return switch (this) {
                case Accepted accepted -> "REMOVAL_ACCEPTED";
                case NotFound notFound -> "NOT_FOUND";
                case NotAllowedForSubject notAllowed -> "NOT_ALLOWED_FOR_SUBJECT";
                case NotInEffect notInEffect -> "GRANT_NOT_IN_EFFECT";
                case ChangedMeanwhile changed -> "GRANT_CHANGED";
            };
        }

        /** 202: the removal is opened and waits for its file's removal round (or, first, for the approver). */
        record Accepted(RequestView removal) implements Result {}

        /** 404: no grant of this subject on this target. */
        record NotFound() implements Result {}

        /**
         * 403: a give-up naming another subject than the caller; refused before anything is read, so it tells nothing
         * about that person's access.
         */
        record NotAllowedForSubject() implements Result {}

        /** 409: the relationship is not in effect now (in progress, being removed, or ended). */
        record NotInEffect(BindingStatus status) implements Result {}

        /** 409: the relationship changed while this was decided (another removal or a renewal won): read again. */
        record ChangedMeanwhile() implements Result {}
    }

    private final Operations operations;
    private final RemovalRounds removals;
    private final AuditTrail audit;

    public RemoveGrant(Operations operations, Batches batches, Targets targets, StepLauncher launcher, AuditLog audit,
                       Clock clock) {
        this(operations, batches, targets, launcher, audit, clock, RemovalRounds.RANDOM_IDS);
    }

    public RemoveGrant(Operations operations, Batches batches, Targets targets, StepLauncher launcher, AuditLog audit,
                       Clock clock, Supplier<OperationId> ids) {
        this.operations = operations;
        this.removals = new RemovalRounds(operations, batches, targets, launcher, ids);
        this.audit = new AuditTrail(audit, clock);
    }

    public Result remove(Command command) {
        var result = removeNow(command);
        if (command.by() == By.OPERATOR) {
            record(command, result);
        }
        return result;
    }

    private Result removeNow(Command command) {
        if (command.by() == By.HOLDER && !command.actor().equals(command.subjectId())) {
            return new Result.NotAllowedForSubject();
        }
        var subject = SubjectId.parse(command.subjectId());
        var target = TargetKey.parse(command.targetKey());
        if (subject.isEmpty() || target.isEmpty()) {
            return new Result.NotFound();
        }
        var row = operations.binding(subject.get(), target.get());
        if (row.isEmpty()) {
            return new Result.NotFound();
        }
        if (!BindingStatus.REMOVABLE.contains(row.get().status())) {
            return new Result.NotInEffect(row.get().status());
        }
        var detail = command.by() == By.OPERATOR
                ? "Revoked by the operator " + command.actor() + "; the line is removed from the grant file."
                : "Given up by " + command.actor() + "; the line is removed from the grant file.";
        var asking = command.by() == By.OPERATOR ? RemovalRounds.Asking.BY_TARGET : RemovalRounds.Asking.NEVER;
        var opened = removals.open(row.get(), WorkflowEvent.REVOCATION_REQUESTED, asking, command.actor(), detail);
        if (opened.isEmpty()) {
            return new Result.ChangedMeanwhile();
        }
        return switch (opened.get()) {
            case Operations.OpenResult.Blocked blocked -> new Result.NotInEffect(blocked.existing().status());
            case Operations.OpenResult.Opened o -> new Result.Accepted(RequestView.read(o.operation(),
                    operations.history(o.operation().id()), operations));
        };
    }

    private void record(Command command, Result result) {
        var parameters = AuditTrail.parametersOf(command.parameters());
        parameters.put("subjectId", String.valueOf(command.subjectId()));
        parameters.put("targetKey", String.valueOf(command.targetKey()));
        parameters.put("result", result.code());
        if (result instanceof Result.Accepted accepted) {
            parameters.put("operationId", accepted.removal().operationId().value());
        }
        audit.record("revoke", command.actor(), "REVOKE_GRANT", "binding:" + command.subjectId() + "/" + command.targetKey(),
                parameters);
    }
}
