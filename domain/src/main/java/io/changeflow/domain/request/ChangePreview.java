package io.changeflow.domain.request;

import java.util.Optional;

/**
 * The read-only preview of what a request's merge request would change: the line it replaces (if
 * the subject already had one) and the line it writes.
 */
public record ChangePreview(String project, String filePath, Optional<String> removedLine, String addedLine) {

    public static ChangePreview of(Target target, Optional<String> currentContent, Grant grant) {
        var file = GrantFile.parse(target.key(), currentContent);
        return new ChangePreview(target.project(), target.filePath(),
                file.grantOf(grant.subject()).map(Grant::line), grant.line());
    }
}
