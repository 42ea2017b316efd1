package io.changeflow.application.port.out;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The running instances of the service, each with the version and commit it was built from (issue 31), so an
 * operator sees a mixed-version cluster during a rolling upgrade. Every time is the database clock's: instances
 * whose clocks disagree still compare their heartbeats on one clock.
 */
public interface Instances {

    /** Records {@code instance} as started and seen now; a restart under the same name replaces its row. */
    void started(Identity instance);

    /** Marks {@code name} seen now; false when it has no row (forgotten while it was silent: announce it again). */
    boolean seen(String name);

    /** Marks {@code name} as stopped now (a graceful stop); nothing when it has no row. */
    void stopped(String name);

    /** Every instance recorded, by name, and the database clock at the read. */
    Roster roster();

    /** Deletes the instances not seen for {@code age} (stopped or silent); returns how many. */
    int forgetUnseenFor(Duration age);

    /** What an instance says of itself. Version and commit are {@code unknown} for a build without them. */
    record Identity(String name, String version, String commit) {
        public Identity {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(commit, "commit");
            if (name.isBlank() || name.length() > 100 || version.length() > 64 || commit.length() > 64) {
                throw new IllegalArgumentException("an instance name is 1 to 100 characters, a version and a commit at"
                        + " most 64");
            }
        }
    }

    /** One recorded instance; {@code stoppedAt} is empty while it runs (or when it died without stopping). */
    record Instance(Identity identity, Instant startedAt, Instant lastSeen, Optional<Instant> stoppedAt) {}

    /** The instances and the database clock when they were read. */
    record Roster(Instant at, List<Instance> instances) {}
}
