package io.changeflow.application.callback;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.workflow.ClosedAtRest;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.operation.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A GitLab webhook (a pipeline or merge request event, issue 33 item 3) wakes the step waiting on that merge request:
 * its pending run is brought forward to now ({@link WorkQueue#wake}) and it reads GitLab as on any run. An event never
 * decides anything by itself: what it says (a status, a sha) is not read, so a forged, late, repeated or reordered event
 * costs at most one early look. One exception acts, through a step that reads GitLab first: a merge request event
 * {@value #REOPEN} about the merge request of a request that ended unmerged schedules its close (finding S9).
 * Deduplicated by the delivery's key in the durable inbox (source {@value #SOURCE}); an event about a merge request or branch Changeflow does not know is answered and ignored (GitLab disables a project
 * hook whose deliveries keep failing). A lost event changes nothing but the time: the step still polls, more slowly.
 * Design: docs/external-systems-gitlab.md "Webhooks".
 */
public final class WakeOnGitLabEvent {

    /** The inbox source name of GitLab webhook deliveries. */
    public static final String SOURCE = "gitlab";

    /** How long a delivery's key is kept against repeats (GitLab retries within minutes; a person may resend later). */
    public static final Duration RETENTION = Duration.ofDays(7);

    /** The steps that wait on a merge request of a request: the pipeline wait of CREATE, the merge of HANDLE. */
    private static final List<StepKind> REQUEST_STEPS = List.of(StepKind.CREATE, StepKind.HANDLE);

    /**
     * A verified event.
     *
     * @param deliveryKey  the delivery's key against repeats (built by the endpoint from GitLab's headers)
     * @param projects     the names the event gives its project (numeric id and path with namespace), any of them
     *                     may be the one a request recorded
     * @param mergeRequest the merge request's number when the event names one
     * @param branch       the source branch (a merge request event) or the pipeline's ref (a branch pipeline)
     * @param action       a merge request event's {@code object_attributes.action} ({@value #REOPEN}, update, ...)
     */
    public record Command(String deliveryKey, List<String> projects, Optional<Long> mergeRequest, Optional<String> branch,
                          Optional<String> action) {
        public Command {
            Objects.requireNonNull(deliveryKey, "deliveryKey");
            projects = List.copyOf(projects);
            mergeRequest = mergeRequest == null ? Optional.empty() : mergeRequest;
            branch = branch == null ? Optional.empty() : branch;
            action = action == null ? Optional.empty() : action;
        }

        /** An event without an action (a pipeline event). */
        public Command(String deliveryKey, List<String> projects, Optional<Long> mergeRequest, Optional<String> branch) {
            this(deliveryKey, projects, mergeRequest, branch, Optional.empty());
        }
    }

    /** A merge request event's action when a person reopened it ({@code app/services/merge_requests/reopen_service.rb}). */
    public static final String REOPEN = "reopen";

    /** The answer and how many waiting steps this delivery brought forward (a close scheduled counts as one). */
    public record Result(CallbackAnswer answer, int woken) {}

    private record Waiting(StepKind kind, String ref) {}

    private final CallbackInbox inbox;
    private final Operations operations;
    private final WorkQueue queue;

    public WakeOnGitLabEvent(CallbackInbox inbox, Operations operations, WorkQueue queue) {
        this.inbox = inbox;
        this.operations = operations;
        this.queue = queue;
    }

    public Result handle(Command command) {
        return inbox.processOnce(SOURCE, command.deliveryKey(), () -> wake(command),
                () -> new Result(CallbackAnswer.DUPLICATE, 0));
    }

    /** Forgets at most {@code limit} delivery keys older than {@link #RETENTION} (a recurring job). */
    public int forgetOldDeliveries(int limit) {
        return inbox.forgetDeliveries(SOURCE, RETENTION, limit);
    }

    private Result wake(Command command) {
        var waiting = waitingOn(command);
        var woken = (int) waiting.stream().filter(step -> queue.wake(step.kind(), step.ref())).count();
        woken += closeReopened(command);
        return new Result(waiting.isEmpty() ? CallbackAnswer.IGNORED_STALE : CallbackAnswer.PROCESSED, woken);
    }

    /**
     * Finding S9: a merge request a person reopened after its request ended unmerged ({@link ClosedAtRest}) gets its
     * close step scheduled, which reads GitLab first (a forged or late event costs one read and the step's two writes).
     */
    private int closeReopened(Command command) {
        if (!command.action().filter(REOPEN::equals).isPresent() || command.mergeRequest().isEmpty()) {
            return 0;
        }
        var iid = command.mergeRequest().get();
        return (int) command.projects().stream().flatMap(project -> operations.findByMergeRequest(project, iid).stream())
                .filter(ClosedAtRest::holds)
                .filter(op -> !queue.isScheduled(StepKind.CLOSE, op.id().value()))
                .filter(op -> queue.schedule(WorkQueue.Step.first(StepKind.CLOSE, op.id().value()), Duration.ZERO))
                .count();
    }

    /** The steps that may wait on what the event is about: by merge request number, else by Changeflow's branch name. */
    private Set<Waiting> waitingOn(Command command) {
        var steps = new LinkedHashSet<Waiting>();
        var ops = new ArrayList<Operation>();
        command.mergeRequest().ifPresent(iid -> command.projects().forEach(project ->
                ops.addAll(operations.findByMergeRequest(project, iid))));
        if (ops.isEmpty()) {
            command.branch().ifPresent(branch -> {
                MergeRequestTexts.batchOfBranch(branch)
                        .ifPresent(batch -> steps.add(new Waiting(StepKind.BATCH, String.valueOf(batch))));
                MergeRequestTexts.operationOfBranch(branch).ifPresent(id -> operations.findAll(List.of(id)).stream()
                        .filter(op -> inProjects(op, command.projects())).forEach(ops::add));
            });
        }
        for (var op : ops) {
            REQUEST_STEPS.forEach(kind -> steps.add(new Waiting(kind, op.id().value())));
            op.batchId().ifPresent(batch -> steps.add(new Waiting(StepKind.BATCH, String.valueOf(batch))));
        }
        return steps;
    }

    /** A request not yet having its merge request recorded counts for any project (its step reads GitLab anyway). */
    private static boolean inProjects(Operation op, List<String> projects) {
        return op.mergeRequest().map(mr -> projects.contains(mr.project())).orElse(true);
    }
}
