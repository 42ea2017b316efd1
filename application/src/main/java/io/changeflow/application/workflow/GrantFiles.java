package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.Target;
import java.util.Collection;
import java.util.List;

/** Grant files as the workflow generates them: the file as a ref holds it now, with grants applied by {@link GrantFile}. */
public final class GrantFiles {

    private GrantFiles() {
    }

    /**
     * The content of {@code target}'s grant file on {@code ref} (read from GitLab; a missing file is an empty
     * one) with {@code grants} applied: the file a commit based on {@code ref} carries. Every line of the
     * file as it is now is kept (other subjects' grants, comments, lines {@link GrantFile} cannot parse), so
     * generating it on the current content of a branch never conflicts with what that branch holds.
     */
    public static FileChange on(MergeRequests gitlab, String project, String ref, Target target, Collection<Grant> grants) {
        return on(gitlab, project, ref, target, grants, List.of());
    }

    /**
     * The same with {@code removed} taken out: exactly those lines ({@link GrantFile#without}); a line edited by
     * hand since, or one the file cannot parse, stays.
     */
    public static FileChange on(MergeRequests gitlab, String project, String ref, Target target, Collection<Grant> grants,
                                Collection<Grant> removed) {
        var content = read(gitlab, project, ref, target).with(grants).without(removed).render();
        return new FileChange(target.filePath(), content);
    }

    /** {@code target}'s grant file as {@code ref} holds it now; a missing file is {@link GrantFile#missing}. */
    public static GrantFile read(MergeRequests gitlab, String project, String ref, Target target) {
        return parse(target, new MergeRequests.FileRead(target.filePath(), gitlab.readFile(project, ref, target.filePath())));
    }

    /** {@code target}'s grant file as {@code read} found it; a missing file is {@link GrantFile#missing}. */
    public static GrantFile parse(Target target, MergeRequests.FileRead read) {
        return read.content()
                .map(content -> GrantFile.parse(target.key(), content))
                .orElseGet(() -> GrantFile.missing(target.key()));
    }
}
