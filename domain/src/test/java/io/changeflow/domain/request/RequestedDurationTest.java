package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Issue 32 item 3: a request "for 8 hours", its forms, its limits and its end fixed once. */
class RequestedDurationTest {

    private static final Instant NOW = Instant.parse("2026-12-07T10:00:00Z");
    private static final String OP = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

    @ParameterizedTest
    @CsvSource({"PT8H,PT8H", "P7D,PT168H", "pt90m,PT1H30M", "P1DT12H,PT36H", "PT8H30M,PT8H30M", " PT1M ,PT1M",
            "P366D,PT8784H"})
    void readsDaysHoursAndMinutes(String raw, String expected) {
        assertThat(RequestedDuration.parse(raw)).isEqualTo(new RequestedDuration.Parsed.Asked(Duration.parse(expected)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8h", "8 hours", "P", "PT", "P1W", "P1M", "P1Y", "PT30S", "PT1.5H", "-PT8H", "P-1D",
            "PT8M8H", "P1D2D", "P1000D", "tomorrow", "PT8HX"})
    void aGarbledFormIsInvalidFormat(String raw) {
        assertThat(RequestedDuration.parse(raw)).as(raw).isInstanceOfSatisfying(RequestedDuration.Parsed.Refused.class,
                refused -> assertThat(refused.error()).extracting(FieldError::field, FieldError::code)
                        .containsExactly("duration", "INVALID_FORMAT"));
    }

    @Test
    void zeroIsTooShortAndBeyondTheServicesLongestGrantIsTooFar() {
        assertThat(RequestedDuration.parse("PT0M")).extracting(p -> ((RequestedDuration.Parsed.Refused) p).error().code())
                .isEqualTo("TOO_SHORT");
        assertThat(RequestedDuration.parse("P367D")).extracting(p -> ((RequestedDuration.Parsed.Refused) p).error().code())
                .isEqualTo("TOO_FAR");
        assertThat(RequestedDuration.parse("P366DT1M")).extracting(p -> ((RequestedDuration.Parsed.Refused) p).error().code())
                .isEqualTo("TOO_FAR");
    }

    @Test
    void aSubmissionOfADurationHasNoEndYetAndBothAnEndAndADurationIsAFieldError() {
        var valid = new Submission(OP, "db", "alice", "debugging", null, "PT8H").validate("alice", NOW);
        assertThat(valid).isInstanceOfSatisfying(Submission.Validation.Valid.class, v -> {
            assertThat(v.request().duration()).contains(Duration.ofHours(8));
            assertThat(v.request().expiresAt()).isEmpty();
            assertThat(v.request().endOpen()).isTrue();
        });
        var both = new Submission(OP, "db", "alice", "debugging", "2026-12-08", "PT8H").validate("alice", NOW);
        assertThat(both).isInstanceOfSatisfying(Submission.Validation.Invalid.class, invalid -> assertThat(invalid.errors())
                .extracting(FieldError::field, FieldError::code)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("duration", "MUTUALLY_EXCLUSIVE")));
        var garbled = new Submission(OP, "db", "alice", "debugging", " ", "8 hours").validate("alice", NOW);
        assertThat(garbled).isInstanceOfSatisfying(Submission.Validation.Invalid.class, invalid -> assertThat(invalid.errors())
                .extracting(FieldError::code).containsExactly("INVALID_FORMAT"));
    }

    @Test
    void noLineIsWrittenBeforeTheEndIsFixedAndTheFixedEndIsTheStartPlusTheDuration() {
        var asked = new ChangeRequest(OperationId.of(OP), "alice", TargetKey.of("db"), SubjectId.of("alice"), "debugging",
                Optional.empty(), Optional.of(Duration.ofHours(8)));
        assertThatThrownBy(() -> Grant.of(asked)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is fixed before its line is written");
        var start = Instant.parse("2026-12-09T15:30:00Z");
        var fixed = asked.withEnd(asked.endFrom(start));
        assertThat(Grant.of(fixed).line()).isEqualTo("alice until=2026-12-09T23:30:00Z op=" + OP);
        assertThat(fixed.endOpen()).isFalse();
    }

    @Test
    void aRetryOfADurationIsTheSameRequestBeforeAndAfterItsEndIsFixedButNotARequestOfAnEnd() {
        var asked = new ChangeRequest(OperationId.of(OP), "alice", TargetKey.of("db"), SubjectId.of("alice"), "debugging",
                Optional.empty(), Optional.of(Duration.ofHours(8)));
        var fixed = asked.withEnd(Instant.parse("2026-12-09T23:30:00Z"));
        var ofAnEnd = new ChangeRequest(OperationId.of(OP), "alice", TargetKey.of("db"), SubjectId.of("alice"),
                "debugging", Optional.of(Instant.parse("2026-12-09T23:30:00Z")));
        assertThat(fixed.fingerprint()).isEqualTo(asked.fingerprint()).isNotEqualTo(ofAnEnd.fingerprint());
        assertThat(asked.withEnd(NOW).fingerprint()).isNotEqualTo(new ChangeRequest(OperationId.of(OP), "alice",
                TargetKey.of("db"), SubjectId.of("alice"), "debugging", Optional.empty(),
                Optional.of(Duration.ofHours(9))).fingerprint());
    }

    @Test
    void theTargetsMaximumBoundsTheDurationAndATargetMayTakeNone() {
        var rules = GrantDurations.configured("P30D", "P7D", "true");
        assertThat(rules.checkDuration(Duration.ofDays(30))).isEmpty();
        assertThat(rules.checkDuration(Duration.ofDays(30).plusMinutes(1))).hasValueSatisfying(error -> {
            assertThat(error.field()).isEqualTo("duration");
            assertThat(error.code()).isEqualTo("TOO_FAR");
            assertThat(error.message()).contains("at most 30 days (P30D)");
        });
        assertThat(GrantDurations.configured("P30D", null, "false").checkDuration(Duration.ofHours(1)))
                .hasValueSatisfying(error -> assertThat(error.code()).isEqualTo("NOT_ALLOWED"));
        assertThat(GrantDurations.configured(null, null, "true").checkDuration(Duration.ofDays(366))).isEmpty();
        assertThat(GrantDurations.NONE.checkDuration(Duration.ofHours(1))).as("no rule: no durations")
                .hasValueSatisfying(error -> assertThat(error.code()).isEqualTo("NOT_ALLOWED"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"yes", "1", "ture", "on", "false", "FALSE", "", " "})
    void unsetFalseOrAGarbledAllowDurationsIsNotAllowed(String raw) {
        assertThat(GrantDurations.configured(null, null, raw).durationsAllowed()).as(raw).isFalse();
        assertThat(GrantDurations.configured(null, null, null).durationsAllowed()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "TRUE", " True "})
    void onlyTrueAllowsDurations(String raw) {
        assertThat(GrantDurations.configured(null, null, raw).durationsAllowed()).as(raw).isTrue();
    }
}
