package io.changeflow.adapter.web.metrics;

import java.time.Duration;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database read shared by a group of gauges: made at most once per {@code period} whatever the scrape rate; a failed
 * read is logged and answers empty (the gauges show NaN) until the next period.
 */
final class PeriodicRead<T> {

    private static final Logger log = LoggerFactory.getLogger(PeriodicRead.class);

    /** One read; {@code value} empty when it failed. */
    private record Snapshot<T>(Optional<T> value, long at) {}

    private final String what;
    private final Supplier<T> read;
    private final Duration period;
    private final LongSupplier nanoTime;
    private volatile Snapshot<T> last;

    /** @param what what is read, for the log ("the requests for the workflow gauges") */
    PeriodicRead(String what, Supplier<T> read, Duration period, LongSupplier nanoTime) {
        this.what = what;
        this.read = read;
        this.period = period;
        this.nanoTime = nanoTime;
    }

    /** The last read, made again when it is older than the period; empty while the read fails. */
    Optional<T> get() {
        var now = nanoTime.getAsLong();
        var snapshot = last;
        if (snapshot != null && now - snapshot.at() < period.toNanos()) {
            return snapshot.value();
        }
        synchronized (this) {
            snapshot = last;
            if (snapshot != null && now - snapshot.at() < period.toNanos()) {
                return snapshot.value();
            }
            try {
                snapshot = new Snapshot<>(Optional.of(read.get()), now);
            } catch (RuntimeException e) {
                log.warn("cannot read {}", what, e);
                snapshot = new Snapshot<>(Optional.empty(), now);
            }
            last = snapshot;
            return snapshot.value();
        }
    }
}
