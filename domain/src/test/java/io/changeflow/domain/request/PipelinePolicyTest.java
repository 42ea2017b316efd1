package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipelinePolicyTest {

    @Test
    void readsEveryPolicyByItsSettingNameWhateverTheCaseAndSpacing() {
        assertThat(PipelinePolicy.parse("required")).isEqualTo(PipelinePolicy.REQUIRED);
        assertThat(PipelinePolicy.parse("manual-counts")).isEqualTo(PipelinePolicy.MANUAL_COUNTS);
        assertThat(PipelinePolicy.parse(" Manual_Counts ")).isEqualTo(PipelinePolicy.MANUAL_COUNTS);
        assertThat(PipelinePolicy.parse("NONE")).isEqualTo(PipelinePolicy.NONE);
        for (var policy : PipelinePolicy.values()) {
            assertThat(PipelinePolicy.named(policy.settingName())).contains(policy);
        }
    }

    @Test
    void aMissingOrGarbledValueMeansRequired() {
        for (var garbled : Arrays.asList(null, "", "  ", "no", "off", "false", "manual", "non e", "none\u0000",
                "nöne", "required,none", "skipped")) {
            assertThat(PipelinePolicy.named(garbled)).as("%s", garbled).isEmpty();
            assertThat(PipelinePolicy.parse(garbled)).as("%s", garbled).isEqualTo(PipelinePolicy.REQUIRED);
        }
    }

    @Test
    void theStrictestPolicyOfSeveralTargetsApplies() {
        assertThat(PipelinePolicy.strictest(List.of(PipelinePolicy.NONE, PipelinePolicy.MANUAL_COUNTS)))
                .isEqualTo(PipelinePolicy.MANUAL_COUNTS);
        assertThat(PipelinePolicy.strictest(List.of(PipelinePolicy.NONE, PipelinePolicy.REQUIRED, PipelinePolicy.MANUAL_COUNTS)))
                .isEqualTo(PipelinePolicy.REQUIRED);
        assertThat(PipelinePolicy.strictest(List.of(PipelinePolicy.NONE, PipelinePolicy.NONE))).isEqualTo(PipelinePolicy.NONE);
        assertThat(PipelinePolicy.strictest(List.of())).as("nothing known: fail-safe").isEqualTo(PipelinePolicy.REQUIRED);
        assertThat(PipelinePolicy.strictest(Arrays.asList(PipelinePolicy.NONE, null))).isEqualTo(PipelinePolicy.REQUIRED);
    }

    @Test
    void onlyATargetWithoutCiAwaitsNoPipeline() {
        assertThat(PipelinePolicy.REQUIRED.awaitsPipeline()).isTrue();
        assertThat(PipelinePolicy.MANUAL_COUNTS.awaitsPipeline()).isTrue();
        assertThat(PipelinePolicy.NONE.awaitsPipeline()).isFalse();
    }

    @Test
    void aTargetWithoutAPolicyRequiresAPassedPipeline() {
        var key = TargetKey.of("db-prod-readonly");
        assertThat(new Target(key, "DB", "read", "platform/access", "db.txt", false, null).pipeline())
                .isEqualTo(PipelinePolicy.REQUIRED);
        assertThat(new Target(key, "DB", "read", "platform/access", "db.txt", false, null, null).pipeline())
                .isEqualTo(PipelinePolicy.REQUIRED);
        assertThat(new Target(key, "DB", "read", "platform/access", "db.txt", false, null, PipelinePolicy.NONE).pipeline())
                .isEqualTo(PipelinePolicy.NONE);
    }
}
