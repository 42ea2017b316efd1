package io.changeflow.domain.drift;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a line on main came from, as GitLab tells (its blame of the file at the commit read): the commit that last
 * changed the line, its author and when. Every part is empty where GitLab did not say (a missing line, a failed read).
 */
public record Evidence(Optional<String> commitSha, Optional<String> author, Optional<Instant> committedAt) {

    public static final Evidence NONE = new Evidence(Optional.empty(), Optional.empty(), Optional.empty());

    public Evidence {
        Objects.requireNonNull(commitSha, "commitSha");
        Objects.requireNonNull(author, "author");
        Objects.requireNonNull(committedAt, "committedAt");
    }
}
