package io.changeflow.application.callback;

import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Operations.StepNote;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.WorkflowEvent;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The deploy pipeline's report that a merge request is in effect ({@value #SUCCESS}) or failed
 * ({@value #FAILED}): deduplicated by its {@code webhook-id}, stored, then the requests it covers advance
 * through {@link MarkDeployed}. A report covers only operations merged by the merge request it names:
 * listed IDs of other operations are ignored and counted ({@link Result#ignored()}), so the text a
 * requester controls in a description can never make a report claim someone else's change.
 * <p>
 * Issue 37: a report may instead name a commit of the default branch (a deploy of main at a commit). It then covers
 * the requests waiting for their report whose merge put a commit that is that commit or one of its ancestors (read
 * from GitLab, never from the report), considered in merge order, at most {@value #MAX_AT_COMMIT} of them per report.
 * Design: docs/workflow.md.
 */
public final class HandleDeployCallback {

    /** The inbox source name of deploy callbacks. */
    public static final String SOURCE = "deploy";
    /** The only status that means "in effect". */
    public static final String SUCCESS = CallbackInbox.IN_EFFECT;
    /** The status that means "rolling the change out failed". */
    public static final String FAILED = "failed";

    /**
     * How many requests waiting for their deploy report one report for a commit considers, oldest merge first; more
     * wait for the next report, reconciliation or the deploy deadline. Each costs at most one GitLab read.
     */
    public static final int MAX_AT_COMMIT = 100;

    private static final System.Logger LOG = System.getLogger(HandleDeployCallback.class.getName());

    /**
     * A verified deploy report: of a merge request ({@code mrIid}), or of the default branch at a commit
     * ({@code commit}; {@code mrIid} 0 then).
     *
     * @param deliveryId   the delivery's own ID ({@code webhook-id})
     * @param ref          the branch the pipeline names for a commit, as sent (for the notes only)
     * @param commit       the deployed commit's sha, for a report of the default branch at a commit
     * @param operationIds as sent (untrusted); empty when the pipeline does not name them
     */
    public record Command(String deliveryId, String projectId, long mrIid, Optional<String> ref, Optional<String> commit,
                          String status, List<String> operationIds) {
        public Command {
            Objects.requireNonNull(deliveryId, "deliveryId");
            Objects.requireNonNull(projectId, "projectId");
            ref = ref == null ? Optional.empty() : ref;
            commit = commit == null ? Optional.empty() : commit;
            operationIds = operationIds == null ? List.of() : List.copyOf(operationIds);
        }

        /** A report of merge request {@code mrIid}. */
        public Command(String deliveryId, String projectId, long mrIid, String status, List<String> operationIds) {
            this(deliveryId, projectId, mrIid, Optional.empty(), Optional.empty(), status, operationIds);
        }

        /** A report of the default branch ({@code ref} as sent, may be empty) at commit {@code sha}. */
        public static Command atCommit(String deliveryId, String projectId, Optional<String> ref, String sha, String status,
                                       List<String> operationIds) {
            return new Command(deliveryId, projectId, 0, ref, Optional.of(sha), status, operationIds);
        }

        /** What the report is about, for notes and logs: "merge request !12" or "main at commit abc". */
        String about() {
            return commit.map(sha -> ref.orElse("the default branch") + " at commit " + sha)
                    .orElseGet(() -> "merge request !" + mrIid);
        }
    }

    /**
     * The answer, how many requests this delivery moved to "in effect", and how many of the IDs it listed
     * were ignored because they are not operations of the reported merge request.
     */
    public record Result(CallbackAnswer answer, int advanced, int ignored) {
        public Result(CallbackAnswer answer, int advanced) {
            this(answer, advanced, 0);
        }
    }

    /**
     * The operations the report covers, how many listed IDs did not belong, and the number of the merge request of the
     * last of what it is about (in merge order for a commit).
     */
    private record Covered(List<Operation> operations, int ignored, Optional<Long> latestMergeRequest) {
        List<OperationId> ids() {
            return operations.stream().map(Operation::id).toList();
        }
    }

    private final CallbackInbox inbox;
    private final Operations operations;
    private final MergeRequests gitlab;
    private final MarkDeployed markDeployed;
    private final StateChanges changes;

    public HandleDeployCallback(CallbackInbox inbox, Operations operations, MergeRequests gitlab, MarkDeployed markDeployed,
                                StateChanges changes) {
        this.inbox = inbox;
        this.operations = operations;
        this.gitlab = gitlab;
        this.markDeployed = markDeployed;
        this.changes = changes;
    }

    public Result handle(Command command) {
        return inbox.processOnce(SOURCE, command.deliveryId(), () -> process(command), () -> redelivered(command));
    }

    private Result process(Command command) {
        var status = statusOf(command);
        if (!SUCCESS.equals(status) && !FAILED.equals(status)) {
            LOG.log(Level.WARNING, () -> "deploy of " + command.about() + " reported a status other than "
                    + SUCCESS + " or " + FAILED + "; nothing advances");
            // a report about a commit asks GitLab nothing for a status that moves nothing
            return new Result(CallbackAnswer.PROCESSED, 0, command.commit().isPresent() ? 0 : covered(command).ignored());
        }
        var covered = covered(command);
        if (FAILED.equals(status)) {
            var note = new StepNote("Deploy failed: the deploy pipeline reported that rolling out " + command.about()
                    + " failed; the change is not live.", SOURCE);
            var failed = covered.ids().stream()
                    .filter(id -> changes.applyIfAllowed(id, WorkflowEvent.DEPLOY_REPORTED_FAILED, note).isPresent()).count();
            LOG.log(Level.WARNING, () -> "deploy of " + command.about() + " reported failed; "
                    + failed + " request(s) marked DEPLOY_FAILED");
            return new Result(CallbackAnswer.PROCESSED, 0, covered.ignored());
        }
        record(command, covered);
        var note = new StepNote("In effect: the deploy pipeline reported " + command.about()
                + (command.commit().isPresent() ? ", which holds this request's merge." : "."), SOURCE);
        var advanced = (int) covered.ids().stream().filter(id -> markDeployed.markDeployed(id, note).isPresent()).count();
        return new Result(CallbackAnswer.PROCESSED, advanced, covered.ignored());
    }

    /** A repeat: a success report is applied again to the requests of the reported merge request still waiting. */
    private Result redelivered(Command command) {
        var status = statusOf(command);
        if (!SUCCESS.equals(status)) {
            return new Result(CallbackAnswer.DUPLICATE, 0);
        }
        var covered = covered(command);
        record(command, covered);
        var waiting = covered.operations();
        var note = new StepNote("In effect: the deploy pipeline reported " + command.about()
                + " (a repeated delivery; the first one was recorded but not applied).", SOURCE);
        // pinned to the version read: a request that moved on meanwhile is never overwritten
        var advanced = (int) waiting.stream().filter(op -> markDeployed.markDeployed(op, note).isPresent()).count();
        if (advanced > 0) {
            LOG.log(Level.WARNING, () -> "deploy report " + command.deliveryId() + " was recorded but not applied (the"
                    + " instance stopped in between); its repeated delivery moved " + advanced + " request(s) to in effect");
        }
        return new Result(CallbackAnswer.DUPLICATE, advanced, covered.ignored());
    }

    /** The report's status as compared: trimmed, lower case, "" when absent. */
    private static String statusOf(Command command) {
        return Optional.ofNullable(command.status()).orElse("").trim().toLowerCase(Locale.ROOT);
    }

    /** The distinct IDs the report lists, as sent. */
    private static List<String> listed(Command command) {
        return command.operationIds().stream().distinct().toList();
    }

    /**
     * Stores a success report for reconciliation. A report of a merge request names its operations only when it lists
     * any; a report of a commit is stored as a report of the latest merge request it covers (in merge order) naming
     * exactly the operations it covers (exact evidence; nothing when it covers none).
     */
    private void record(Command command, Covered covered) {
        if (command.commit().isEmpty()) {
            inbox.recordDeploy(command.deliveryId(), command.projectId(), command.mrIid(), SUCCESS,
                    listed(command).isEmpty() ? List.of() : covered.ids());
            return;
        }
        covered.latestMergeRequest().ifPresent(iid ->
                inbox.recordDeploy(command.deliveryId(), command.projectId(), iid, SUCCESS, covered.ids()));
    }

    /**
     * The operations a report covers: those of its merge request, or those merged into its commit (read back, never
     * taken from the report), narrowed to the IDs it lists when it lists any. A listed ID that is not one of them is
     * ignored and counted.
     */
    private Covered covered(Command command) {
        var of = command.commit().isPresent()
                ? mergedInto(command.projectId(), command.commit().get())
                : operations.findByMergeRequest(command.projectId(), command.mrIid());
        var latest = of.stream().flatMap(op -> op.mergeRequest().stream()).reduce((first, second) -> second)
                .map(mr -> mr.iid());
        var listed = listed(command);
        if (listed.isEmpty()) {
            return new Covered(of, 0, latest);
        }
        var wanted = listed.stream().map(OperationId::parse).flatMap(Optional::stream).collect(Collectors.toSet());
        var belonging = of.stream().filter(op -> wanted.contains(op.id())).toList();
        return new Covered(belonging, listed.size() - belonging.size(), latest);
    }

    /**
     * Issue 37: the requests waiting for their deploy report whose merge put {@code sha} or one of its ancestors on the
     * default branch, in merge order. A merge whose commit is not recorded (merged before it was recorded) has it read
     * from GitLab and recorded; each other commit costs one GitLab read (merge base), once per report.
     *
     * @throws io.changeflow.application.port.out.ExternalCallException GitLab could not be asked: the report is not
     *                                                                  processed, so its sender retries
     */
    private List<Operation> mergedInto(String project, String sha) {
        var contains = new HashMap<String, Boolean>();
        var merged = new ArrayList<Operation>();
        for (var candidate : operations.mergedAwaitingDeploy(project, MAX_AT_COMMIT)) {
            var mr = candidate.operation().mergeRequest().orElseThrow();
            var commit = candidate.mergedCommit().or(() -> {
                var read = gitlab.mergedCommit(mr.project(), mr.iid());
                read.ifPresent(found -> operations.recordMergedCommit(mr, found));
                return read;
            });
            if (commit.isPresent() && contains.computeIfAbsent(commit.get(),
                    c -> c.equalsIgnoreCase(sha) || gitlab.isAncestor(project, c, sha))) {
                merged.add(candidate.operation());
            }
        }
        return merged;
    }
}
