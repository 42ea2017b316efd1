package io.changeflow.application.submit;

import static io.changeflow.application.fake.InMemoryChangeflow.newOperationId;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.submit.SubmitChangeRequest.Result;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 item 3: a target's maximum and default duration ({@code max-duration}, {@code default-duration}). A request
 * beyond the maximum is refused with a field error (400 TOO_FAR, the limit in the message) and keeps nothing; a request
 * without an end gets the default; "never" only where the target has neither.
 */
class TargetDurationsTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private void rules(Duration max, Duration defaultDuration) {
        var single = app.targets.require(FakeTargets.SINGLE);
        app.targets.add(single.withDurations(new GrantDurations(Optional.ofNullable(max), Optional.ofNullable(defaultDuration))));
    }

    private Result submit(String id, String expiresAt) {
        return app.submit("alice", new Submission(id, FakeTargets.SINGLE.value(), "alice", "reporting", expiresAt));
    }

    @Test
    void aRequestBeyondTheMaximumIsAFieldErrorWithTheLimitAndKeepsNothing() {
        rules(Duration.ofDays(30), Duration.ofDays(7));
        var id = newOperationId();
        var now = app.clock.instant();

        var result = submit(id, now.plus(Duration.ofDays(30)).plusSeconds(1).toString());

        assertThat(result).isInstanceOfSatisfying(Result.Invalid.class, invalid -> {
            assertThat(invalid.code()).isEqualTo("INVALID_REQUEST");
            assertThat(invalid.fieldErrors()).extracting(FieldError::field, FieldError::code)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("expiresAt", "TOO_FAR"));
            assertThat(invalid.fieldErrors().getFirst().message()).contains("30 days");
        });
        assertThat(app.operations.writes()).isZero();
        assertThat(app.idempotency.record(id)).isEmpty();
    }

    @Test
    void aRequestAtTheMaximumIsAccepted() {
        rules(Duration.ofDays(30), Duration.ofDays(7));
        var id = newOperationId();
        var end = app.clock.instant().plus(Duration.ofDays(30));

        assertThat(submit(id, end.toString())).isInstanceOf(Result.Accepted.class);
        assertThat(app.op(OperationId.of(id)).request().expiresAt()).contains(end);
    }

    @Test
    void aRequestWithoutAnEndGetsTheDefaultAndItsRetryIsTheSameRequest() {
        rules(Duration.ofDays(30), Duration.ofDays(7));
        var id = newOperationId();
        var submitted = app.clock.instant();

        assertThat(submit(id, null)).isInstanceOfSatisfying(Result.Accepted.class,
                accepted -> assertThat(accepted.request().expiresAt()).contains(submitted.plus(Duration.ofDays(7))));
        app.clock.advance(Duration.ofMinutes(5));

        assertThat(submit(id, null)).isInstanceOf(Result.DuplicateSubmit.class);
        assertThat(app.op(OperationId.of(id)).request().expiresAt()).contains(submitted.plus(Duration.ofDays(7)));
    }

    @Test
    void aTargetWithAMaximumAndNoDefaultGivesTheMaximumNeverNoEnd() {
        rules(Duration.ofHours(8), null);
        var id = newOperationId();
        var submitted = app.clock.instant();

        submit(id, null);

        assertThat(app.op(OperationId.of(id)).request().expiresAt()).contains(submitted.plus(Duration.ofHours(8)));
    }

    @Test
    void neverOnlyWhereTheTargetHasNoRule() {
        var id = newOperationId();

        submit(id, null);

        assertThat(app.op(OperationId.of(id)).request().expiresAt()).isEmpty();
    }
}
