package io.changeflow.domain.state;

import io.changeflow.domain.ChangeflowException;

/** A batch status write the batch layer does not allow (e.g. ending an already ended batch). */
public class IllegalBatchTransitionException extends ChangeflowException {

    public IllegalBatchTransitionException(BatchStatus from, BatchStatus to) {
        super("batch transition refused: " + from + " -> " + to);
    }
}
