package io.changeflow.domain.state;

import io.changeflow.domain.ChangeflowException;

/** A write asked for a transition the central table does not allow. Nothing was written. */
public class IllegalTransitionException extends ChangeflowException {

    private final transient Transition.Refused refused;

    public IllegalTransitionException(Transition.Refused refused) {
        super("transition refused: " + refused.event() + " from "
                + refused.from().map(Object::toString).orElse("(new)") + ": " + refused.reason());
        this.refused = refused;
    }

    public Transition.Refused refused() {
        return refused;
    }
}
