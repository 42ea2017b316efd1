package io.changeflow.domain.polling;

import java.time.Duration;

/** After one observation: stop with an outcome, or look again after a delay. */
public sealed interface PollDecision {

    record Done(PollOutcome outcome) implements PollDecision {}

    record PollAgain(Duration delay) implements PollDecision {}
}
