package io.changeflow.domain.batch;

/** Why a batch failed, which decides what happens to its members. */
public enum FailureKind {
    /** The same changes fail again (pipeline failed, rebase conflict): bisect to find the cause. */
    DETERMINISTIC,
    /** Unknown or transient (timeout, GitLab errors): requeue everyone, blame no one. */
    TRANSIENT
}
