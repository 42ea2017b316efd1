package io.changeflow.application.query;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Permissions;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.OperationId;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.Set;

/**
 * Shows one request to its requester or to an operator. Anyone else gets nothing, exactly as if the
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

    public ShowChangeRequest(Operations operations, Permissions permissions) {
        this.operations = operations;
        this.permissions = permissions;
    }

    /** The request with its timeline; empty when unknown or not visible to the viewer. */
    public Optional<RequestView> show(Command command) {
        var id = OperationId.parse(command.operationId());
        if (id.isEmpty()) {
            return Optional.empty();
        }
        var op = operations.find(id.get());
        if (op.isEmpty()) {
            return Optional.empty();
        }
        var viewer = command.viewer();
        var isRequester = viewer.isVerified() && viewer.account().equals(op.get().requester());
        if (!isRequester && !isOperator(viewer)) {
            return Optional.empty();
        }
        return Optional.of(RequestView.of(op.get(), operations.history(id.get())));
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
