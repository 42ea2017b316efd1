package io.changeflow.application.submit;

import static io.changeflow.application.fake.InMemoryChangeflow.newOperationId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.submit.SubmitChangeRequest.Result;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.GrantDurations;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 item 3, durations counted from "in effect": a request "for 8 hours" gets its end when its approved grant
 * line is first written (the create step's commit, or its batch's), so a slow approval does not eat the granted time;
 * the end is recorded once and every later write of the line (a regenerated change) reuses it, so main and the records
 * agree.
 */
class DurationsFromInEffectTest {

    private static final Duration EIGHT_HOURS = Duration.ofHours(8);

    private final InMemoryChangeflow app = withDurations(new InMemoryChangeflow());
    /** The clock at each commit GitLab took (the moments a line was written). */
    private final List<Instant> commits = new ArrayList<>();

    /** The standard targets, both taking durations ({@code allow-durations: true}; unset they take none). */
    private static InMemoryChangeflow withDurations(InMemoryChangeflow app) {
        for (var key : List.of(FakeTargets.SINGLE, FakeTargets.BATCHABLE)) {
            app.targets.add(app.targets.require(key).withDurations(
                    new GrantDurations(Optional.empty(), Optional.empty(), true)));
        }
        return app;
    }

    private Result submit(String id, TargetKey target, String subject, String expiresAt, String duration) {
        return app.submit(subject, new Submission(id, target.value(), subject, "an incident", expiresAt, duration));
    }

    private OperationId accepted(TargetKey target, String subject, String duration) {
        var id = newOperationId();
        assertThat(submit(id, target, subject, null, duration)).isInstanceOf(Result.Accepted.class);
        return OperationId.of(id);
    }

    private String fileOn(TargetKey target, String branch) {
        return app.gitlab.fileOn(FakeTargets.PROJECT, branch, "grants/" + target.value() + ".txt").orElse("");
    }

    /** Merged with {@code end}: main's line of {@code subject} and the operation agree, the end fixed once. */
    private void assertMergedOnceFixedAt(OperationId id, TargetKey target, String subject, Instant end) {
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.op(id).expiresAt()).contains(end);
        assertThat(fileOn(target, "main")).contains(subject + " until=" + end + " op=" + id.value());
        assertThat(app.operations.fixedEnds()).isEqualTo(1);
    }

    private void recordNextCommit() {
        app.gitlab.beforeNext("commit", () -> commits.add(app.clock.instant()));
    }

    @Test
    void aRequestOfADurationApprovesFirstAndItsEndIsFixedWhenItsApprovedLineIsFirstWritten() {
        var submitted = app.clock.instant();
        var id = accepted(FakeTargets.SINGLE, "alice", "PT8H");
        assertThat(app.op(id).order()).as("the create-first order would write its line before approval")
                .isEqualTo(StepOrder.APPROVE_FIRST);
        app.queue.runUntilIdle();
        assertThat(app.op(id).expiresAt()).as("no end while it waits for its approver").isEmpty();
        assertThat(app.approvals.formOf(id)).hasValueSatisfying(form -> {
            assertThat(form.expiresAt()).isEmpty();
            assertThat(form.ext()).containsEntry("duration", "PT8H");
        });
        assertThat(app.operations.binding(app.op(id).subject(), FakeTargets.SINGLE).orElseThrow().expiresAt()).isEmpty();

        app.clock.advance(Duration.ofHours(3));
        recordNextCommit();
        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();

        assertThat(commits).hasSize(1);
        var end = commits.getFirst().plus(EIGHT_HOURS);
        assertThat(end).isAfter(submitted.plus(Duration.ofHours(11)).minusSeconds(1));
        var op = app.op(id);
        assertThat(op.binding()).contains(BindingStatus.MERGED);
        assertThat(op.expiresAt()).contains(end);
        assertThat(op.duration()).contains(EIGHT_HOURS);
        assertThat(app.operations.binding(op.subject(), FakeTargets.SINGLE).orElseThrow().expiresAt()).contains(end);
        assertThat(fileOn(FakeTargets.SINGLE, "main")).contains("alice until=" + end + " op=" + id.value());
        assertThat(app.operations.fixedEnds()).isEqualTo(1);

        app.deployed(id);
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(id).expiresAt()).as("in effect with the end main says").contains(end);
    }

    @Test
    void aRegeneratedChangeWritesTheEndFixedAtTheFirstWriteUnchanged() {
        app.config.set(io.changeflow.application.settings.Settings.APPROVE_FIRST, "true");
        app.approvedUntilHandleIsNext("anna");
        app.gitlab.nextNeedRebase(true, PipelineStatus.RUNNING, PipelineStatus.PASSED);
        var id = accepted(FakeTargets.SINGLE, "bert", "PT8H");
        app.queue.runNext();
        while (app.queue.pending(StepKind.SUBMIT_APPROVAL, id.value()).isPresent()) {
            app.queue.runNext();
        }
        recordNextCommit();
        app.decide(id, Decision.APPROVED);
        while (app.queue.pending(StepKind.HANDLE, id.value()).isEmpty()) {
            app.queue.runNext();
        }
        var fixed = app.op(id).expiresAt().orElseThrow();
        assertThat(fixed).isEqualTo(commits.getFirst().plus(EIGHT_HOURS));
        app.clock.advance(Duration.ofHours(1));

        app.queue.runUntilIdle();

        assertThat(app.gitlab.rewrites()).as("its change was generated again on the current main").isEqualTo(1);
        assertMergedOnceFixedAt(id, FakeTargets.SINGLE, "bert", fixed);
    }

    @Test
    void aBatchMemberOfADurationGetsItsEndWhenItsBatchWritesItsLine() {
        var id = accepted(FakeTargets.BATCHABLE, "carl", "P1DT12H");
        while (app.queue.pending(StepKind.SUBMIT_APPROVAL, id.value()).isPresent()) {
            app.queue.runNext();
        }
        app.decide(id, Decision.APPROVED);
        assertThat(app.op(id).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.op(id).expiresAt()).as("approved, waiting for its round: not written yet").isEmpty();
        app.clock.advance(Duration.ofHours(2));
        recordNextCommit();

        assertThat(app.batchRound.round(RunBatchRound.Command.scheduled(Target.DEFAULT_PARTITION)))
                .isInstanceOf(RunBatchRound.Result.Claimed.class);
        app.queue.runUntilIdle();

        assertMergedOnceFixedAt(id, FakeTargets.BATCHABLE, "carl", commits.getFirst().plus(Duration.ofHours(36)));
    }

    @Test
    void aRenewalCanBeADurationCountedFromItsOwnApprovedLine() {
        var renewed = app.grantInEffect("dora", "dora", app.clock.instant().plus(Duration.ofDays(2)));
        app.clock.advance(Duration.ofHours(1));
        var renewal = accepted(FakeTargets.SINGLE, "dora", "P7D");
        assertThat(app.op(renewal).removes()).as("a renewal of the grant in effect").contains(renewed);
        recordNextCommit();

        app.approveAndRun(renewal);
        app.deployed(renewal);

        var end = commits.getFirst().plus(Duration.ofDays(7));
        assertThat(app.op(renewal).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(renewal).expiresAt()).contains(end);
        assertThat(fileOn(FakeTargets.SINGLE, "main")).contains("dora until=" + end + " op=" + renewal.value())
                .doesNotContain("op=" + renewed.value());
    }

    @Test
    void theTargetsMaximumBoundsADurationAndATargetMayTakeNoneAndNothingIsKept() {
        var single = app.targets.require(FakeTargets.SINGLE);
        app.targets.add(single.withDurations(new GrantDurations(Optional.of(Duration.ofDays(1)), Optional.empty(), true)));
        var tooLong = newOperationId();

        assertThat(submit(tooLong, FakeTargets.SINGLE, "erik", null, "P1DT1M")).isInstanceOfSatisfying(
                Result.Invalid.class, invalid -> {
                    assertThat(invalid.fieldErrors()).extracting(FieldError::field, FieldError::code)
                            .containsExactly(tuple("duration", "TOO_FAR"));
                    assertThat(invalid.fieldErrors().getFirst().message()).contains("at most 1 day (P1D)");
                });
        app.targets.add(single.withDurations(new GrantDurations(Optional.empty(), Optional.empty(), false)));
        assertThat(submit(newOperationId(), FakeTargets.SINGLE, "erik", null, "PT1H")).isInstanceOfSatisfying(
                Result.Invalid.class, invalid -> assertThat(invalid.fieldErrors()).extracting(FieldError::code)
                        .containsExactly("NOT_ALLOWED"));
        assertThat(submit(newOperationId(), FakeTargets.SINGLE, "erik", "2026-12-31", "PT1H")).isInstanceOfSatisfying(
                Result.Invalid.class, invalid -> assertThat(invalid.fieldErrors()).extracting(FieldError::code)
                        .containsExactly("MUTUALLY_EXCLUSIVE"));
        assertThat(app.operations.writes()).isZero();
        assertThat(app.idempotency.record(tooLong)).isEmpty();
    }

    @Test
    void aRetryOfADurationIsTheSameRequestAfterItsEndWasFixed() {
        var id = newOperationId();
        assertThat(submit(id, FakeTargets.SINGLE, "fred", null, "PT8H")).isInstanceOf(Result.Accepted.class);
        app.approveAndRun(OperationId.of(id));
        assertThat(app.op(OperationId.of(id)).expiresAt()).isPresent();

        assertThat(submit(id, FakeTargets.SINGLE, "fred", null, "PT8H")).isInstanceOf(Result.DuplicateSubmit.class);
        assertThat(submit(id, FakeTargets.SINGLE, "fred", null, "PT9H")).isInstanceOf(Result.KeyReused.class);
    }
}
