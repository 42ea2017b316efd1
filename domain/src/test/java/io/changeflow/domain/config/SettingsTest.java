package io.changeflow.domain.config;

import static io.changeflow.domain.config.ResolvedAssertions.assertResolved;
import static io.changeflow.domain.config.ResolvedAssertions.assertResolvedByRuleWith;
import static io.changeflow.domain.config.ResolvedAssertions.raw;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalInt;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The small configuration parsers: rate limit, retry count, toggle, approver mode. */
class SettingsTest {

    @Nested
    class RateLimit {

        private OptionalInt resolve(String raw, int annotationDefault) {
            return RateLimitSetting.resolve(raw(raw), annotationDefault).value();
        }

        @Test
        void missingOrBlankUsesTheAnnotationDefault() {
            assertThat(resolve(null, 10)).hasValue(10);
            assertThat(resolve("", 10)).hasValue(10);
            assertThat(resolve("  \t", 10)).hasValue(10);
            assertThat(RateLimitSetting.resolve(RawValue.missing(), 10).rule()).contains("default 10");
        }

        @Test
        void missingWithoutAPositiveDefaultDoesNotLimit() {
            assertThat(resolve(null, 0)).isEmpty();
            assertThat(resolve(" ", -5)).isEmpty();
        }

        @ParameterizedTest
        @CsvSource({"1,1", "5,5", "' 7 ',7", "+3,3", "2147483647,2147483647", "010,10"})
        void readsAPositiveLimit(String raw, int limit) {
            assertResolved(RateLimitSetting.resolve(RawValue.of(raw), 10), OptionalInt.of(limit), "configured");
        }

        @ParameterizedTest
        @ValueSource(strings = {"0", "-1", "-2147483648", "00", "-2147483649", "-99999999999", "-99999999999999999999999"})
        void nonPositiveStopsLimiting(String raw) {
            assertResolved(RateLimitSetting.resolve(RawValue.of(raw), 10), OptionalInt.empty(), "not positive: no limiting");
        }

        @ParameterizedTest
        @ValueSource(strings = {"abc", "1.5", "1e3", "10/min", "0x10", "ten", "1 0", "--1", "+-1", "+", "-", "1_000",
                "٥", "٣", "１０", "१०", "10\u0000", "\u000010", "1\u00000", "\u000110\u001f", "10\u0085", "10\u00a0"})
        void garbageStopsLimitingInsteadOfBlockingEveryone(String raw) {
            assertResolved(RateLimitSetting.resolve(RawValue.of(raw), 10), OptionalInt.empty(), "unparsable: no limiting");
        }

        @ParameterizedTest
        @ValueSource(strings = {"2147483648", "99999999999", "+99999999999", "9223372036854775807", "9223372036854775808",
                "99999999999999999999999", " 99999999999 "})
        void hugeValuesSaturateAtTheLargestLimit(String raw) {
            assertResolved(RateLimitSetting.resolve(RawValue.of(raw), 10), OptionalInt.of(Integer.MAX_VALUE),
                    "above the largest limit: 2147483647");
        }

        @Test
        void stripsUnicodeWhitespaceButNotControlCharacters() {
            assertThat(resolve("\u200342\u3000", 10)).hasValue(42);
            assertThat(resolve("\u2028 42\t\n", 10)).hasValue(42);
            assertThat(resolve("42\u0000", 10)).isEmpty();
            assertThat(resolve("\u000042", 10)).isEmpty();
        }
    }



    @Nested
    class Retries {

        private int resolve(String raw) {
            return RetryCount.resolve(raw(raw), 3).value();
        }

        @Test
        void missingOrBlankGivesTheDefaultOfThree() {
            assertThat(resolve(null)).isEqualTo(3);
            assertThat(resolve("")).isEqualTo(3);
            assertThat(resolve("   ")).isEqualTo(3);
        }

        @ParameterizedTest
        @CsvSource({"0,0", "1,1", "3,3", "' 7 ',7", "10,10"})
        void readsACountUpToTheCap(String raw, int count) {
            assertThat(resolve(raw)).isEqualTo(count);
        }

        @ParameterizedTest
        @ValueSource(strings = {"-1", "-100", "-2147483648"})
        void negativeMeansNoRetries(String raw) {
            assertResolvedByRuleWith(RetryCount.resolve(RawValue.of(raw), 3), 0, "negative");
        }

        @ParameterizedTest
        @ValueSource(strings = {"11", "300", "2147483647"})
        void capsAtTen(String raw) {
            assertThat(resolve(raw)).isEqualTo(RetryCount.CAP).isEqualTo(10);
        }

        @ParameterizedTest
        @ValueSource(strings = {"abc", "3.0", "three", "1e1", "0x3", "٥", "٣", "３", "+-1", "5\u0000", "\u00005",
                "\u00015\u001f"})
        void garbageGivesTheDefault(String raw) {
            assertResolved(RetryCount.resolve(RawValue.of(raw), 3), 3, "unparsable: default 3");
        }

        @Test
        void hugeValuesSaturateAtTheCapOrZero() {
            assertResolved(RetryCount.resolve(RawValue.of("99999999999"), 3), RetryCount.CAP, "above the cap: 10");
            assertResolved(RetryCount.resolve(RawValue.of("-99999999999"), 3), 0, "negative: 0");
            assertThat(resolve("99999999999999999999999")).isEqualTo(10);
            assertThat(resolve("-99999999999999999999999")).isZero();
            assertThat(resolve("+2147483648")).isEqualTo(10);
        }

        @Test
        void stripsUnicodeWhitespaceButNotControlCharacters() {
            assertThat(RetryCount.resolve(RawValue.of("\u20037\u3000"), 5).value()).isEqualTo(7);
            assertThat(RetryCount.resolve(RawValue.of("7\u0000"), 5).value()).isEqualTo(5);
            assertThat(RetryCount.resolve(RawValue.of("\u00007"), 5).value()).isEqualTo(5);
        }
    }

    @Nested
    class OnOff {

        @ParameterizedTest
        @ValueSource(strings = {"true", "TRUE", "True", " true ", "\ttRuE\n"})
        void isOnOnlyForTrueInAnyCase(String raw) {
            assertThat(Toggle.resolve(RawValue.of(raw)).value()).isTrue();
        }

        @ParameterizedTest
        @ValueSource(strings = {"", " ", "false", "FALSE", "yes", "on", "1", "y", "t", "truee", "tru", "t rue", "enabled",
                "\"true\"", "true\u0000", "\u0000true", "tr\u0000ue", "\u0001true\u001f", "true\u0085", "true\u00a0",
                "\u200btrue", "\ufefftrue", "ｔｒｕｅ", "trUe\u007f"})
        void isOffForAnythingElse(String raw) {
            assertThat(Toggle.resolve(RawValue.of(raw)).value()).as(raw).isFalse();
        }

        @ParameterizedTest
        @ValueSource(strings = {"\u2003true\u3000", "true\u2028", "\u1680TRUE", "\ttrue\r\n"})
        void stripsUnicodeWhitespace(String raw) {
            assertThat(Toggle.resolve(RawValue.of(raw)).value()).isTrue();
        }

        @ParameterizedTest
        @ValueSource(strings = {"\u000btrue\f", "true\u001f", "\u001ctrue", "true\u0000"})
        void staysOffWithControlCharacters(String raw) {
            assertResolvedByRuleWith(Toggle.resolve(RawValue.of(raw)), false, "control characters");
        }

        @Test
        void isOffWhenMissing() {
            assertResolvedByRuleWith(Toggle.resolve(RawValue.missing()), false, "missing");
        }
    }

    @Nested
    class Approver {

        private ApproverMode resolve(String raw) {
            return ApproverMode.resolve(raw(raw)).value();
        }

        @Test
        void keepsTheClientLibraryWhenMissing() {
            assertThat(resolve(null)).isEqualTo(ApproverMode.CLIENT_LIBRARY);
            assertThat(resolve(" ")).isEqualTo(ApproverMode.CLIENT_LIBRARY);
        }

        @ParameterizedTest
        @ValueSource(strings = {"DIRECT_HTTP", "direct_http", "direct-http", " Direct-Http "})
        void readsDirectHttpWithDashOrUnderscoreInAnyCase(String raw) {
            assertThat(resolve(raw)).isEqualTo(ApproverMode.DIRECT_HTTP);
        }

        @ParameterizedTest
        @ValueSource(strings = {"CLIENT_LIBRARY", "client-library", "Client_Library "})
        void readsClientLibrary(String raw) {
            assertResolved(ApproverMode.resolve(RawValue.of(raw)), ApproverMode.CLIENT_LIBRARY, "configured");
        }

        @ParameterizedTest
        @ValueSource(strings = {"http", "direct", "DIRECTHTTP", "direct http", "gitlab4j"})
        void keepsTheClientLibraryForAnythingUnknown(String raw) {
            assertResolvedByRuleWith(ApproverMode.resolve(RawValue.of(raw)), ApproverMode.CLIENT_LIBRARY, "unknown");
        }
    }
}
