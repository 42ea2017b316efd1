package io.changeflow.application.port.out;

import java.util.Objects;
import java.util.Optional;

/**
 * Where each recurring scan (reconciliation, the stuck-request sweeps) continues: the position after the
 * last page it read, kept between runs and across instances, so every run reads the next page instead of
 * the oldest rows again (no candidate starves behind rows that never move).
 */
public interface ScanCursors {

    /** Where {@code scan} continues; empty: from the start (never run, reached the end, or reset). */
    Optional<Position> position(String scan);

    /** Remembers where {@code scan} continues. Last writer wins (with {@link #forget} too). */
    void remember(String scan, Position position);

    /** Remembers that {@code scan} continues from the start. Last writer wins (with {@link #remember} too). */
    void forget(String scan);

    /** An opaque position, made and read by the adapter that runs the scan's query; at most 255 characters. */
    record Position(String token) {
        public Position {
            Objects.requireNonNull(token, "token");
            if (token.isBlank() || token.length() > 255) {
                throw new IllegalArgumentException("a scan position is 1 to 255 characters");
            }
        }
    }
}
