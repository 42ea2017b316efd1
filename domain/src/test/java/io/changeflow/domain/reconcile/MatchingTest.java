package io.changeflow.domain.reconcile;

import static io.changeflow.domain.reconcile.ReconciliationDecision.Verdict.ADVANCE;
import static io.changeflow.domain.reconcile.ReconciliationDecision.Verdict.WAIT;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.reconcile.ReconciliationDecision.Evidence;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Matching modes: fail-safe parsing, per-project overrides, and what each mode lets advance. */
class MatchingTest {

    @Test
    void recognisesTheThreeModesInTheirConfigurationSpelling() {
        assertThat(Matching.parse("exact")).isEqualTo(Matching.EXACT);
        assertThat(Matching.parse("watermark")).isEqualTo(Matching.WATERMARK);
        assertThat(Matching.parse("exact-with-watermark-fallback")).isEqualTo(Matching.EXACT_WITH_WATERMARK_FALLBACK);
        assertThat(Matching.parse(" Watermark ")).isEqualTo(Matching.WATERMARK);
        assertThat(Matching.parse("EXACT_WITH_WATERMARK_FALLBACK")).isEqualTo(Matching.EXACT_WITH_WATERMARK_FALLBACK);
        for (var mode : Matching.values()) {
            assertThat(Matching.parse(mode.configName())).isEqualTo(mode);
        }
    }

    @Test
    void anythingUnrecognisedIsExact() {
        for (var raw : new String[] {null, "", "  ", "watermarks", "fallback", "1", "true", "exact,watermark", "water mark"}) {
            assertThat(Matching.parse(raw)).as("'%s'", raw).isEqualTo(Matching.EXACT);
        }
        assertThat(Matching.recognise("nonsense")).isEmpty();
    }

    @Test
    void aProjectOverrideWinsAndAGarbledOneIsExactNotTheDefault() {
        var byProject = new HashMap<String, String>();
        byProject.put("group/legacy", "watermark");
        byProject.put("group/typo", "watermrak");
        byProject.put(" ", "watermark");
        byProject.put("group/null", null);
        var matching = ReconciliationMatching.parse("exact-with-watermark-fallback", byProject);

        assertThat(matching.of("group/legacy")).isEqualTo(Matching.WATERMARK);
        assertThat(matching.of("group/typo")).isEqualTo(Matching.EXACT);
        assertThat(matching.of("group/null")).isEqualTo(Matching.EXACT);
        assertThat(matching.of("group/other")).isEqualTo(Matching.EXACT_WITH_WATERMARK_FALLBACK);
        assertThat(matching.byProject()).doesNotContainKey(" ");
        assertThat(ReconciliationMatching.parse(null, null).of("any")).isEqualTo(Matching.EXACT);
        assertThat(ReconciliationMatching.parse("bogus", Map.of()).of("any")).isEqualTo(Matching.EXACT);
    }

    @Test
    void exactEvidenceAdvancesInEveryMode() {
        for (var mode : Matching.values()) {
            assertThat(ReconciliationDecision.decide(mode, new Evidence(true, false, OptionalLong.empty(), OptionalLong.empty())))
                    .isEqualTo(ADVANCE);
            assertThat(ReconciliationDecision.decide(mode, new Evidence(false, true, OptionalLong.of(9), OptionalLong.empty())))
                    .isEqualTo(ADVANCE);
        }
    }

    @Test
    void exactNeverInfersFromAReportOfAMergeRequestMergedLater() {
        var mergedBeforeTheReportedOne = new Evidence(false, false, OptionalLong.of(10), OptionalLong.of(11));
        assertThat(ReconciliationDecision.decide(Matching.EXACT, mergedBeforeTheReportedOne)).isEqualTo(WAIT);
        assertThat(ReconciliationDecision.decide(Matching.WATERMARK, mergedBeforeTheReportedOne)).isEqualTo(ADVANCE);
        assertThat(ReconciliationDecision.decide(Matching.EXACT_WITH_WATERMARK_FALLBACK, mergedBeforeTheReportedOne))
                .isEqualTo(ADVANCE);
    }

    @Test
    void theWatermarkComparesMergeOrderSoARecordMergedAfterTheReportedOneWaits() {
        var mergedAfterTheReportedOne = new Evidence(false, false, OptionalLong.of(12), OptionalLong.of(11));
        for (var mode : Matching.values()) {
            assertThat(ReconciliationDecision.decide(mode, mergedAfterTheReportedOne)).isEqualTo(WAIT);
        }
        var unknownOrder = new Evidence(false, false, OptionalLong.empty(), OptionalLong.of(11));
        assertThat(ReconciliationDecision.decide(Matching.WATERMARK, unknownOrder)).isEqualTo(WAIT);
        var noReport = new Evidence(false, false, OptionalLong.of(1), OptionalLong.empty());
        assertThat(ReconciliationDecision.decide(Matching.WATERMARK, noReport)).isEqualTo(WAIT);
    }
}
