package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.drift.DriftPolicy;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.RemovalPolicy;
import io.changeflow.domain.request.TargetKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.junit.jupiter.api.Test;

/**
 * The catalog's per-target pipeline policy ({@code changeflow.catalog.targets[n].pipeline}): fail-safe {@code required};
 * its removal setting ({@code changeflow.catalog.targets[n].removals}): fail-safe {@code no-approval}; and who may ask
 * for whom ({@code changeflow.catalog.targets[n].ask-for}): fail-safe {@code self}; and what drift handling does
 * ({@code changeflow.catalog.targets[n].drift}): fail-safe {@code remove}.
 */
class CatalogPropertiesTest {

    private static CatalogProperties.Entry entry(String key, String pipeline, String removals) {
        return new CatalogProperties.Entry(key, null, null, "platform/access-config", "grants/" + key + ".txt", false, null,
                pipeline, removals, null, null, null, null, null);
    }

    private static CatalogProperties.Entry askFor(String key, String askFor) {
        return new CatalogProperties.Entry(key, null, null, "platform/access-config", "grants/" + key + ".txt", false, null,
                null, null, askFor, null, null, null, null);
    }

    private static CatalogProperties.Entry drift(String key, String drift) {
        return new CatalogProperties.Entry(key, null, null, "platform/access-config", "grants/" + key + ".txt", false, null,
                null, null, null, drift, null, null, null);
    }

    private static CatalogProperties.Entry durations(String key, String max, String defaultDuration) {
        return new CatalogProperties.Entry(key, null, null, "platform/access-config", "grants/" + key + ".txt", false, null,
                null, null, null, null, max, defaultDuration, null);
    }

    private static GrantDurations durationsOf(io.changeflow.application.port.out.Targets targets, String key) {
        return targets.find(TargetKey.of(key)).orElseThrow().durations();
    }

    /** Issue 32 item 3: a garbled maximum or default is one day (the stricter side), never "unlimited". */
    @Test
    void eachTargetHasTheDurationsItNamesAndAGarbledOneIsOneDay() {
        var targets = new CatalogProperties(List.of(durations("db", "30d", "7d"), durations("iso", "PT8H", null),
                durations("plain", null, null), durations("garbled-max", "a month", "7d"),
                durations("garbled-default", "30d", "forever"), durations("zero", "0d", null),
                durations("negative", "-P1D", null), durations("beyond", "400d", null),
                durations("default-over-max", "8h", "7d"), durations("blank", " ", " "))).toTargets();

        assertThat(durationsOf(targets, "db")).isEqualTo(rules(Duration.ofDays(30), Duration.ofDays(7)));
        assertThat(durationsOf(targets, "iso")).isEqualTo(rules(Duration.ofHours(8), null));
        assertThat(durationsOf(targets, "plain")).isEqualTo(GrantDurations.NONE);
        assertThat(durationsOf(targets, "blank")).isEqualTo(GrantDurations.NONE);
        assertThat(durationsOf(targets, "garbled-max")).isEqualTo(rules(Duration.ofDays(1), Duration.ofDays(1)));
        assertThat(durationsOf(targets, "garbled-default")).isEqualTo(rules(Duration.ofDays(30), Duration.ofDays(1)));
        for (var key : List.of("zero", "negative", "beyond")) {
            assertThat(durationsOf(targets, key)).as(key).isEqualTo(rules(Duration.ofDays(1), null));
            assertThat(durationsOf(targets, key).allowsNever()).as(key).isFalse();
        }
        assertThat(durationsOf(targets, "default-over-max")).isEqualTo(rules(Duration.ofHours(8), Duration.ofHours(8)));
    }

    /** Issue 32 item 4: grants never wait in a removal partition, so removals never queue behind them. */
    @Test
    void aGrantPartitionNamedLikeARemovalPartitionIsTheDefault() {
        var entry = new CatalogProperties.Entry("sneaky", null, null, "platform/access-config", "grants/sneaky.txt", true,
                "removal:platform/access-config:grants/sneaky.txt", null, null, null, null, null, null, null);

        var target = new CatalogProperties(List.of(entry)).toTargets().find(TargetKey.of("sneaky")).orElseThrow();

        assertThat(target.partition()).isEqualTo("global");
        assertThat(target.partition()).isNotEqualTo(target.removalPartition());
    }

    private static GrantDurations rules(Duration max, Duration defaultDuration) {
        return new GrantDurations(Optional.ofNullable(max), Optional.ofNullable(defaultDuration));
    }

    @Test
    void eachTargetHasTheDriftSettingItNamesAndAMissingOrGarbledOneRemoves() {
        var targets = new CatalogProperties(List.of(drift("watched", "report"), drift("loud", " REPORT "),
                drift("strict", "remove"), drift("plain", null), drift("garbled", "off"), drift("blank", " ")))
                .toTargets();

        assertThat(targets.find(TargetKey.of("watched")).orElseThrow().drift()).isEqualTo(DriftPolicy.REPORT);
        assertThat(targets.find(TargetKey.of("loud")).orElseThrow().drift()).isEqualTo(DriftPolicy.REPORT);
        for (var key : List.of("strict", "plain", "garbled", "blank")) {
            assertThat(targets.find(TargetKey.of(key)).orElseThrow().drift()).as(key).isEqualTo(DriftPolicy.REMOVE);
        }
    }

    @Test
    void eachTargetHasTheAskForPolicyItNamesAndAMissingOrGarbledOneIsSelf() {
        var targets = new CatalogProperties(List.of(askFor("open", "anyone"), askFor("team", " Related "),
                askFor("own", "self"), askFor("plain", null), askFor("garbled", "everyone"), askFor("blank", " ")))
                .toTargets();

        assertThat(targets.find(TargetKey.of("open")).orElseThrow().askFor()).isEqualTo(AskPolicy.ANYONE);
        assertThat(targets.find(TargetKey.of("team")).orElseThrow().askFor()).isEqualTo(AskPolicy.RELATED);
        for (var key : List.of("own", "plain", "garbled", "blank")) {
            assertThat(targets.find(TargetKey.of(key)).orElseThrow().askFor()).as(key).isEqualTo(AskPolicy.SELF);
        }
    }

    private static CatalogProperties.Entry entry(String key, String pipeline) {
        return entry(key, pipeline, null);
    }

    @Test
    void eachTargetHasThePipelinePolicyItNamesAndAMissingOrGarbledOneIsRequired() {
        var targets = new CatalogProperties(List.of(entry("no-ci", "none"), entry("manual", "Manual-Counts"),
                entry("plain", null), entry("garbled", "nope"), entry("blank", " "), entry("strict", "required"))).toTargets();

        assertThat(targets.find(TargetKey.of("no-ci")).orElseThrow().pipeline()).isEqualTo(PipelinePolicy.NONE);
        assertThat(targets.find(TargetKey.of("manual")).orElseThrow().pipeline()).isEqualTo(PipelinePolicy.MANUAL_COUNTS);
        assertThat(targets.find(TargetKey.of("strict")).orElseThrow().pipeline()).isEqualTo(PipelinePolicy.REQUIRED);
        for (var key : List.of("plain", "garbled", "blank")) {
            assertThat(targets.find(TargetKey.of(key)).orElseThrow().pipeline()).as(key).isEqualTo(PipelinePolicy.REQUIRED);
        }
    }

    private static CatalogProperties.Entry removals(String key, String removals) {
        return entry(key, null, removals);
    }

    @Test
    void eachTargetHasTheRemovalSettingItNamesAndAMissingOrGarbledOneNeedsNoApproval() {
        var targets = new CatalogProperties(List.of(removals("asked", "approval"), removals("loud", " APPROVAL "),
                removals("free", "no-approval"), removals("plain", null), removals("garbled", "yes please"),
                removals("blank", " "), entry("old", "none"))).toTargets();

        assertThat(targets.find(TargetKey.of("asked")).orElseThrow().removals()).isEqualTo(RemovalPolicy.APPROVAL);
        assertThat(targets.find(TargetKey.of("loud")).orElseThrow().removals()).isEqualTo(RemovalPolicy.APPROVAL);
        for (var key : List.of("free", "plain", "garbled", "blank", "old")) {
            assertThat(targets.find(TargetKey.of(key)).orElseThrow().removals()).as(key).isEqualTo(RemovalPolicy.NO_APPROVAL);
        }
    }

    /** Bound from configuration text as the application does (one constructor: binding must not be ambiguous). */
    @Test
    void theSettingsBindFromConfigurationText() {
        var source = new MapConfigurationPropertySource(Map.of(
                "changeflow.catalog.targets[0].key", "asked",
                "changeflow.catalog.targets[0].project", "platform/access-config",
                "changeflow.catalog.targets[0].file-path", "grants/asked.txt",
                "changeflow.catalog.targets[0].pipeline", "none",
                "changeflow.catalog.targets[0].removals", "approval",
                "changeflow.catalog.targets[0].ask-for", "anyone",
                "changeflow.catalog.targets[0].drift", "report",
                "changeflow.catalog.targets[1].key", "plain",
                "changeflow.catalog.targets[1].project", "platform/access-config",
                "changeflow.catalog.targets[1].file-path", "grants/plain.txt"));
        var targets = new Binder(source).bind("changeflow.catalog", CatalogProperties.class).get().toTargets();

        assertThat(targets.find(TargetKey.of("asked")).orElseThrow().removals()).isEqualTo(RemovalPolicy.APPROVAL);
        assertThat(targets.find(TargetKey.of("asked")).orElseThrow().pipeline()).isEqualTo(PipelinePolicy.NONE);
        assertThat(targets.find(TargetKey.of("plain")).orElseThrow().removals()).isEqualTo(RemovalPolicy.NO_APPROVAL);
        assertThat(targets.find(TargetKey.of("asked")).orElseThrow().askFor()).isEqualTo(AskPolicy.ANYONE);
        assertThat(targets.find(TargetKey.of("plain")).orElseThrow().askFor()).isEqualTo(AskPolicy.SELF);
        assertThat(targets.find(TargetKey.of("asked")).orElseThrow().drift()).isEqualTo(DriftPolicy.REPORT);
        assertThat(targets.find(TargetKey.of("plain")).orElseThrow().drift()).isEqualTo(DriftPolicy.REMOVE);
        assertThat(durationsOf(targets, "plain")).isEqualTo(GrantDurations.NONE);
    }

    @Test
    void theDurationsBindFromConfigurationText() {
        var source = new MapConfigurationPropertySource(Map.of(
                "changeflow.catalog.targets[0].key", "limited",
                "changeflow.catalog.targets[0].project", "platform/access-config",
                "changeflow.catalog.targets[0].file-path", "grants/limited.txt",
                "changeflow.catalog.targets[0].max-duration", "30d",
                "changeflow.catalog.targets[0].default-duration", "P7D"));
        var targets = new Binder(source).bind("changeflow.catalog", CatalogProperties.class).get().toTargets();

        assertThat(durationsOf(targets, "limited")).isEqualTo(rules(Duration.ofDays(30), Duration.ofDays(7)));
    }

    /** Issue 32 item 3: {@code allow-durations} from configuration text: only {@code true} allows; unset or garbled: false. */
    @Test
    void allowDurationsIsTrueOnlyWhenSetAndFalseUnsetOrGarbled() {
        var source = new MapConfigurationPropertySource(Map.ofEntries(
                Map.entry("changeflow.catalog.targets[0].key", "plain"),
                Map.entry("changeflow.catalog.targets[0].project", "platform/access-config"),
                Map.entry("changeflow.catalog.targets[0].file-path", "grants/plain.txt"),
                Map.entry("changeflow.catalog.targets[0].allow-durations", "TRUE"),
                Map.entry("changeflow.catalog.targets[1].key", "ends-only"),
                Map.entry("changeflow.catalog.targets[1].project", "platform/access-config"),
                Map.entry("changeflow.catalog.targets[1].file-path", "grants/ends-only.txt"),
                Map.entry("changeflow.catalog.targets[2].key", "garbled"),
                Map.entry("changeflow.catalog.targets[2].project", "platform/access-config"),
                Map.entry("changeflow.catalog.targets[2].file-path", "grants/garbled.txt"),
                Map.entry("changeflow.catalog.targets[2].allow-durations", "sometimes")));
        var targets = new Binder(source).bind("changeflow.catalog", CatalogProperties.class).get().toTargets();

        assertThat(durationsOf(targets, "plain").durationsAllowed()).isTrue();
        assertThat(durationsOf(targets, "ends-only").durationsAllowed()).as("unset").isFalse();
        assertThat(durationsOf(targets, "garbled").durationsAllowed()).isFalse();
    }
}
