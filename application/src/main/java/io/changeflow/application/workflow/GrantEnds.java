package io.changeflow.application.workflow;

import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.operation.Operation;
import java.time.Instant;

/**
 * Issue 32 item 3, durations counted from "in effect": the end of a request of a duration is fixed when its approved
 * grant line is first written (the create step's commit, or its batch's), at that moment plus the duration, recorded
 * before the line is written and reused unchanged whenever the line is written again (a rebase, a regenerated change,
 * a batch's commit). What main says and what the records say then agree on one end. docs/workflow.md "Durations".
 */
public final class GrantEnds {

    private GrantEnds() {
    }

    /**
     * {@code op} with its end: as it is for a request of an end or one whose end is fixed already; else fixed now at
     * {@code writtenAt} + its duration (or, when another writer fixed it first, the end that writer fixed).
     */
    public static Operation fixedBeforeWriting(Operations operations, Operation op, Instant writtenAt) {
        if (!op.request().endOpen()) {
            return op;
        }
        var end = operations.fixEnd(op.id(), op.request().endFrom(writtenAt)).orElseThrow(() ->
                new IllegalStateException("the end of " + op.id() + " could not be fixed: no such request of a duration"));
        return op.withEnd(end);
    }
}
