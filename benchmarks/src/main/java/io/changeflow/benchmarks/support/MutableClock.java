package io.changeflow.benchmarks.support;

import io.github.bucket4j.TimeMeter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock the benchmark moves by hand (nanosecond resolution), so "after the window" needs no
 * sleeping. Readable as a {@link Clock} (the product's limiter) and as a Bucket4j {@link TimeMeter}.
 * Reads and moves are thread-safe (one {@link AtomicLong}).
 */
public final class MutableClock extends Clock {

    private final AtomicLong nanos;

    public MutableClock(Instant start) {
        this.nanos = new AtomicLong(Math.multiplyExact(start.getEpochSecond(), 1_000_000_000L) + start.getNano());
    }

    /** Moves the clock forward by {@code step} nanoseconds. */
    public void advanceNanos(long step) {
        nanos.addAndGet(step);
    }

    public void advance(Duration step) {
        advanceNanos(step.toNanos());
    }

    public long nanos() {
        return nanos.get();
    }

    @Override
    public long millis() {
        return Math.floorDiv(nanos.get(), 1_000_000L);
    }

    @Override
    public Instant instant() {
        var now = nanos.get();
        return Instant.ofEpochSecond(Math.floorDiv(now, 1_000_000_000L), Math.floorMod(now, 1_000_000_000L));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a benchmark clock stays in UTC");
    }

    /** This clock as Bucket4j's time source. */
    public TimeMeter asTimeMeter() {
        var clock = this;
        return new TimeMeter() {
            @Override
            public long currentTimeNanos() {
                return clock.nanos();
            }

            @Override
            public boolean isWallClockBased() {
                return false;
            }
        };
    }
}
