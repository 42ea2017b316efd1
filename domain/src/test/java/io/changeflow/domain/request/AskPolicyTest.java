package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 37: the setting of who may ask for whom, and its fail-safe {@code self}. */
class AskPolicyTest {

    @Test
    void aMissingBlankOrGarbledSettingIsSelf() {
        assertThat(AskPolicy.parse(null)).isEqualTo(AskPolicy.SELF);
        assertThat(AskPolicy.parse(" ")).isEqualTo(AskPolicy.SELF);
        assertThat(AskPolicy.parse("everyone")).isEqualTo(AskPolicy.SELF);
        assertThat(AskPolicy.parse(" Anyone ")).isEqualTo(AskPolicy.ANYONE);
        assertThat(AskPolicy.parse("related")).isEqualTo(AskPolicy.RELATED);
        assertThat(new Target(TargetKey.of("db"), "DB", "d", "p/c", "grants.txt", false, null).askFor())
                .isEqualTo(AskPolicy.SELF);
        assertThat(new Target(TargetKey.of("db"), "DB", "d", "p/c", "grants.txt", false, null, null, null, null).askFor())
                .isEqualTo(AskPolicy.SELF);
    }

    @Test
    void selfAllowsOnlyOneselfAnyoneEveryoneAndRelatedAsksTheDirectoryOnlyForOthers() {
        assertThat(AskPolicy.SELF.allows("bob", "bob", () -> true)).isTrue();
        assertThat(AskPolicy.SELF.allows("amy", "bob", () -> true)).isFalse();
        assertThat(AskPolicy.ANYONE.allows("amy", "bob", () -> false)).isTrue();
        assertThat(AskPolicy.RELATED.allows("amy", "bob", () -> true)).isTrue();
        assertThat(AskPolicy.RELATED.allows("amy", "bob", () -> false)).isFalse();
        assertThat(AskPolicy.RELATED.allows("bob", "bob", () -> {
            throw new AssertionError("the directory is not asked about oneself");
        })).isTrue();
    }
}
