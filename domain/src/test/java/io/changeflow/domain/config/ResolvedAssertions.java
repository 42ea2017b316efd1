package io.changeflow.domain.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

/** Reading a setting in these tests: its raw text ({@code null}: the key is missing) and what it resolved to. */
final class ResolvedAssertions {

    private ResolvedAssertions() {
    }

    /** The raw value of {@code text}; {@code null} is a missing key. */
    static RawValue raw(String text) {
        return new RawValue(Optional.ofNullable(text));
    }

    /** {@code resolved} holds {@code value}, by exactly {@code rule}. */
    static <T> void assertResolved(Resolved<T> resolved, T value, String rule) {
        assertThat(resolved.value()).isEqualTo(value);
        assertThat(resolved.rule()).isEqualTo(rule);
    }

    /** {@code resolved} holds {@code value}, by a rule that contains one of {@code ruleWords}. */
    static <T> void assertResolvedByRuleWith(Resolved<T> resolved, T value, String... ruleWords) {
        assertThat(resolved.value()).isEqualTo(value);
        assertThat(resolved.rule()).containsAnyOf(ruleWords);
    }
}
