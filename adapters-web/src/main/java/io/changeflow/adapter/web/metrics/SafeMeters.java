package io.changeflow.adapter.web.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only way web code touches the {@link MeterRegistry}. Observability reads but never writes:
 * every emission is wrapped so that a throwing registry (or meter) is logged and swallowed, never
 * changing a response. Tag values are normalized (trimmed) and truncated to
 * {@value #MAX_TAG_LENGTH} characters; a missing, blank or invalid (control characters) tag skips
 * the whole emission rather than recording a guessed dimension. Each meter carries its help text
 * ({@link MeterHelp}).
 */
public final class SafeMeters {

    static final int MAX_TAG_LENGTH = 128;

    private static final Logger log = LoggerFactory.getLogger(SafeMeters.class);
    private static final long WARN_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final MeterRegistry registry;
    private final AtomicLong nextWarnAt = new AtomicLong(System.nanoTime());

    public SafeMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Increments a counter; never throws. */
    public void increment(String name, Map<String, String> tags) {
        increment(name, tags, 1);
    }

    /** Adds {@code amount} to a counter; never throws. */
    public void increment(String name, Map<String, String> tags, double amount) {
        emit(name, tags, safe -> Counter.builder(name).description(MeterHelp.of(name)).tags(safe).register(registry)
                .increment(amount));
    }

    /** Records a duration on a timer; never throws. */
    void record(String name, Map<String, String> tags, long nanos) {
        emit(name, tags, safe -> Timer.builder(name).description(MeterHelp.of(name)).tags(safe).register(registry)
                .record(nanos, TimeUnit.NANOSECONDS));
    }

    /** Records a value on a distribution summary (e.g. a batch size); never throws. */
    void summary(String name, Map<String, String> tags, double amount) {
        emit(name, tags, safe -> DistributionSummary.builder(name).description(MeterHelp.of(name)).tags(safe)
                .register(registry).record(amount));
    }

    /** Hands the normalized tags to {@code emission}, skipped when they are invalid; never throws. */
    private void emit(String name, Map<String, String> tags, Consumer<Tags> emission) {
        try {
            var safe = normalize(tags);
            if (safe.isEmpty()) {
                log.debug("metric {} skipped: empty or invalid tags", name);
                return;
            }
            emission.accept(safe.get());
        } catch (RuntimeException | LinkageError e) {
            failed(name, e);
        }
    }

    /** The tags as Micrometer tags, or empty when any key or value is missing, blank or invalid. */
    static Optional<Tags> normalize(Map<String, String> tags) {
        var result = new ArrayList<Tag>(tags.size());
        for (var entry : tags.entrySet()) {
            var key = clean(entry.getKey());
            var value = clean(entry.getValue());
            if (key == null || value == null) {
                return Optional.empty();
            }
            result.add(Tag.of(key, value));
        }
        return Optional.of(Tags.of(result));
    }

    private static String clean(String raw) {
        if (raw == null) {
            return null;
        }
        var value = raw.strip();
        if (value.isEmpty() || value.chars().anyMatch(Character::isISOControl)) {
            return null;
        }
        if (value.length() > MAX_TAG_LENGTH) {
            var cut = Character.isHighSurrogate(value.charAt(MAX_TAG_LENGTH - 1)) ? MAX_TAG_LENGTH - 1 : MAX_TAG_LENGTH;
            value = value.substring(0, cut);
        }
        return value;
    }

    private void failed(String name, Throwable e) {
        // A broken registry fails on every request: warn once a minute, the rest at debug.
        var now = System.nanoTime();
        var next = nextWarnAt.get();
        if (now - next >= 0 && nextWarnAt.compareAndSet(next, now + WARN_EVERY_NANOS)) {
            log.warn("metric {} failed; the request continues unaffected", name, e);
        } else {
            log.debug("metric {} failed; the request continues unaffected", name, e);
        }
    }
}
