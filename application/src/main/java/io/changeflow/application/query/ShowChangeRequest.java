package io.changeflow.application.query;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.Set;

/**
 * Shows one request to its requester, its subject or an operator. Anyone else gets nothing, exactly as if the
 * request did not exist (the API answers 404 and reveals nothing). Permission checks fail closed.
 */
public final class ShowChangeRequest {

    /** Rule codes that let a person read any request. */
    public static final Set<String> OPERATOR_RULES = Set.of("ops.operator", "ops.admin");

    private static final System.Logger LOG = System.getLogger(ShowChangeRequest.class.getName());

    /** @param operationId as sent by the client (untrusted) */
    public record Command(String operationId, Identity viewer) {}

    private final Operations operations;
    private final Permissions permissions;
    private final Optional<RequestWaits> waits;

    /** Shows requests without their wait. */
    public ShowChangeRequest(Operations operations, Permissions permissions) {
        this.operations = operations;
        this.permissions = permissions;
        this.waits = Optional.empty();
    }

    /** Shows requests with who is expected to act next, since and until when ({@link RequestWait}). */
    public ShowChangeRequest(Operations operations, Permissions permissions, RequestWaits waits) {
        this.operations = operations;
        this.permissions = permissions;
        this.waits = Optional.of(waits);
    }

    /**
     * The request view and its version ({@link ViewVersion}), read together so that the version is the one of what
     * is shown.
     */
    public record Shown(RequestView view, String version) {}

    /**
     * The request with its timeline; empty when unknown or not visible to the viewer (visible to its requester, to
     * its subject, whoever asked for them, and to operators).
     */
    public Optional<RequestView> show(Command command) {
        return read(command).map(Shown::view);
    }

    /** {@link #show} with the view's version, as {@link #version} reads it without building the view. */
    public Optional<Shown> read(Command command) {
        var id = OperationId.parse(command.operationId());
        if (id.isEmpty()) {
            return Optional.empty();
        }
        // one read for the operation and its timeline (issue 15: the status read is polled by every open request page)
        var found = operations.findWithHistory(id.get());
        if (found.isEmpty() || !visible(found.get().operation(), command.viewer())) {
            return Optional.empty();
        }
        var op = found.get().operation();
        var history = found.get().history();
        var scheduled = waits.flatMap(w -> w.scheduledFor(op));
        var view = RequestView.read(op, history, operations);
        var shown = waits.flatMap(w -> w.of(op, history, scheduled)).map(view::withWaiting).orElse(view);
        return Optional.of(new Shown(shown, ViewVersion.of(op, scheduled)));
    }

    /**
     * The version of what {@link #show} would show, without building the view (issue 33: the conditional read of
     * every open request page's polling): one read of the operation and, while the service is to act on it, one of
     * its scheduled step; the same visibility as {@link #show}, so an invisible request has no version either.
     *
     * @return empty when unknown or not visible to the viewer
     */
    public Optional<String> version(Command command) {
        var id = OperationId.parse(command.operationId());
        if (id.isEmpty()) {
            return Optional.empty();
        }
        var found = operations.find(id.get());
        if (found.isEmpty() || !visible(found.get(), command.viewer())) {
            return Optional.empty();
        }
        return Optional.of(ViewVersion.of(found.get(), waits.flatMap(w -> w.scheduledFor(found.get()))));
    }

    private boolean visible(Operation op, Identity viewer) {
        var isRequester = viewer.isVerified() && viewer.account().equals(op.requester());
        // the subject's story too: a request someone asked for them (issue 37), the removal of their grant (its expiry,
        // a revocation)
        var isSubject = viewer.isVerified() && viewer.account().equals(op.subject().value());
        return isRequester || isSubject || isOperator(viewer);
    }

    private boolean isOperator(Identity viewer) {
        if (!viewer.isVerified()) {
            return false;
        }
        try {
            return !permissions.granted(viewer, OPERATOR_RULES).isEmpty();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "permission service failed; treating the viewer as no operator", e);
            return false;
        }
    }
}
