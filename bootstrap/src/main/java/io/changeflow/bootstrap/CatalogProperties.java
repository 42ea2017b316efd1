package io.changeflow.bootstrap;

import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.drift.DriftPolicy;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The catalog of targets, from configuration ({@code changeflow.catalog.targets[n].*}). An entry
 * without a valid key, project or file is a startup error: a broken catalog must not half-work.
 */
@ConfigurationProperties("changeflow.catalog")
record CatalogProperties(List<Entry> targets) {

    /**
     * @param pipeline {@code required} (default), {@code manual-counts} or {@code none}; see {@link PipelinePolicy}
     * @param removals {@code no-approval} (default) or {@code approval}: whether an expiry or an operator's revocation
     *                 needs the approval system; see {@link RemovalPolicy}
     * @param askFor   {@code self} (default), {@code anyone} or {@code related}: who may ask for whom; see
     *                 {@link AskPolicy}
     * @param drift    {@code remove} (default) or {@code report}: what drift handling does with a line nobody approved
     *                 or of an ended grant; see {@link DriftPolicy}
     * @param maxDuration     the longest grant a request may ask for ({@code 30d}, {@code 8h}, ISO-8601 {@code P30D});
     *                        unset: up to 366 days or no end; garbled: one day; see {@link GrantDurations}
     * @param defaultDuration the grant a request without an end gets; unset: the maximum, or no end without a
     *                        maximum; garbled: one day
     * @param allowDurations  {@code true} or {@code false}: whether a request may ask for a duration counted from when
     *                        its approved line is written ({@code duration}, issue 32 item 3); unset or garbled:
     *                        false (requests name an end; an older release would write such a line without an end)
     */
    record Entry(String key, String name, String description, String project, String filePath, boolean batchable,
                 String partition, String pipeline, String removals, String askFor, String drift, String maxDuration,
                 String defaultDuration, String allowDurations) {
        // one constructor only: configuration binding needs an unambiguous one
    }

    private static final System.Logger LOG = System.getLogger(CatalogProperties.class.getName());

    CatalogProperties {
        targets = targets == null ? List.of() : List.copyOf(targets);
    }

    Targets toTargets() {
        var byKey = new LinkedHashMap<TargetKey, Target>();
        for (var entry : targets) {
            var key = TargetKey.parse(entry.key()).orElseThrow(
                    () -> new IllegalStateException("changeflow.catalog: invalid target key '" + entry.key() + "'"));
            if (entry.project() == null || entry.project().isBlank() || entry.filePath() == null || entry.filePath().isBlank()) {
                throw new IllegalStateException("changeflow.catalog: target " + key + " needs a project and a filePath");
            }
            var target = new Target(key, entry.name() == null ? key.value() : entry.name(),
                    entry.description() == null ? "" : entry.description(), entry.project(), entry.filePath(),
                    entry.batchable(), grantPartition(key, entry.partition()), pipelinePolicy(key, entry.pipeline()),
                    removalPolicy(key, entry.removals()), askPolicy(key, entry.askFor()), driftPolicy(key, entry.drift()),
                    durations(key, entry.maxDuration(), entry.defaultDuration(), entry.allowDurations()));
            if (byKey.putIfAbsent(key, target) != null) {
                throw new IllegalStateException("changeflow.catalog: target " + key + " is listed twice");
            }
        }
        var all = List.copyOf(byKey.values());
        return new Targets() {
            @Override
            public List<Target> all() {
                return all;
            }

            @Override
            public Optional<Target> find(TargetKey key) {
                return Optional.ofNullable(byKey.get(key));
            }
        };
    }

    /** Fail-safe: a missing value is {@code required}; so is a garbled one, said once in the log. */
    private static PipelinePolicy pipelinePolicy(TargetKey key, String raw) {
        return orFallback(key, "pipeline policy", raw, PipelinePolicy::named, PipelinePolicy.REQUIRED,
                "required, manual-counts, none");
    }

    /**
     * Fail-safe: a missing value is {@code no-approval}; so is a garbled one, said once in the log (the grant was
     * approved until its end; asking again could only keep access open longer).
     */
    private static RemovalPolicy removalPolicy(TargetKey key, String raw) {
        return orFallback(key, "removals setting", raw, RemovalPolicy::named, RemovalPolicy.NO_APPROVAL,
                "no-approval, approval");
    }

    /**
     * Fail-safe: a missing value is {@code self}; so is a garbled one, said once in the log (letting anyone ask for
     * anyone is the harmful side: a request for another person can hold their access in a request of someone else's).
     */
    private static AskPolicy askPolicy(TargetKey key, String raw) {
        return orFallback(key, "ask-for policy", raw, AskPolicy::named, AskPolicy.SELF, "self, anyone, related");
    }

    /**
     * Fail-safe: a missing value is {@code remove}; so is a garbled one, said once in the log (a line nobody approved
     * left on main is the harmful side).
     */
    private static DriftPolicy driftPolicy(TargetKey key, String raw) {
        return orFallback(key, "drift setting", raw, DriftPolicy::named, DriftPolicy.REMOVE, "remove, report");
    }

    /**
     * Issue 32 item 4: the {@code removal:} partitions belong to the removals, so grants never share a round with
     * them; a grant partition named so is the default partition, said once in the log.
     */
    private static String grantPartition(TargetKey key, String raw) {
        if (raw != null && raw.strip().startsWith("removal:")) {
            LOG.log(System.Logger.Level.WARNING, () -> "changeflow.catalog: target " + key + " names the partition '"
                    + raw.strip() + "', a name kept for removal rounds; using '" + Target.DEFAULT_PARTITION + "'");
            return Target.DEFAULT_PARTITION;
        }
        return raw;
    }

    /**
     * Fail-safe toward the shorter grant: a garbled maximum or default is {@link GrantDurations#GARBLED_FALLBACK}
     * (one day, never "unlimited"), said once in the log; a default beyond the maximum is the maximum.
     */
    private static GrantDurations durations(TargetKey key, String max, String defaultDuration, String allowDurations) {
        for (var setting : new String[][] {{"max-duration", max}, {"default-duration", defaultDuration}}) {
            if (GrantDurations.parse(setting[1]).garbled()) {
                LOG.log(System.Logger.Level.WARNING, () -> "changeflow.catalog: target " + key + " has the unreadable "
                        + setting[0] + " '" + setting[1].strip() + "'; using "
                        + GrantDurations.describe(GrantDurations.GARBLED_FALLBACK)
                        + " (a positive duration up to 366 days: 30d, 8h, 90m or ISO-8601 P30D)");
            }
        }
        var rules = GrantDurations.configured(max, defaultDuration, allowDurations);
        if (allowDurations != null && !allowDurations.isBlank() && !rules.durationsAllowed()
                && !"false".equalsIgnoreCase(allowDurations.strip())) {
            LOG.log(System.Logger.Level.WARNING, () -> "changeflow.catalog: target " + key
                    + " has the unreadable allow-durations '" + allowDurations.strip() + "'; using false (true or false)");
        }
        return rules;
    }

    private static <E extends Enum<E>> E orFallback(TargetKey key, String setting, String raw,
                                                    Function<String, Optional<E>> named, E fallback, String choices) {
        var parsed = named.apply(raw);
        if (parsed.isEmpty() && raw != null && !raw.isBlank()) {
            LOG.log(System.Logger.Level.WARNING, () -> "changeflow.catalog: target " + key + " has the unknown " + setting
                    + " '" + raw.strip() + "'; using '" + fallback.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                    + "' (one of: " + choices + ")");
        }
        return parsed.orElse(fallback);
    }
}
