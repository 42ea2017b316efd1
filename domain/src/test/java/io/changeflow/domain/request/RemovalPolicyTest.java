package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RemovalPolicyTest {

    @Test
    void namesAreReadLeniently() {
        assertThat(RemovalPolicy.named("approval")).contains(RemovalPolicy.APPROVAL);
        assertThat(RemovalPolicy.named(" No_Approval ")).contains(RemovalPolicy.NO_APPROVAL);
        assertThat(RemovalPolicy.named("APPROVAL")).contains(RemovalPolicy.APPROVAL);
    }

    @Test
    void aMissingBlankOrGarbledValueIsNoApproval() {
        for (var raw : new String[] {null, "", "  ", "yes", "aproval", "true"}) {
            assertThat(RemovalPolicy.parse(raw)).as(String.valueOf(raw)).isEqualTo(RemovalPolicy.NO_APPROVAL);
        }
        assertThat(RemovalPolicy.named("yes")).isEmpty();
    }

    @Test
    void aTargetWithoutTheSettingNeedsNoApproval() {
        var target = new Target(TargetKey.of("db"), "DB", "d", "p/c", "grants.yaml", false, null);
        assertThat(target.removals()).isEqualTo(RemovalPolicy.NO_APPROVAL);
        assertThat(new Target(TargetKey.of("db"), "DB", "d", "p/c", "grants.yaml", false, null, null, null).removals())
                .isEqualTo(RemovalPolicy.NO_APPROVAL);
        assertThat(new Target(TargetKey.of("db"), "DB", "d", "p/c", "grants.yaml", false, null, null, RemovalPolicy.APPROVAL)
                .removals().asksApproval()).isTrue();
    }
}
