package io.changeflow.domain.request;

import java.util.Optional;

/**
 * The read-only preview of what a request's merge request would change: the line it replaces (if
 * the subject already had one) and the line it writes.
 */
public record ChangePreview(String project, String filePath, Optional<String> removedLine, String addedLine) {

    /** The preview against the grant file as it is now ({@code currentContent}). */
    public static ChangePreview of(Target target, String currentContent, Grant grant) {
        return of(target, GrantFile.parse(target.key(), currentContent), grant);
    }

    /** The preview when the target has no grant file yet. */
    public static ChangePreview of(Target target, Grant grant) {
        return of(target, GrantFile.missing(target.key()), grant);
    }

    private static ChangePreview of(Target target, GrantFile file, Grant grant) {
        return new ChangePreview(target.project(), target.filePath(),
                file.grantOf(grant.subject()).map(Grant::line), grant.line());
    }
}
