package io.changeflow.application.query;

import io.changeflow.application.port.out.Permissions;
import io.changeflow.application.port.out.TargetFiles;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.ChangePreview;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.TargetKey;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Optional;

/**
 * The read-only preview of the change a request's merge request would make, from the target file's
 * current content on the default branch. The input is read with the same rules as a submission, so
 * the added line is exactly the one the merge request will write. Any failure (unknown target,
 * invalid input, GitLab down) gives an empty preview: a preview never blocks submitting. GitLab is read
 * through {@link TargetFiles}, isolated from the workflow's {@code MergeRequests}. Nobody learns about
 * another person's access: for another subject than the caller, only an operator sees the line the
 * merge request would replace; anyone else sees the line it would add and nothing of the file (it is
 * not even read, so the answer's timing tells nothing either).
 */
public final class PreviewChange {

    /** The placeholder operation shown when the form has no operationId yet. */
    static final String PLACEHOLDER = "00000000-0000-0000-0000-000000000000";

    private static final System.Logger LOG = System.getLogger(PreviewChange.class.getName());

    /**
     * Untrusted input as the client sent it.
     *
     * @param subjectId   empty or blank: the requester
     * @param requester   the caller, as identified by the login proxy
     * @param operationId the form's operationId, shown in the added line when present
     * @param expiresAt   as in a submission (a date or an instant), optional
     */
    public record Command(String targetKey, Optional<String> subjectId, Identity requester,
                          Optional<String> operationId, Optional<String> expiresAt) {}

    private final Targets targets;
    private final TargetFiles files;
    private final Permissions permissions;
    private final Clock clock;

    public PreviewChange(Targets targets, TargetFiles files, Permissions permissions, Clock clock) {
        this.targets = targets;
        this.files = files;
        this.permissions = permissions;
        this.clock = clock;
    }

    public Optional<ChangePreview> preview(Command command) {
        try {
            var operationId = command.operationId().flatMap(OperationId::parse).map(OperationId::value).orElse(PLACEHOLDER);
            var submission = new Submission(operationId, command.targetKey(), command.subjectId().orElse(null),
                    "preview", command.expiresAt().orElse(null));
            if (!(submission.validate(command.requester().account(), clock.instant()) instanceof Submission.Validation.Valid valid)) {
                return Optional.empty();
            }
            var target = targets.find(TargetKey.of(valid.request().target().value()));
            if (target.isEmpty()) {
                return Optional.empty();
            }
            var grant = Grant.of(valid.request());
            if (!mayReadLinesOf(command.requester(), valid.request().subject().value())) {
                return Optional.of(ChangePreview.of(target.get(), grant));
            }
            var current = files.currentContent(target.get().project(), target.get().filePath());
            return Optional.of(current.map(content -> ChangePreview.of(target.get(), content, grant))
                    .orElseGet(() -> ChangePreview.of(target.get(), grant)));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "preview unavailable; submitting is not affected", e);
            return Optional.empty();
        }
    }

    /** The caller's own lines, or an operator's view of anyone's; the permission check fails closed. */
    private boolean mayReadLinesOf(Identity caller, String subject) {
        if (!caller.isVerified()) {
            return false;
        }
        if (caller.account().equals(subject)) {
            return true;
        }
        try {
            return !permissions.granted(caller, ShowChangeRequest.OPERATOR_RULES).isEmpty();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "permission service failed; the preview shows only the added line", e);
            return false;
        }
    }
}
