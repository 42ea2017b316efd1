package io.changeflow.application.setup;

import java.util.Objects;

/**
 * One thing in a GitLab project's setup that will stop Changeflow, found before a request fails on it.
 *
 * @param project  the GitLab project
 * @param what     a stable code, e.g. {@code AUTHOR_MAY_NOT_MERGE}
 * @param why      what it stops, for a person
 * @param action   what to do about it
 */
public record SetupFinding(String project, String what, Severity severity, String why, String action) {

    /** How bad a finding is. */
    public enum Severity {
        /** Requests of the project cannot complete until it is fixed. */
        BLOCKS,
        /** Requests complete, slower or with steps that can fail on their own. */
        WARNS
    }

    public SetupFinding {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(action, "action");
    }
}
