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
 * The approval system in memory. Submitting is idempotent per operationId (same ticket again, with its
 * current status). Tests can queue failures ({@link #failNextSubmit}), make the system take a submission
 * but lose the answer ({@link #loseNextAnswer}), run code while the submission is being taken, e.g.
 * deliver the approver's callback before our call returns ({@link #whileSubmitting}), let an approver
 * decide without a callback ({@link #decide}), forget an approval ({@link #forget}) or go down
 * ({@link #down}: every call fails transiently and nothing changes).
 */
public final class FakeApprovals implements Approvals {

    private final java.util.Map<OperationId, String> deciders = new java.util.HashMap<>();
    private final Map<OperationId, String> tickets = new LinkedHashMap<>();
    private final Map<OperationId, TicketStatus> statuses = new LinkedHashMap<>();
    private final Map<OperationId, String> requestIds = new LinkedHashMap<>();
    private final List<ApprovalForm> forms = new ArrayList<>();
    private final List<OperationId> withdrawn = new ArrayList<>();
    private final Deque<RuntimeException> submitFailures = new ArrayDeque<>();
    private int lostAnswers;
    private Consumer<ApprovalForm> whileSubmitting = form -> { };
    private int calls;
    private int reads;
    private boolean down;

    @Override
    public Ticket submit(ApprovalForm form) {
        Consumer<ApprovalForm> hook;
        boolean lose;
        synchronized (this) {
            calls++;
            failWhenDown();
            if (!submitFailures.isEmpty()) {
                throw submitFailures.pop();
            }
            if (!tickets.containsKey(form.operationId())) {
                tickets.put(form.operationId(), "APR-" + (tickets.size() + 1));
                statuses.put(form.operationId(), TicketStatus.PENDING);
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
        return read(form.operationId(), false);
    }

    @Override
    public synchronized Ticket read(OperationId operationId) {
        reads++;
        return read(operationId, true);
    }

    private synchronized Ticket read(OperationId operationId, boolean checkDown) {
        if (checkDown) {
            failWhenDown();
        }
        var ticket = tickets.get(operationId);
        if (ticket == null) {
            return Ticket.unknown();
        }
        var ext = formOf(operationId).map(ApprovalForm::ext).orElse(Map.of());
        return new Ticket(statuses.get(operationId), Optional.of(ticket), Optional.ofNullable(requestIds.get(operationId)),
                ext, Optional.ofNullable(deciders.get(operationId)));
    }

    @Override
    public synchronized Ticket withdraw(OperationId operationId) {
        failWhenDown();
        withdrawn.add(operationId);
        if (statuses.get(operationId) == TicketStatus.PENDING) {
            statuses.put(operationId, TicketStatus.WITHDRAWN);
            requestIds.put(operationId, "apr-cb-withdrawn-" + tickets.get(operationId));
        }
        return read(operationId, false);
    }

    public synchronized void failNextSubmit(RuntimeException failure) {
        submitFailures.add(failure);
    }

    /** The approval system recovers: the queued submit failures and answers still to be lost are dropped. */
    public synchronized void clearSubmitFailures() {
        submitFailures.clear();
        lostAnswers = 0;
    }

    public synchronized void loseNextAnswer() {
        lostAnswers++;
    }

    public synchronized void whileSubmitting(Consumer<ApprovalForm> hook) {
        this.whileSubmitting = hook;
    }

    /**
     * An approver decides (no callback is sent: the test delivers it, or not).
     *
     * @return the decision callback's requestId
     */
    public synchronized String decide(OperationId id, TicketStatus status) {
        if (!tickets.containsKey(id)) {
            throw new IllegalStateException("no approval for " + id);
        }
        statuses.put(id, status);
        var requestId = "apr-cb-" + tickets.get(id) + "-" + status;
        requestIds.put(id, requestId);
        return requestId;
    }

    /** {@link #decide(OperationId, TicketStatus)} by {@code approver}: the ticket's {@code decidedBy}. */
    public synchronized String decide(OperationId id, TicketStatus status, String approver) {
        var requestId = decide(id, status);
        deciders.put(id, approver);
        return requestId;
    }

    /** The approval system loses its record of the operation (reads answer unknown). */
    public synchronized void forget(OperationId id) {
        tickets.remove(id);
        statuses.remove(id);
        requestIds.remove(id);
        forms.removeIf(f -> f.operationId().equals(id));
    }

    /** Down: every call fails with a transient failure and changes nothing. */
    public synchronized void down(boolean down) {
        this.down = down;
    }

    /** The form the approval system holds for the operation (the first submission). */
    public synchronized Optional<ApprovalForm> formOf(OperationId id) {
        return forms.stream().filter(f -> f.operationId().equals(id)).findFirst();
    }

    public synchronized Optional<String> ticketOf(OperationId id) {
        return Optional.ofNullable(tickets.get(id));
    }

    public synchronized Optional<TicketStatus> statusOf(OperationId id) {
        return Optional.ofNullable(statuses.get(id));
    }

    /** Distinct approvals opened (one per operation however often it was submitted). */
    public synchronized int opened() {
        return forms.size();
    }

    /** Submit calls, failed ones included. */
    public synchronized int calls() {
        return calls;
    }

    /** Read calls, failed ones included. */
    public synchronized int reads() {
        return reads;
    }

    public synchronized List<OperationId> withdrawn() {
        return List.copyOf(withdrawn);
    }

    private void failWhenDown() {
        if (down) {
            throw new ExternalCallException("approval", ExternalCallException.Kind.HTTP_STATUS, 503, "approval system down",
                    null);
        }
    }
}
