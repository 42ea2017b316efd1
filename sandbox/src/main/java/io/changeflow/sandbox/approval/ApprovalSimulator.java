package io.changeflow.sandbox.approval;

import io.changeflow.sandbox.webhook.CallbackControls;
import io.changeflow.sandbox.webhook.SimulatorCallbacks;
import io.changeflow.sandbox.webhook.WebhookSender;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The company approval system, simulated: keeps approval tickets, decides them by itself after a
 * delay ({@link Mode#AUTO}) or through the approver inbox ({@link Mode#MANUAL}), and calls back
 * {@code POST /callbacks/approval} signed per Standard Webhooks. On demand it behaves the way the
 * workflow design must survive: duplicate, late and lost callbacks ({@link #callbacks()} and the
 * {@code approval} fault settings), and a callback delivered before the submit call has returned
 * ({@link #earlyCallbacks(Result)}).
 */
public final class ApprovalSimulator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ApprovalSimulator.class);
    static final String CALLBACK_PATH = "/callbacks/approval";

    /** Who decides. */
    public enum Mode {
        /** The simulator approves every submission after the configured delay. */
        AUTO,
        /** A person decides in the approver inbox. */
        MANUAL
    }

    /** The result a callback carries. */
    public enum Result { APPROVED, REJECTED, WITHDRAWN }

    /** Where a ticket stands. */
    public enum Status {
        /** Waiting for a decision. */
        PENDING,
        /** Approved; the callback said APPROVED. */
        APPROVED,
        /** Rejected; the callback said REJECTED. */
        REJECTED,
        /** Withdrawn by the requester before a decision; the callback said WITHDRAWN. */
        WITHDRAWN
    }

    /** The submitted approval form. {@code expiresAt} is kept as sent (ISO-8601). */
    public record Form(String operationId, String requester, String subject, String target, String reason,
                       String expiresAt, Map<String, String> ext) {

        public Form {
            var fields = new LinkedHashMap<String, String>();
            if (ext != null) {
                ext.forEach((key, value) -> {
                    if (key != null && value != null) {
                        fields.put(key, value);
                    }
                });
            }
            ext = Collections.unmodifiableMap(fields);
        }
    }

    /**
     * A snapshot of one approval ticket.
     *
     * @param requestId the ID the decision's callback carries (set once decided)
     */
    public record Ticket(String ticket, Form form, Status status, Instant createdAt, Instant decidedAt,
                         String decidedBy, String requestId) {}

    /** @param created false when the operationId was known: the existing ticket is returned */
    public record Submitted(Ticket ticket, boolean created) {}

    /** What a decision did. */
    public enum Decision { DECIDED, ALREADY_DECIDED, UNKNOWN_TICKET }

    private final Map<String, Entry> byOperationId = new ConcurrentHashMap<>();
    private final Map<String, Entry> byTicket = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final SimulatorCallbacks callbacks;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Duration autoDelay;
    private volatile Mode mode;
    private volatile Result earlyResult;

    public ApprovalSimulator(ApprovalSimulatorProperties properties, SimulatorCallbacks callbacks, Clock clock) {
        this.mode = properties.mode();
        this.autoDelay = properties.autoDelay();
        this.callbacks = callbacks;
        this.clock = clock;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            var thread = new Thread(runnable, "sandbox-approval-auto");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Opens a ticket, or returns the existing one for the same operationId (a retry after a lost
     * response must not open a second approval). With {@link #earlyCallbacks(Result)} set, a new
     * ticket is decided and its callback delivered before this method returns.
     */
    public Submitted submit(Form form) {
        var created = new boolean[1];
        var entry = byOperationId.computeIfAbsent(form.operationId(), id -> {
            created[0] = true;
            var ticket = "APR-%06d".formatted(sequence.incrementAndGet());
            var fresh = new Entry(ticket, form, clock.instant());
            byTicket.put(ticket, fresh);
            return fresh;
        });
        if (created[0]) {
            log.info("approval ticket {} opened for operation {}", entry.ticket, form.operationId());
            var early = earlyResult;
            if (early != null) {
                decide(entry, early, "early-approver", true);
            } else if (mode == Mode.AUTO) {
                scheduleAuto(entry);
            }
        }
        return new Submitted(entry.snapshot(), created[0]);
    }

    /** Withdraws a pending ticket (and calls back WITHDRAWN); a decided one is returned unchanged. */
    public Optional<Ticket> withdraw(String operationId) {
        var entry = byOperationId.get(operationId);
        if (entry == null) {
            return Optional.empty();
        }
        decide(entry, Result.WITHDRAWN, "requester", false);
        return Optional.of(entry.snapshot());
    }

    /** The approver's decision on a ticket; the callback follows on the delivery executor. */
    public Decision decide(String ticket, boolean approve, String decidedBy) {
        var entry = byTicket.get(ticket);
        if (entry == null) {
            return Decision.UNKNOWN_TICKET;
        }
        return decide(entry, approve ? Result.APPROVED : Result.REJECTED, decidedBy, false)
                ? Decision.DECIDED : Decision.ALREADY_DECIDED;
    }

    public Optional<Ticket> byOperationId(String operationId) {
        return Optional.ofNullable(byOperationId.get(operationId)).map(Entry::snapshot);
    }

    public Optional<Ticket> byTicket(String ticket) {
        return Optional.ofNullable(byTicket.get(ticket)).map(Entry::snapshot);
    }

    /** Pending tickets, oldest first (the approver inbox). */
    public List<Ticket> pending() {
        return byTicket.values().stream()
                .map(Entry::snapshot)
                .filter(t -> t.status() == Status.PENDING)
                .sorted(Comparator.comparing(Ticket::ticket))
                .toList();
    }

    public Mode mode() {
        return mode;
    }

    /** Switches the mode at runtime; switching to auto schedules the pending tickets. */
    public void mode(Mode newMode) {
        var previous = mode;
        mode = newMode;
        if (newMode == Mode.AUTO && previous != Mode.AUTO) {
            byTicket.values().forEach(this::scheduleAuto);
        }
    }

    /** The result new tickets get immediately, called back before the submit call answers; empty when off. */
    public Optional<Result> earlyCallbacks() {
        return Optional.ofNullable(earlyResult);
    }

    /**
     * Decide every new ticket synchronously with {@code result} and deliver its callback before
     * the submit call answers ({@code null} switches it off). Exercises callbacks that arrive
     * while the caller has not yet recorded that it sent the approval.
     */
    public void earlyCallbacks(Result result) {
        if (result == Result.WITHDRAWN) {
            throw new IllegalArgumentException("an early decision approves or rejects");
        }
        earlyResult = result;
    }

    /** One-shot controls of the outgoing callbacks: lose, duplicate or delay the next ones. */
    public CallbackControls callbacks() {
        return callbacks.controls();
    }

    /** The delivery log of the callbacks. */
    public List<WebhookSender.Attempt> deliveries() {
        return callbacks.attempts();
    }

    /** Forgets every ticket and control (tests); the configured mode stays as it is now. */
    public void reset() {
        byOperationId.clear();
        byTicket.clear();
        callbacks.controls().reset();
        earlyResult = null;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        callbacks.close();
    }

    private void scheduleAuto(Entry entry) {
        scheduler.schedule(() -> {
            if (mode == Mode.AUTO) {
                decide(entry, Result.APPROVED, "auto-approver", false);
            }
        }, autoDelay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private boolean decide(Entry entry, Result result, String decidedBy, boolean synchronous) {
        var requestId = "apr-cb-" + UUID.randomUUID();
        if (!entry.decide(result, decidedBy, requestId, clock.instant())) {
            return false;
        }
        log.info("approval ticket {} {} by {}", entry.ticket, result, decidedBy);
        var body = new LinkedHashMap<String, Object>();
        body.put("requestId", requestId);
        body.put("operationId", entry.form.operationId());
        body.put("result", result.name());
        body.put("ext", entry.form.ext());
        // who decided, as the ticket's decidedBy says (docs/external-systems-approval.md): Changeflow checks it
        body.put("decidedBy", decidedBy);
        if (synchronous) {
            callbacks.sendNow(CALLBACK_PATH, body);
            return true;
        }
        var plan = callbacks.next();
        if (plan.lost()) {
            log.info("approval callback {} for ticket {} is lost on purpose", requestId, entry.ticket);
            return true;
        }
        callbacks.send(CALLBACK_PATH, body, Duration.ZERO, plan);
        return true;
    }

    /** Mutable state of one ticket; guarded by its own monitor. */
    private static final class Entry {
        final String ticket;
        final Form form;
        final Instant createdAt;
        Status status = Status.PENDING;
        Instant decidedAt;
        String decidedBy;
        String requestId;

        Entry(String ticket, Form form, Instant createdAt) {
            this.ticket = ticket;
            this.form = form;
            this.createdAt = createdAt;
        }

        synchronized boolean decide(Result result, String by, String callbackId, Instant at) {
            if (status != Status.PENDING) {
                return false;
            }
            status = Status.valueOf(result.name());
            decidedBy = by;
            requestId = callbackId;
            decidedAt = at;
            return true;
        }

        synchronized Ticket snapshot() {
            return new Ticket(ticket, form, status, createdAt, decidedAt, decidedBy, requestId);
        }
    }
}
