package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SubmissionTest {

    private static final Instant NOW = Instant.parse("2025-06-02T10:00:00Z");
    private static final String OP = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";

    private static Submission submission(String operationId, String targetKey, String subjectId, String reason, String expiresAt) {
        return new Submission(operationId, targetKey, subjectId, reason, expiresAt);
    }

    /** Every field but the subject unreadable: a malformed ID and target key, a blank reason, an unreadable date. */
    private static Submission garbled(String subjectId) {
        return submission("not-a-uuid", "DB PROD", subjectId, " ", "someday");
    }

    /** The errors of {@link #garbled} in field order, the subject's with {@code subjectCode}. */
    private static Tuple[] garbledErrors(String subjectCode) {
        return new Tuple[] {
            tuple("operationId", "INVALID_FORMAT"),
            tuple("targetKey", "INVALID_FORMAT"),
            tuple("subjectId", subjectCode),
            tuple("reason", "REQUIRED"),
            tuple("expiresAt", "INVALID_FORMAT")};
    }

    private static ChangeRequest valid(Submission submission) {
        var validation = submission.validate("alice", NOW);
        assertThat(validation).isInstanceOf(Submission.Validation.Valid.class);
        return ((Submission.Validation.Valid) validation).request();
    }

    private static List<FieldError> errors(Submission submission, String requester) {
        var validation = submission.validate(requester, NOW);
        assertThat(validation).isInstanceOf(Submission.Validation.Invalid.class);
        return ((Submission.Validation.Invalid) validation).errors();
    }

    private static List<FieldError> errors(Submission submission) {
        return errors(submission, "alice");
    }

    @Test
    void acceptsACompleteSubmission() {
        var request = valid(submission(OP.toUpperCase(), "db-prod-readonly", "Bob", "  on-call this week  ", "2025-06-10"));
        assertThat(request.operationId()).isEqualTo(OperationId.of(OP));
        assertThat(request.requester()).isEqualTo("alice");
        assertThat(request.target()).isEqualTo(TargetKey.of("db-prod-readonly"));
        assertThat(request.subject()).isEqualTo(SubjectId.of("bob"));
        assertThat(request.reason()).isEqualTo("on-call this week");
        assertThat(request.expiresAt()).contains(Instant.parse("2025-06-11T00:00:00Z"));
    }

    @Test
    void reportsEveryFieldErrorAtOnce() {
        var errors = errors(garbled("1bob"));
        assertThat(errors).extracting(FieldError::field, FieldError::code).containsExactly(garbledErrors("INVALID_FORMAT"));
        assertThat(errors).allSatisfy(e -> assertThat(e.message()).isNotBlank());
    }

    @Test
    void reportsMissingRequiredFields() {
        var errors = errors(submission(null, null, null, null, null));
        assertThat(errors).extracting(FieldError::field, FieldError::code).containsExactly(
                tuple("operationId", "REQUIRED"),
                tuple("targetKey", "REQUIRED"),
                tuple("reason", "REQUIRED"));
        assertThat(errors(submission(" ", " ", null, "\t\n", null))).extracting(FieldError::code)
                .containsExactly("REQUIRED", "REQUIRED", "REQUIRED");
    }

    @Test
    void subjectDefaultsToTheRequester() {
        assertThat(valid(submission(OP, "db", null, "why", null)).subject()).isEqualTo(SubjectId.of("alice"));
        assertThat(valid(submission(OP, "db", "  ", "why", null)).subject()).isEqualTo(SubjectId.of("alice"));
        var request = ((Submission.Validation.Valid) submission(OP, "db", "", "why", null).validate("Carol", NOW)).request();
        assertThat(request.subject()).isEqualTo(SubjectId.of("carol"));
    }

    @Test
    void asksForASubjectWhenTheRequesterIsNotAValidOne() {
        var errors = errors(submission(OP, "db", null, "why", null), "E1001@x");
        assertThat(errors).extracting(FieldError::field, FieldError::code)
                .containsExactly(tuple("subjectId", "REQUIRED"));
        assertThat(errors(submission(OP, "db", " \t", "why", null), "E1001@x")).extracting(FieldError::code)
                .containsExactly("REQUIRED");
    }

    @Test
    void reportsAMissingSubjectTogetherWithTheOtherFieldErrors() {
        var errors = errors(garbled(null), "E1001@x");
        assertThat(errors).extracting(FieldError::field, FieldError::code)
                .containsExactlyInAnyOrder(garbledErrors("REQUIRED"));
        assertThat(errors(submission(OP, "db", null, "why", "2020-01-01"), "E1001@x"))
                .extracting(FieldError::field, FieldError::code)
                .containsExactlyInAnyOrder(tuple("subjectId", "REQUIRED"), tuple("expiresAt", "IN_THE_PAST"));
        assertThat(errors(submission(null, null, "", null, null), "not a subject")).extracting(FieldError::field)
                .containsExactlyInAnyOrder("operationId", "targetKey", "subjectId", "reason");
    }

    @Test
    void anUnreadableSubjectIsInvalidNotMissingEvenWhenTheRequesterIsNoSubject() {
        assertThat(errors(submission(OP, "db", "1bob", "why", null), "E1001@x"))
                .extracting(FieldError::field, FieldError::code)
                .containsExactly(tuple("subjectId", "INVALID_FORMAT"));
    }

    @Test
    void withoutExpiryTheGrantIsForGood() {
        assertThat(valid(submission(OP, "db", null, "why", null)).expiresAt()).isEmpty();
        assertThat(valid(submission(OP, "db", null, "why", "   ")).expiresAt()).isEmpty();
    }

    @Test
    void dateMeansTheEndOfThatDayInUtc() {
        assertThat(valid(submission(OP, "db", null, "why", "2025-06-02")).expiresAt())
                .contains(Instant.parse("2025-06-03T00:00:00Z"));
        assertThat(valid(submission(OP, "db", null, "why", " 2025-12-31 ")).expiresAt())
                .contains(Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void instantIsTakenAsIs() {
        assertThat(valid(submission(OP, "db", null, "why", "2025-06-02T17:00:00Z")).expiresAt())
                .contains(Instant.parse("2025-06-02T17:00:00Z"));
    }

    @Test
    void refusesAnExpiryInThePast() {
        for (var past : new String[] {"2025-06-01", "2020-01-01", "2025-06-02T09:59:59Z", "2025-06-02T10:00:00Z"}) {
            assertThat(errors(submission(OP, "db", null, "why", past))).as(past)
                    .extracting(FieldError::field, FieldError::code)
                    .containsExactly(tuple("expiresAt", "IN_THE_PAST"));
        }
        assertThat(valid(submission(OP, "db", null, "why", "2025-06-02T10:00:00.001Z")).expiresAt()).isPresent();
    }

    @Test
    void refusesAnExpiryMoreThan366DaysAhead() {
        var limit = NOW.plus(Duration.ofDays(366));
        assertThat(valid(submission(OP, "db", null, "why", limit.toString())).expiresAt()).contains(limit);
        assertThat(errors(submission(OP, "db", null, "why", limit.plusSeconds(1).toString())))
                .extracting(FieldError::code).containsExactly("TOO_FAR");
        assertThat(errors(submission(OP, "db", null, "why", "2027-01-01"))).extracting(FieldError::code).containsExactly("TOO_FAR");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tomorrow", "2025-13-01", "2025-02-30", "06/10/2025", "2025-06-10T17:00", "1749574800", "2025-6-1"})
    void refusesAnUnreadableExpiry(String expiresAt) {
        assertThat(errors(submission(OP, "db", null, "why", expiresAt))).extracting(FieldError::field, FieldError::code)
                .containsExactly(tuple("expiresAt", "INVALID_FORMAT"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"why\u0000", "a\u0007b", "esc \u001b[31m red", "del\u007f", "c1\u0085x", "vt\u000bx", "ff\fx",
            "us\u001fx", "nul\u0000\r\n"})
    void refusesControlCharactersInTheReason(String reason) {
        assertThat(errors(submission(OP, "db", null, reason, null))).extracting(FieldError::field, FieldError::code)
                .containsExactly(tuple("reason", "INVALID_CHARACTERS"));
    }

    @Test
    void allowsNewlinesAndTabsInTheReason() {
        assertThat(valid(submission(OP, "db", null, "line one\nline two\tindented", null)).reason())
                .isEqualTo("line one\nline two\tindented");
    }

    @Test
    void allowsWindowsLineBreaksInTheReason() {
        assertThat(valid(submission(OP, "db", null, "line one\r\nline two\r\n\tindented", null)).reason())
                .isEqualTo("line one\r\nline two\r\n\tindented");
        assertThat(valid(submission(OP, "db", null, "carriage\rreturn", null)).reason()).isEqualTo("carriage\rreturn");
        // line breaks around the text are stripped like any other whitespace
        assertThat(valid(submission(OP, "db", null, "\r\nwhy\r\n", null)).reason()).isEqualTo("why");
        assertThat(errors(submission(OP, "db", null, "\r\n\r\n", null))).extracting(FieldError::code).containsExactly("REQUIRED");
    }

    @Test
    void countsTheReasonLimitInCodePoints() {
        var emoji = "\uD83D\uDE80"; // one code point, two chars
        var atLimit = emoji.repeat(Submission.REASON_MAX);
        assertThat(atLimit.length()).isEqualTo(2 * Submission.REASON_MAX);
        assertThat(valid(submission(OP, "db", null, atLimit, null)).reason()).isEqualTo(atLimit);
        assertThat(errors(submission(OP, "db", null, atLimit + emoji, null))).extracting(FieldError::code)
                .containsExactly("TOO_LONG");
        assertThat(valid(submission(OP, "db", null, "x".repeat(500), null)).reason()).hasSize(500);
        assertThat(errors(submission(OP, "db", null, "x".repeat(501), null))).extracting(FieldError::code)
                .containsExactly("TOO_LONG");
    }

    @Test
    void countsTheLimitAfterTrimming() {
        var padded = "  " + "x".repeat(500) + "\n ";
        assertThat(valid(submission(OP, "db", null, padded, null)).reason()).isEqualTo("x".repeat(500));
    }

    @Test
    void changeRequestRequiresEveryPart() {
        var request = valid(submission(OP, "db", null, "why", null));
        assertThatThrownBy(() -> new ChangeRequest(request.operationId(), null,
                request.target(), request.subject(), "why", Optional.empty())).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ChangeRequest(request.operationId(), "alice",
                request.target(), request.subject(), "why", null)).isInstanceOf(NullPointerException.class);
    }
}
