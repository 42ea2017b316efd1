package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.domain.polling.PollDecision;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.polling.PollOutcome;
import io.changeflow.domain.polling.TieredPolling;
import io.changeflow.domain.request.PipelinePolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Waiting on an external process (a pipeline, a rebase) across runs of a step: the counters live in the step's data,
 * each look is one run, the delay until the next look comes from {@link TieredPolling}. A timeout is "pending", not a
 * failure: the watch keeps looking at a slow pace until the pending deadline, then ends ({@link Verdict.GaveUp}).
 */
public final class PipelineWatch {

    static final String SINCE = "since";
    static final String POLLS = "polls";
    static final String PENDING_SINCE = "pendingSince";

    /** What to do after one look. */
    public sealed interface Verdict {
        /** Still running: look again after {@code delay}, with {@code step}'s updated counters. */
        record Again(Step step, Duration delay) implements Verdict {}

        /** It passed. */
        record Passed() implements Verdict {}

        /** It failed: deterministic. */
        record Failed() implements Verdict {}

        /** It just timed out: record "pending", then look again after {@code delay} (slow pace). */
        record TimedOut(Step step, Duration delay) implements Verdict {}

        /**
         * Pending for longer than the pending deadline ({@code changeflow.workflow.pipeline.pending-deadline}):
         * the watch ends; the caller writes an explicit state a person looks at (hint CONTACT_MAINTAINERS), never
         * "pending" with nobody watching.
         *
         * @param pendingSince when the pipeline was first recorded pending
         * @param deadline     how long it was looked at after that
         */
        record GaveUp(Instant pendingSince, Duration deadline) implements Verdict {

            /** "24 h", "90 min", "45 s": the deadline as a person reads it in a note. */
            public String deadlineText() {
                return PipelineWatch.text(deadline);
            }
        }
    }

    private final TieredPolling polling;
    private final Duration pendingRecheck;
    private final Duration giveUpAfter;

    /** The pending deadline used when none (or a zero or negative one) is given: 24 hours. */
    public static final Duration DEFAULT_PENDING_DEADLINE = Duration.ofHours(24);

    /**
     * @param giveUpAfter the pending deadline: how long a pending pipeline is still looked at (a missing, zero
     *                    or negative one means {@link #DEFAULT_PENDING_DEADLINE}, never "give up at once")
     */
    public PipelineWatch(TieredPolling polling, Duration pendingRecheck, Duration giveUpAfter) {
        this.polling = polling;
        this.pendingRecheck = pendingRecheck;
        this.giveUpAfter = giveUpAfter == null || giveUpAfter.isZero() || giveUpAfter.isNegative()
                ? DEFAULT_PENDING_DEADLINE : giveUpAfter;
    }

    /** "24 h", "90 min", "45 s": a duration as a person reads it in a note. */
    public static String text(Duration duration) {
        if (duration.toSeconds() % 3600 == 0 && duration.toHours() > 0) {
            return duration.toHours() + " h";
        }
        if (duration.toSeconds() % 60 == 0 && duration.toMinutes() > 0) {
            return duration.toMinutes() + " min";
        }
        return Math.max(1, duration.toSeconds()) + " s";
    }

    /** {@code step} prepared to start waiting at {@code now}. */
    public static Step start(Step step, Instant now) {
        return step.with(SINCE, now.toString()).with(POLLS, 0).without(PENDING_SINCE);
    }

    /** The delay before the first look. */
    public Duration firstDelay() {
        return polling.shortInterval();
    }

    /** When {@code step}'s pipeline was first recorded pending; empty when it is not pending (or unreadable). */
    public static Optional<Instant> pendingSince(Step step) {
        return instant(step, PENDING_SINCE);
    }

    /**
     * {@code step} resumed on a request whose state already says pending since {@code recordedAt}: pending from then (the
     * pending deadline counts from the record), unless its counters say so already. A watch resumed without them (a
     * lost task re-created, a re-trigger) would otherwise poll through a whole new timeout first.
     */
    public static Step resumedPending(Step step, Instant recordedAt) {
        return pending(step) ? step : step.with(PENDING_SINCE, recordedAt.toString());
    }

    /** Whether {@code step} is already past the timeout (its state says pending). */
    public static boolean pending(Step step) {
        return step.value(PENDING_SINCE).isPresent();
    }

    /**
     * @param fallbackSince when the step carries no start (e.g. re-scheduled by the sweep after its
     *                      task was lost), when waiting started according to the stored state
     */
    public Verdict observe(Step step, PollObservation observed, Instant now, Instant fallbackSince) {
        var polls = step.intValue(POLLS, 0) + 1;
        var since = instant(step, SINCE).orElse(fallbackSince);
        var next = step.with(POLLS, polls).with(SINCE, since.toString());
        var pendingSince = instant(step, PENDING_SINCE);
        if (pendingSince.isPresent()) {
            return switch (observed) {
                case PASSED -> new Verdict.Passed();
                case FAILED -> new Verdict.Failed();
                case RUNNING -> Duration.between(pendingSince.get(), now).compareTo(giveUpAfter) >= 0
                        ? new Verdict.GaveUp(pendingSince.get(), giveUpAfter)
                        : new Verdict.Again(next, pendingRecheck);
            };
        }
        return switch (polling.next(observed, polls, Duration.between(since, now))) {
            case PollDecision.PollAgain again -> new Verdict.Again(next, again.delay());
            case PollDecision.Done done when done.outcome() == PollOutcome.PASSED -> new Verdict.Passed();
            case PollDecision.Done done when done.outcome() == PollOutcome.FAILED -> new Verdict.Failed();
            case PollDecision.Done done -> new Verdict.TimedOut(next.with(PENDING_SINCE, now.toString()), pendingRecheck);
        };
    }

    /**
     * How the latest pipeline reads as an observation of the merge request whose head is {@code headSha} where a
     * passed pipeline is required ({@link HeadPipeline} with {@link PipelinePolicy#REQUIRED}): none yet, or one that
     * ran for another commit (the previous head's), counts as running; one that will not answer by itself (manual,
     * skipped, canceled) never passed.
     */
    public static PollObservation observation(Pipeline latest, String headSha) {
        return HeadPipeline.observation(HeadPipeline.of(latest, headSha == null ? "" : headSha, PipelinePolicy.REQUIRED));
    }

    /** {@link #observation(Pipeline, String)} of a merge request whose head has no pipeline yet. */
    public static PollObservation observationWithoutPipeline() {
        return HeadPipeline.observation(HeadPipeline.withoutPipeline(PipelinePolicy.REQUIRED));
    }

    private static Optional<Instant> instant(Step step, String key) {
        try {
            return step.value(key).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
