package io.changeflow.application.query;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Who is expected to make the next move on a request, since when, and until when (the request page's "waiting
 * for the pipeline for 12 min; checked every 10 min; a person is asked after 24 h").
 *
 * @param waitingFor    who acts next
 * @param since         since when this wait lasts
 * @param deadline      when the wait ends by itself (an explicit state a person looks at, or the retries stop);
 *                      empty when this service sets no deadline for it
 * @param nextAttemptAt when this service looks or tries next (the scheduled step's due time), when known
 * @param checkedEvery  how often this service looks while waiting, when it looks at a steady pace
 * @param failing       the external system whose transient failures are being retried ({@code gitlab},
 *                      {@code approval}), or, for a failed request retried automatically, {@code service}
 */
public record RequestWait(WaitingFor waitingFor, Instant since, Optional<Instant> deadline, Optional<Instant> nextAttemptAt,
                          Optional<Duration> checkedEvery, Optional<String> failing) {

    /** Who makes the next move. */
    public enum WaitingFor {
        /** This service, through a scheduled step or job (also while it retries failures). */
        SERVICE,
        /** The approver, in the approval system. */
        APPROVER,
        /** A merge request pipeline on GitLab. */
        PIPELINE,
        /** The deployment pipeline's report that the change is in effect. */
        DEPLOY_PIPELINE,
        /** A person: the maintainers or an operator (hint CONTACT_MAINTAINERS). */
        MAINTAINERS
    }

    public RequestWait {
        Objects.requireNonNull(waitingFor, "waitingFor");
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(nextAttemptAt, "nextAttemptAt");
        Objects.requireNonNull(checkedEvery, "checkedEvery");
        Objects.requireNonNull(failing, "failing");
    }

    static RequestWait on(WaitingFor waitingFor, Instant since) {
        return new RequestWait(waitingFor, since, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    RequestWait until(Instant deadline) {
        return new RequestWait(waitingFor, since, Optional.of(deadline), nextAttemptAt, checkedEvery, failing);
    }

    RequestWait next(Instant nextAttemptAt) {
        return new RequestWait(waitingFor, since, deadline, Optional.of(nextAttemptAt), checkedEvery, failing);
    }

    RequestWait every(Duration checkedEvery) {
        return new RequestWait(waitingFor, since, deadline, nextAttemptAt, Optional.of(checkedEvery), failing);
    }

    RequestWait failing(String system) {
        return new RequestWait(waitingFor, since, deadline, nextAttemptAt, checkedEvery, Optional.of(system));
    }
}
