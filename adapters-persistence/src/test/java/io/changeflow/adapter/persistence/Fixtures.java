package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.jooq.Tables.BINDING;
import static io.changeflow.adapter.persistence.jooq.Tables.MERGE_BATCH_REQUEST;
import static io.changeflow.adapter.persistence.jooq.Tables.OPERATION;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.OpenResult;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.domain.PreemptedException;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Builders of rows in a given state, and a race runner with the assertion on its outcomes. */
final class Fixtures {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private Fixtures() {
    }

    /** How many rounds each race test runs (200 by default, as the issue asks; {@code -Drace.rounds=N} for a longer hunt). */
    static int rounds() {
        return Integer.getInteger("race.rounds", 200);
    }

    static OperationId newId() {
        return OperationId.of(UUID.randomUUID().toString());
    }

    static String unique(String prefix) {
        return prefix + "-" + SEQUENCE.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    static ChangeRequest request(String subject, String target) {
        return new ChangeRequest(newId(), "alice", TargetKey.of(target), SubjectId.of(subject), "needed for a test",
                Optional.empty());
    }

    static Operation opened(Operations operations, ChangeRequest request) {
        var result = operations.open(request, StepOrder.APPROVE_FIRST, WorkflowEvent.SUBMITTED_APPROVE_FIRST, "submitted");
        return ((OpenResult.Opened) result).operation();
    }

    /** A fresh request walked to the given events, returned as stored. */
    static Operation walked(Operations operations, ChangeRequest request, WorkflowEvent... events) {
        var op = opened(operations, request);
        for (var event : events) {
            op = operations.apply(op.id(), op.version(), event, StepNote.system(event.name()));
        }
        return op;
    }

    static Operation rejected(Operations operations, String subject, String target) {
        return walked(operations, request(subject, target), WorkflowEvent.APPROVAL_SUBMITTED, WorkflowEvent.APPROVAL_REJECTED);
    }

    static Operation batchWaiting(Operations operations, String subject, String target) {
        return walked(operations, request(subject, target), WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_BATCH);
    }

    static Operation merged(Operations operations, String subject, String target) {
        return walked(operations, request(subject, target), WorkflowEvent.APPROVAL_SUBMITTED,
                WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED);
    }

    /**
     * {@code count} requests waiting in {@code partition} (operation BATCH_WAITING, binding
     * BATCH_WAITING, admitted a second ago), written with multi-row inserts for speed.
     */
    static List<OperationId> bulkWaiting(DSLContext dsl, String partition, int count) {
        var ids = new ArrayList<OperationId>(count);
        for (int from = 0; from < count; from += 1000) {
            var n = Math.min(1000, count - from);
            var ops = dsl.insertInto(OPERATION, OPERATION.ID, OPERATION.REQUESTER, OPERATION.SUBJECT_ID, OPERATION.TARGET_KEY,
                    OPERATION.REASON, OPERATION.STEP_ORDER, OPERATION.STEP, OPERATION.VERSION);
            var bindings = dsl.insertInto(BINDING, BINDING.SUBJECT_ID, BINDING.TARGET_KEY, BINDING.OPERATION_ID,
                    BINDING.STATUS, BINDING.VERSION);
            var requests = dsl.insertInto(MERGE_BATCH_REQUEST, MERGE_BATCH_REQUEST.OPERATION_ID,
                    MERGE_BATCH_REQUEST.PARTITION_KEY, MERGE_BATCH_REQUEST.CREATED_AT);
            for (int i = 0; i < n; i++) {
                var id = newId();
                ids.add(id);
                var subject = "s" + id.value().substring(0, 8) + id.value().substring(9, 13);
                var target = "bulk-" + partition;
                ops = ops.values(id.value(), "bulk", subject, target, "bulk", StepOrder.APPROVE_FIRST.name(),
                        StepStatus.BATCH_WAITING.code(), 3L);
                bindings = bindings.values(subject, target, id.value(), BindingStatus.BATCH_WAITING.name(), 3L);
                requests = requests.values(DSL.val(id.value()), DSL.val(partition), Sql.ago(java.time.Duration.ofSeconds(1)));
            }
            ops.execute();
            bindings.execute();
            requests.execute();
        }
        return ids;
    }

    /** The outcome of one racer: its value or its exception. */
    record Outcome<T>(T value, Throwable failure) {
        boolean failed() {
            return failure != null;
        }
    }

    /**
     * Runs {@code racers} tasks released together by a start gate, each on its own pooled thread
     * (and so on its own connection), and waits for all of them.
     */
    static <T> List<Outcome<T>> race(ExecutorService pool, List<Callable<T>> racers) {
        var ready = new CountDownLatch(racers.size());
        var go = new CountDownLatch(1);
        var futures = new ArrayList<Future<T>>();
        for (var racer : racers) {
            futures.add(pool.submit(() -> {
                ready.countDown();
                go.await();
                return racer.call();
            }));
        }
        try {
            if (!ready.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("racers did not get ready");
            }
            go.countDown();
            var outcomes = new ArrayList<Outcome<T>>();
            for (var f : futures) {
                try {
                    outcomes.add(new Outcome<>(f.get(120, TimeUnit.SECONDS), null));
                } catch (java.util.concurrent.ExecutionException e) {
                    outcomes.add(new Outcome<>(null, e.getCause()));
                }
            }
            return outcomes;
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The operation of the one racer that opened: asserts that exactly one opened and that every other was
     * blocked or lost the race ({@link PreemptedException}).
     */
    static Operation onlyOpened(List<Outcome<OpenResult>> outcomes) {
        var winners = outcomes.stream().filter(o -> o.value() instanceof OpenResult.Opened).toList();
        assertThat(winners).hasSize(1);
        assertThat(outcomes).allMatch(o -> o.value() instanceof OpenResult.Opened
                || o.value() instanceof OpenResult.Blocked || o.failure() instanceof PreemptedException);
        return ((OpenResult.Opened) winners.getFirst().value()).operation();
    }

    static ExecutorService threads(int count) {
        return Executors.newFixedThreadPool(count);
    }
}
