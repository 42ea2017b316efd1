package io.changeflow.domain.config;

import static io.changeflow.domain.config.ResolvedAssertions.assertResolved;
import static io.changeflow.domain.config.ResolvedAssertions.assertResolvedByRuleWith;
import static io.changeflow.domain.config.ResolvedAssertions.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AccessModeTest {

    private static AccessMode resolve(String raw) {
        return AccessMode.resolve(raw(raw)).value();
    }

    @Test
    void missingMeansTheRestrictedDefault() {
        var resolved = AccessMode.resolve(RawValue.missing());
        assertResolvedByRuleWith(resolved, AccessMode.TEST_WINDOW, "missing");
        assertThat(resolved.raw()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "   ", "\t", "\n", " \t\r\n "})
    void blankMeansTheRestrictedDefault(String raw) {
        assertThat(resolve(raw)).isEqualTo(AccessMode.TEST_WINDOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"OPEN", "open", "Open", "oPeN", " OPEN", "OPEN ", "\tOpen\n", "  open  "})
    void readsOpenTrimmedInAnyCase(String raw) {
        var resolved = AccessMode.resolve(RawValue.of(raw));
        assertResolved(resolved, AccessMode.OPEN, "configured");
        assertThat(resolved.raw()).contains(raw);
    }

    /** Unicode whitespace around the value goes; control characters close access (see anythingUnrecognisedClosesAccess). */
    @ParameterizedTest
    @ValueSource(strings = {"\u2003OPEN", "OPEN\u3000", "\u2028open\u2029", "\u1680Open"})
    void readsOpenWithUnicodeWhitespaceAround(String raw) {
        assertThat(resolve(raw)).isEqualTo(AccessMode.OPEN);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TEST_WINDOW", "test_window", "Test_Window", " TEST_WINDOW\t"})
    void readsTestWindowTrimmedInAnyCase(String raw) {
        assertThat(resolve(raw)).isEqualTo(AccessMode.TEST_WINDOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"CLOSED", "closed", " Closed "})
    void readsClosedTrimmedInAnyCase(String raw) {
        assertResolved(AccessMode.resolve(RawValue.of(raw)), AccessMode.CLOSED, "configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0PEN", "opened", "OPEN_", "OP EN", "O", "OPENN", "yes", "true", "1", "all",
            "TEST-WINDOW", "TESTWINDOW", "test window", "WINDOW", "CLOSE", "open;", "\"OPEN\"", "OPEN\u2003x",
            "ＯＰＥＮ", "ΟPEN", "OPEN\u200b", "OPEN\u0000", "\u0000OPEN", "O\u0000PEN", "\u0001open\u001f", "OPEN\u007f",
            "OPEN\u0085", "\u0085OPEN", "OPEN\u00a0", "\ufeffOPEN", "OPEN\u001b", "\u000bOPEN\f", "OPEN\u001f", "\u001cOPEN",
            // look-alikes Java's case mapping would turn into a keyword (reliability finding)
            "TE\u017FT_WINDOW", "te\u017Ft_window", "\u2003TE\u017FT_WINDOW", "\u212A"})
    void anythingUnrecognisedClosesAccess(String raw) {
        assertResolvedByRuleWith(AccessMode.resolve(RawValue.of(raw)), AccessMode.CLOSED, "unknown", "control characters");
    }

    @Test
    void resolvedRequiresItsParts() {
        assertThatThrownBy(() -> new Resolved<>(null, AccessMode.OPEN, "r")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new Resolved<>(Optional.empty(), null, "r")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new Resolved<>(Optional.empty(), AccessMode.OPEN, null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void accessPolicyOpensOnlyWhenOpenOrInsideTheTestWindow() {
        var now = Instant.parse("2025-06-02T10:00:00Z");
        var openWindow = TestWindow.resolve(RawValue.of("09:00-18:00"), RawValue.of("UTC")).value();
        var shutWindow = TestWindow.resolve(RawValue.of("11:00-12:00"), RawValue.of("UTC")).value();

        assertThat(AccessPolicy.isOpen(AccessMode.OPEN, TestWindow.closed(), now)).isTrue();
        assertThat(AccessPolicy.isOpen(AccessMode.CLOSED, openWindow, now)).isFalse();
        assertThat(AccessPolicy.isOpen(AccessMode.TEST_WINDOW, openWindow, now)).isTrue();
        assertThat(AccessPolicy.isOpen(AccessMode.TEST_WINDOW, shutWindow, now)).isFalse();
        assertThat(AccessPolicy.isOpen(AccessMode.TEST_WINDOW, TestWindow.closed(), now)).isFalse();
    }
}
