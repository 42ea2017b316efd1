package io.changeflow.application.fake;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move by hand; thread-safe. It also stands in for the database clock of the fakes. */
public final class SettableClock extends Clock {

    private final AtomicReference<Instant> now;
    private final ZoneId zone;

    public SettableClock(Instant start) {
        this(new AtomicReference<>(start), ZoneOffset.UTC);
    }

    private SettableClock(AtomicReference<Instant> now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    public static SettableClock at(String isoInstant) {
        return new SettableClock(Instant.parse(isoInstant));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new SettableClock(now, zone);
    }

    public void set(Instant instant) {
        now.set(instant);
    }

    public void advance(Duration duration) {
        now.updateAndGet(t -> t.plus(duration));
    }
}
