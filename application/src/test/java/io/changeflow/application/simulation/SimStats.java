package io.changeflow.application.simulation;

import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Figures of one or many runs: seeds, actions, faults injected per kind, exceptions that reached the harness, and
 * coverage of the transition table as (binding before, event) pairs: the pairs the table allows from a state a
 * request can reach ({@link Convergence#reachable()}), and which of them no run took.
 */
final class SimStats {

    private static final String NEW = "NEW";
    static final int FIRST_SEEDS = 5;

    int seeds;
    int actions;
    final Map<String, Integer> kinds = new TreeMap<>();
    final Map<String, Integer> faults = new TreeMap<>();
    final Map<String, Integer> thrown = new TreeMap<>();
    final Map<String, Integer> findings = new TreeMap<>();
    /** The first {@link #FIRST_SEEDS} seeds of each reported finding (not of violations), for a replay. */
    final Map<String, List<Long>> firstSeeds = new TreeMap<>();
    private final Set<String> taken = new TreeSet<>();

    void count(SimAction.Kind kind) {
        actions++;
        kinds.merge(kind.name(), 1, Integer::sum);
    }

    void fault(String kind) {
        faults.merge(kind, 1, Integer::sum);
    }

    void threw(RuntimeException e) {
        thrown.merge(e.getClass().getSimpleName(), 1, Integer::sum);
    }

    void finding(String invariant) {
        findings.merge(invariant, 1, Integer::sum);
    }

    /** A reported finding (not asserted) of {@code seed}: counted, and its seed kept among the first few. */
    void finding(String invariant, long seed) {
        finding(invariant);
        firstSeeds(invariant, List.of(seed));
    }

    private void firstSeeds(String invariant, List<Long> seeds) {
        var kept = firstSeeds.computeIfAbsent(invariant, k -> new ArrayList<>());
        seeds.stream().limit(Math.max(0, FIRST_SEEDS - kept.size())).forEach(kept::add);
    }

    void took(HistoryEntry entry) {
        taken.add(pair(entry.fromBinding().map(Enum::name).orElse(entry.fromStep().isPresent() ? "DETACHED" : NEW),
                entry.event()));
    }

    void add(SimStats other) {
        seeds += other.seeds;
        actions += other.actions;
        other.kinds.forEach((k, n) -> kinds.merge(k, n, Integer::sum));
        other.faults.forEach((k, n) -> faults.merge(k, n, Integer::sum));
        other.thrown.forEach((k, n) -> thrown.merge(k, n, Integer::sum));
        other.findings.forEach((k, n) -> findings.merge(k, n, Integer::sum));
        other.firstSeeds.forEach(this::firstSeeds);
        taken.addAll(other.taken);
    }

    /** Every (binding before, event) pair the table allows from a reachable state (NEW: no row yet). */
    static Set<String> allowed() {
        var pairs = new TreeSet<String>();
        for (var event : WorkflowEvent.values()) {
            if (Transitions.check(event) instanceof Transition.Moved) {
                pairs.add(pair(NEW, event));
            }
        }
        for (var state : Convergence.reachable()) {
            for (var event : WorkflowEvent.values()) {
                if (Transitions.check(state, event) instanceof Transition.Moved) {
                    pairs.add(pair(state.binding().map(Enum::name).orElse("DETACHED"), event));
                }
            }
        }
        return pairs;
    }

    Set<String> neverTaken() {
        var missing = allowed();
        missing.removeAll(taken);
        return missing;
    }

    private static String pair(String from, WorkflowEvent event) {
        return from + " --" + event + "-->";
    }

    String report(long millis) {
        var allowed = allowed();
        var missing = neverTaken();
        return """
                simulation: %d seeds, %d actions in %d ms (%.1f actions/s)
                  actions per kind: %s
                  faults injected per kind: %s
                  exceptions that reached the harness: %s
                  findings and violations per invariant: %s
                  first seeds of each reported finding: %s
                  transition table: %d of %d (binding, event) pairs taken; never taken: %s"""
                .formatted(seeds, actions, millis, actions * 1000.0 / Math.max(1, millis), kinds, faults, thrown, findings,
                        firstSeeds, allowed.size() - missing.size(), allowed.size(), missing);
    }
}
