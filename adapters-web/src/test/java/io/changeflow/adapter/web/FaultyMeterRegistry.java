package io.changeflow.adapter.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** A meter registry that, once {@link #faulty} is set, throws on every lookup the web layer makes and on every new meter (counters, timers, summaries). */
public final class FaultyMeterRegistry extends SimpleMeterRegistry {

    public volatile boolean faulty;

    private void check() {
        if (faulty) {
            throw new IllegalStateException("metrics backend down (injected)");
        }
    }

    @Override
    public Counter counter(String name, Iterable<Tag> tags) {
        check();
        return super.counter(name, tags);
    }

    @Override
    public Counter counter(String name, String... tags) {
        check();
        return super.counter(name, tags);
    }

    @Override
    public Counter counter(String name, Tags tags) {
        check();
        return super.counter(name, tags);
    }

    @Override
    public Timer timer(String name, Iterable<Tag> tags) {
        check();
        return super.timer(name, tags);
    }

    @Override
    public Timer timer(String name, String... tags) {
        check();
        return super.timer(name, tags);
    }

    @Override
    public Timer timer(String name, Tags tags) {
        check();
        return super.timer(name, tags);
    }

    @Override
    public DistributionSummary summary(String name, Iterable<Tag> tags) {
        check();
        return super.summary(name, tags);
    }

    @Override
    public DistributionSummary summary(String name, String... tags) {
        check();
        return super.summary(name, tags);
    }

    // Builders (Counter.builder(...).register(this), Boot's observation handler) create meters through these.
    @Override
    protected Counter newCounter(Meter.Id id) {
        check();
        return super.newCounter(id);
    }

    @Override
    protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
        check();
        return super.newTimer(id, config, pauseDetector);
    }

    @Override
    protected DistributionSummary newDistributionSummary(Meter.Id id, DistributionStatisticConfig config, double scale) {
        check();
        return super.newDistributionSummary(id, config, scale);
    }

    /** The count of a counter, 0 when it does not exist. */
    public double count(String name, String... tags) {
        var counter = find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    /** The number of recordings of a timer, 0 when it does not exist. */
    public long timed(String name, String... tags) {
        var timer = find(name).tags(tags).timer();
        return timer == null ? 0 : timer.count();
    }
}
