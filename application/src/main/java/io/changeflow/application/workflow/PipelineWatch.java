package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.domain.polling.PollDecision;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.polling.PollOutcome;
import io.changeflow.domain.polling.TieredPolling;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Waiting on an external process (a pipeline, a rebase) across runs of a step: the counters live in
 * the step's data, each look is one run, the delay until the next look comes from
 * {@link TieredPolling}. A timeout is not a failure: the caller records "pending" and the watch keeps
 * looking at a slow pace for a while, so a late result still moves the request on by itself.
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

        /** Pending for longer than the policy looks: stop; the state stays pending for a person to confirm. */
        record GaveUp() implements Verdict {}
    }

    private final TieredPolling polling;
    private final Duration pendingRecheck;
    private final Duration giveUpAfter;

    public PipelineWatch(TieredPolling polling, Duration pendingRecheck, Duration giveUpAfter) {
        this.polling = polling;
        this.pendingRecheck = pendingRecheck;
        this.giveUpAfter = giveUpAfter;
    }

    /** {@code step} prepared to start waiting at {@code now}. */
    public static Step start(Step step, Instant now) {
        return step.with(SINCE, now.toString()).with(POLLS, 0).without(PENDING_SINCE);
    }

    /** The delay before the first look. */
    public Duration firstDelay() {
        return polling.shortInterval();
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
                        ? new Verdict.GaveUp()
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
     * How the latest pipeline reads as an observation of the merge request whose head is {@code headSha}
     * (from {@code MergeRequests.get}): no pipeline yet counts as running, and so does a pipeline that
     * ran for another commit. That is the previous head's pipeline (after a push or a rebase GitLab
     * creates the new head's a moment later): its PASSED would approve code it never checked, and its
     * FAILED says nothing about the new head either, so the watch keeps looking until the head's own
     * pipeline answers (or the polling times out into "pending").
     */
    public static PollObservation observation(Optional<Pipeline> latest, String headSha) {
        if (latest.isEmpty() || !latest.get().ranFor(headSha)) {
            return PollObservation.RUNNING;
        }
        return switch (latest.get().status()) {
            case RUNNING -> PollObservation.RUNNING;
            case PASSED -> PollObservation.PASSED;
            case FAILED -> PollObservation.FAILED;
        };
    }

    private static Optional<Instant> instant(Step step, String key) {
        try {
            return step.value(key).map(Instant::parse);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
