package io.changeflow.domain.operation;

import java.util.Objects;

/** Where an operation's (or a batch's) merge request lives on GitLab. */
public record MergeRequestRef(String project, long iid, String sourceBranch, String webUrl) {

    public MergeRequestRef {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(sourceBranch, "sourceBranch");
        Objects.requireNonNull(webUrl, "webUrl");
        if (iid <= 0) {
            throw new IllegalArgumentException("merge request numbers start at 1");
        }
    }
}
