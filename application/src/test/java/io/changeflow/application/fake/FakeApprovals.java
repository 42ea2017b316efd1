package io.changeflow.application.fake;

import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.domain.request.OperationId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The approval system in memory. Submitting is idempotent per operationId (same ticket again).
 * Tests can queue failures ({@link #failNextSubmit}), make the system take a submission but lose the
 * answer ({@link #loseNextAnswer}), or run code while the submission is being taken, e.g. deliver the
 * approver's callback before our call returns ({@link #whileSubmitting}).
 */
public final class FakeApprovals implements Approvals {

    private final Map<OperationId, String> tickets = new LinkedHashMap<>();
    private final List<ApprovalForm> forms = new ArrayList<>();
    private final List<OperationId> withdrawn = new ArrayList<>();
    private final Deque<RuntimeException> submitFailures = new ArrayDeque<>();
    private int lostAnswers;
    private Consumer<ApprovalForm> whileSubmitting = form -> { };
    private int calls;

    @Override
    public String submit(ApprovalForm form) {
        Consumer<ApprovalForm> hook;
        String ticket;
        boolean lose;
        synchronized (this) {
            calls++;
            if (!submitFailures.isEmpty()) {
                throw submitFailures.pop();
            }
            ticket = tickets.get(form.operationId());
            if (ticket == null) {
                ticket = "APR-" + (tickets.size() + 1);
                tickets.put(form.operationId(), ticket);
                forms.add(form);
            }
            hook = whileSubmitting;
            lose = lostAnswers > 0;
            if (lose) {
                lostAnswers--;
            }
        }
        hook.accept(form);
        if (lose) {
            throw new ExternalCallException("approval", ExternalCallException.Kind.TIMEOUT, 0, "answer lost", null);
        }
        return ticket;
    }

    @Override
    public synchronized void withdraw(OperationId operationId) {
        withdrawn.add(operationId);
    }

    public synchronized void failNextSubmit(RuntimeException failure) {
        submitFailures.add(failure);
    }

    public synchronized void loseNextAnswer() {
        lostAnswers++;
    }

    public synchronized void whileSubmitting(Consumer<ApprovalForm> hook) {
        this.whileSubmitting = hook;
    }

    /** The form the approval system holds for the operation (the first submission). */
    public synchronized Optional<ApprovalForm> formOf(OperationId id) {
        return forms.stream().filter(f -> f.operationId().equals(id)).findFirst();
    }

    public synchronized Optional<String> ticketOf(OperationId id) {
        return Optional.ofNullable(tickets.get(id));
    }

    /** Distinct approvals opened (one per operation however often it was submitted). */
    public synchronized int opened() {
        return forms.size();
    }

    public synchronized int calls() {
        return calls;
    }

    public synchronized List<OperationId> withdrawn() {
        return List.copyOf(withdrawn);
    }
}
