package io.changeflow.sandbox.fault;

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runtime-switchable fault injection for the simulators, per system ({@code gitlab},
 * {@code approval}, {@code deploy}). Tests and the ops-only {@code /sandbox/faults} endpoint change
 * the settings; the simulators ask for a plan on every call. Seedable for reproducible runs.
 */
public class Faults {

    public static final String GITLAB = "gitlab";
    public static final String APPROVAL = "approval";
    public static final String DEPLOY = "deploy";

    private final Map<String, FaultSettings> settings = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> failed = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> lost = new ConcurrentHashMap<>();
    private volatile Random random;

    public Faults() {
        this(new Random());
    }

    public Faults(Random random) {
        this.random = random;
    }

    public void reseed(long seed) {
        this.random = new Random(seed);
    }

    public FaultSettings settings(String system) {
        return settings.getOrDefault(system, FaultSettings.NONE);
    }

    public Map<String, FaultSettings> all() {
        return Map.copyOf(settings);
    }

    public void configure(String system, FaultSettings faultSettings) {
        settings.put(system, faultSettings);
    }

    /** Back to no faults for every system. */
    public void clear() {
        settings.clear();
    }

    /** Decides the faults of one incoming call to {@code system}. */
    public FaultPlan planIncoming(String system) {
        var s = settings(system);
        if (s.equals(FaultSettings.NONE)) {
            return FaultPlan.NONE;
        }
        synchronized (this) {
            var fail = chance(s.errorRate()) ? (random.nextBoolean() ? 500 : 503) : 0;
            var lose = fail == 0 && chance(s.lostResponseRate());
            if (fail != 0) {
                failed.computeIfAbsent(system, k -> new AtomicLong()).incrementAndGet();
            }
            if (lose) {
                lost.computeIfAbsent(system, k -> new AtomicLong()).incrementAndGet();
            }
            return new FaultPlan(s.latencyMillis(), fail, lose);
        }
    }

    /** How many incoming calls to {@code system} were answered with an injected 5xx (not applied) so far. */
    public long injectedFailures(String system) {
        var n = failed.get(system);
        return n == null ? 0 : n.get();
    }

    /** How many incoming calls to {@code system} were applied and then answered 504 (response lost) so far. */
    public long injectedLostResponses(String system) {
        var n = lost.get(system);
        return n == null ? 0 : n.get();
    }

    /** True with probability {@code rate}; used for outgoing callback faults as well. */
    public synchronized boolean chance(double rate) {
        return rate > 0 && random.nextDouble() < rate;
    }
}
