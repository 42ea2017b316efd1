package io.changeflow.domain.reconcile;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The matching mode of every project: {@code byProject} overrides {@code fallback}. Built from
 * configuration text with {@link #parse}, where anything unrecognised means {@link Matching#EXACT}.
 */
public record ReconciliationMatching(Matching fallback, Map<String, Matching> byProject) {

    public ReconciliationMatching {
        Objects.requireNonNull(fallback, "fallback");
        byProject = Map.copyOf(byProject);
    }

    /** Exact matching for every project (the default). */
    public static ReconciliationMatching exact() {
        return new ReconciliationMatching(Matching.EXACT, Map.of());
    }

    /** One mode for every project. */
    public static ReconciliationMatching everywhere(Matching mode) {
        return new ReconciliationMatching(mode, Map.of());
    }

    /**
     * From configuration text: {@code fallback} for every project, {@code byProject} per project path. A missing
     * or unrecognised value, for the default or for one project, means {@link Matching#EXACT} (never inference
     * by accident); blank project names are ignored.
     */
    public static ReconciliationMatching parse(String fallback, Map<String, String> byProject) {
        var modes = new TreeMap<String, Matching>();
        if (byProject != null) {
            byProject.forEach((project, raw) -> {
                if (project != null && !project.isBlank()) {
                    modes.put(project.trim(), Matching.parse(raw));
                }
            });
        }
        return new ReconciliationMatching(Matching.parse(fallback), modes);
    }

    /** The mode of {@code project}. */
    public Matching of(String project) {
        return byProject.getOrDefault(project, fallback);
    }
}
