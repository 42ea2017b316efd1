package io.changeflow.application.drift;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.application.workflow.AuditTrail;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * An operator acts on one drift item (issue 36, item 2): removes its line through the normal workflow, adopts it as a
 * grant with an expiry, or acknowledges it with a reason. Every answer but "no such item" is audited. The status moves
 * are the table {@link DriftStatus#allows}, guarded by the status and version read: an item another operator (or the
 * detection job) moved meanwhile answers {@link Result.AlreadyHandled}, nothing written.
 *
 * <p>Adopting is a normal grant request for the item's subject on its target with the operator's {@code until},
 * requested by the operator: an approver says yes to it (nobody holds access past an until no approver agreed to), and
 * its merge rewrites the subject's line on main with the request's operation and until. The service never writes a
 * grant in effect that main does not show. Design: docs/workflow.md, "Drift: what an operator does".
 */
public final class ActOnDrift {

    /** What the operator does. */
    public sealed interface Action {
        /** Remove exactly the item's line through the workflow (merge request, pipeline, bots, deploy confirmation). */
        record Remove() implements Action {}

        /** Ask for the line as a grant until {@code until} (ISO date or instant, untrusted; blank: no expiry). */
        record Adopt(String until) implements Action {}

        /** Leave the line as it is, for {@code reason} (untrusted; required). */
        record Acknowledge(String reason) implements Action {}
    }

    /**
     * @param itemId     the item's number as sent (untrusted)
     * @param operator   the authenticated operator (written by the server)
     * @param parameters already masked and truncated, for the audit entry
     */
    public record Command(String itemId, Action action, String operator, Map<String, String> parameters) {
        public Command {
            Objects.requireNonNull(action, "action");
            Objects.requireNonNull(operator, "operator");
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        }
    }

    /**
     * Opens the removal of exactly the item's line through the normal workflow (drift detection's removal).
     * Returns the removal's operation, or empty when it cannot be opened now (the subject's row is owned by a request in
     * progress, or the line is no longer on main): nothing was written then.
     */
    @FunctionalInterface
    public interface LineRemoval {
        Optional<OperationId> open(DriftItem item, String actor, String reason);
    }

    /** The answer; {@link #code()} is the stable code of the API contract. */
    public sealed interface Result {

        default String code() {
            return switch (this) {
                case Done done -> done.item().status().name();
                case NotFound notFound -> "NOT_FOUND";
                case Invalid invalid -> "INVALID_REQUEST";
                case AlreadyHandled handled -> "DRIFT_ALREADY_HANDLED";
                case NotPossible notPossible -> "DRIFT_ACTION_NOT_POSSIBLE";
                case Refused refused -> refused.answer().code();
            };
        }

        /** 200: the item as it is now ({@code request}: the removal or the adopting request). */
        record Done(DriftItem item, Optional<OperationId> request) implements Result {}

        /** 404: no item with this number. */
        record NotFound() implements Result {}

        /** 400: a missing reason, an unreadable until; every field at once. */
        record Invalid(List<FieldError> fieldErrors) implements Result {
            public Invalid {
                fieldErrors = List.copyOf(fieldErrors);
            }
        }

        /** 409: the item is not where this action starts (handled already, or moved meanwhile): nothing was written. */
        record AlreadyHandled(DriftStatus status) implements Result {}

        /**
         * 409: this action does not apply to this item: a missing line cannot be removed or adopted, content that
         * names no subject cannot be adopted, or the workflow cannot open the removal now (retry later).
         */
        record NotPossible(String reason) implements Result {}

        /** The adopting request was refused; the submission's own answer (its code and status), nothing moved. */
        record Refused(SubmitChangeRequest.Result answer) implements Result {}
    }

    static final int REASON_MAX = Submission.REASON_MAX;

    private final Drifts drifts;
    private final LineRemoval removal;
    private final SubmitChangeRequest submit;
    private final AuditTrail audit;
    private final Clock clock;
    private final Supplier<OperationId> ids;

    public ActOnDrift(Drifts drifts, LineRemoval removal, SubmitChangeRequest submit, AuditLog audit, Clock clock) {
        this(drifts, removal, submit, audit, clock, () -> OperationId.of(UUID.randomUUID().toString()));
    }

    public ActOnDrift(Drifts drifts, LineRemoval removal, SubmitChangeRequest submit, AuditLog audit, Clock clock,
                      Supplier<OperationId> ids) {
        this.drifts = Objects.requireNonNull(drifts, "drifts");
        this.removal = Objects.requireNonNull(removal, "removal");
        this.submit = Objects.requireNonNull(submit, "submit");
        this.audit = new AuditTrail(audit, clock);
        this.clock = clock;
        this.ids = ids;
    }

    /** The actions that apply to {@code item} as it stands ({@code REMOVE}, {@code ADOPT}, {@code ACKNOWLEDGE}), in that order. */
    public static List<String> allowedActions(DriftItem item) {
        var allowed = new java.util.ArrayList<String>(3);
        if (removable(item) && item.status().allows(DriftStatus.REMOVING)) {
            allowed.add("REMOVE");
        }
        if (item.kind().onMain() && item.subject().isPresent() && item.status().allows(DriftStatus.ADOPTED)) {
            allowed.add("ADOPT");
        }
        if (item.status().allows(DriftStatus.ACKNOWLEDGED)) {
            allowed.add("ACKNOWLEDGE");
        }
        return List.copyOf(allowed);
    }

    public Result act(Command command) {
        var id = parseId(command.itemId());
        var item = id.flatMap(drifts::find);
        if (item.isEmpty()) {
            return new Result.NotFound();
        }
        var result = switch (command.action()) {
            case Action.Acknowledge acknowledge -> acknowledge(item.get(), acknowledge.reason(), command.operator());
            case Action.Adopt adopt -> adopt(item.get(), adopt.until(), command.operator());
            case Action.Remove remove -> remove(item.get(), command.operator());
        };
        record(command, item.get(), result);
        return result;
    }

    private Result acknowledge(DriftItem item, String reason, String operator) {
        var text = reason == null ? "" : reason.strip();
        if (text.isEmpty() || text.codePointCount(0, text.length()) > REASON_MAX
                || text.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t')) {
            return new Result.Invalid(List.of(text.isEmpty()
                    ? new FieldError("reason", "REQUIRED", "reason is required: say why the line stays as it is")
                    : text.codePointCount(0, text.length()) > REASON_MAX
                            ? new FieldError("reason", "TOO_LONG", "reason is at most " + REASON_MAX + " characters")
                            : new FieldError("reason", "INVALID_CHARACTERS", "reason contains control characters")));
        }
        return moved(item, DriftStatus.ACKNOWLEDGED, operator, "Acknowledged by " + operator + ": " + text,
                Optional.empty(), Optional.empty());
    }

    private Result adopt(DriftItem item, String until, String operator) {
        if (!item.status().allows(DriftStatus.ADOPTED)) {
            return new Result.AlreadyHandled(item.status());
        }
        if (item.subject().isEmpty() || !item.kind().onMain()) {
            return new Result.NotPossible(item.kind() == DriftKind.MISSING_LINE
                    ? "A missing line cannot be adopted: ask for the grant again, or end it."
                    : "This content names no subject: there is nobody to grant it to.");
        }
        var requestId = ids.get();
        var reason = "Adopting drift item " + item.id() + " on " + item.target().value() + ": the line '"
                + clip(item.line()) + "' found on main.";
        var submission = new Submission(requestId.value(), item.target().value(), item.subject().get().value(), reason,
                until == null ? null : until.strip());
        var answer = submit.submit(new SubmitChangeRequest.Command(submission, operator));
        return switch (answer) {
            case SubmitChangeRequest.Result.Accepted accepted -> moved(item, DriftStatus.ADOPTED, operator,
                    "Adopted by " + operator + " as request " + requestId.value() + " (until "
                            + accepted.request().expiresAt().map(Object::toString).orElse("never")
                            + "); an approver decides, and its merge writes the subject's line.",
                    Optional.of(requestId), Optional.of(requestId));
            case SubmitChangeRequest.Result.Invalid invalid -> new Result.Invalid(invalid.fieldErrors().stream()
                    .map(e -> "expiresAt".equals(e.field()) ? new FieldError("until", e.code(), e.message().replace(
                            "expiresAt", "until")) : e).toList());
            default -> new Result.Refused(answer);
        };
    }

    private Result remove(DriftItem item, String operator) {
        if (!item.status().allows(DriftStatus.REMOVING)) {
            return new Result.AlreadyHandled(item.status());
        }
        if (!item.kind().onMain()) {
            return new Result.NotPossible("A missing line is not on main: there is nothing to remove.");
        }
        if (!removable(item)) {
            return new Result.NotPossible("This content is not a grant line: drift handling never removes it, so "
                    + "nobody's notes in the file are lost. Acknowledge it, or edit the file by hand.");
        }
        var opened = removal.open(item, operator, "Removed by " + operator + " (drift item " + item.id() + ").");
        if (opened.isEmpty()) {
            return new Result.NotPossible("The removal cannot start now: a request of this subject on this target is in "
                    + "progress, or the line is gone. Look again after it ends.");
        }
        var current = drifts.find(item.id()).orElse(item);
        if (current.status() == DriftStatus.REMOVING) {
            return new Result.Done(current, opened);
        }
        return moved(current, DriftStatus.REMOVING, operator, "Removal " + opened.get().value() + " opened by " + operator
                + ".", opened, opened);
    }

    /** @param removal the operation opened for the item's line: the removal, or the adopting request */
    private Result moved(DriftItem item, DriftStatus to, String operator, String note, Optional<OperationId> removal,
                         Optional<OperationId> request) {
        if (!item.status().allows(to)) {
            return new Result.AlreadyHandled(item.status());
        }
        return drifts.move(item, to, operator, note, clock.instant(), removal)
                .<Result>map(after -> new Result.Done(after, request))
                .orElseGet(() -> new Result.AlreadyHandled(drifts.find(item.id()).map(DriftItem::status)
                        .orElse(item.status())));
    }

    private void record(Command command, DriftItem item, Result result) {
        var parameters = AuditTrail.parametersOf(command.parameters());
        parameters.put("itemId", String.valueOf(item.id()));
        parameters.put("kind", item.kind().name());
        parameters.put("result", result.code());
        switch (command.action()) {
            case Action.Acknowledge acknowledge -> parameters.put("reason", clip(String.valueOf(acknowledge.reason())));
            case Action.Adopt adopt -> parameters.put("until", clip(String.valueOf(adopt.until())));
            case Action.Remove remove -> { }
        }
        if (result instanceof Result.Done done) {
            done.request().ifPresent(request -> parameters.put("operationId", request.value()));
        }
        var action = switch (command.action()) {
            case Action.Acknowledge acknowledge -> "ACKNOWLEDGE_DRIFT";
            case Action.Adopt adopt -> "ADOPT_DRIFT";
            case Action.Remove remove -> "REMOVE_DRIFT";
        };
        audit.record("drift", command.operator(), action, "drift:" + item.id(), parameters);
    }

    /** Only a grant line on main is removed through the workflow (comments and unparsed text never are). */
    private static boolean removable(DriftItem item) {
        return item.kind().onMain() && GrantFile.parseLine(item.line()).isPresent();
    }

    private static Optional<Long> parseId(String raw) {
        if (raw == null || !raw.strip().matches("[0-9]{1,18}")) {
            return Optional.empty();
        }
        return Optional.of(Long.parseLong(raw.strip()));
    }

    private static String clip(String text) {
        var clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() <= 200 ? clean : clean.substring(0, 200) + "...";
    }
}
