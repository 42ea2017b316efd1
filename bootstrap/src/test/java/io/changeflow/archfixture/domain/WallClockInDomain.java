package io.changeflow.archfixture.domain;

import java.time.Instant;
import java.time.LocalDateTime;

/** Deliberate violations: the core reading the wall clock. */
public class WallClockInDomain {

    Instant instant() {
        return Instant.now();
    }

    long millis() {
        return System.currentTimeMillis();
    }

    LocalDateTime local() {
        return LocalDateTime.now();
    }
}
