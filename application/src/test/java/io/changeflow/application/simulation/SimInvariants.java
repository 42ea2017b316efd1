package io.changeflow.application.simulation;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.recovery.FindOverdueRequests;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.HistoryEntry;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.StepStatus;
import io.changeflow.domain.state.Transition;
import io.changeflow.domain.state.Transitions;
import io.changeflow.domain.state.WorkflowState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The invariants checked after every action of a {@link SimWorld}. Safety: {@link #TABLE}, {@link #OWN_PIPELINE},
 * {@link #ONE_MERGE_REQUEST} (the access invariant: {@link SimAccess}); liveness
 * {@link #LIVENESS} once the world is quiet. Each check answers the violations it found, as text for a person.
 */
final class SimInvariants {

    /** Every state write follows the transition table. */
    static final String TABLE = "every write follows the transition table";
    /** This service merges a head only when that head's own pipeline passed. */
    static final String OWN_PIPELINE = "nothing merged unless the merged head's own pipeline passed";
    /** At most one open or merged merge request per request. */
    static final String ONE_MERGE_REQUEST = "one merge request per request";
    /**
     * Once quiet, every wait that is not a person's ends within its own deadline, and every request ends terminal or in
     * a state a person owns.
     */
    static final String LIVENESS = "every request reaches a terminal or person-owned state once the world is quiet";
    /** The per-wait deadline of BATCH_WAITING once quiet (finding S6, docs/reliability.md), named apart. */
    static final String BATCH_WAITING_PAST_DEADLINE = LIVENESS + " (BATCH_WAITING within its deadline)";
    /**
     * Once quiet, no step keeps coming due for good: the quiet world settles within {@link Simulation#MAX_QUIET_TICKS}
     * ticks (a step retried without bound would keep it busy to the end).
     */
    static final String BOUNDED_RETRIES = "no step is retried without bound once the world is quiet";
    /** At rest, no merge request is left open for a request that ended or that no request owns. */
    static final String NO_ORPHAN_MERGE_REQUEST = "no merge request left open without a request at rest";
    /**
     * Reported, not asserted: a merge request left open at rest by a request whose close this service gave up on
     * (CLOSE_GAVE_UP: GitLab refused the closes past the transient deadline, a person was told with an ERROR line).
     */
    static final String MERGE_REQUEST_LEFT_TO_A_PERSON = "a merge request left open for a person to close";
    /**
     * Asserted since finding S9 was fixed (docs/reliability.md), a case of {@link #NO_ORPHAN_MERGE_REQUEST} named apart: a
     * merge request a person reopened on GitLab after this service (or a person) had closed it, whose request has ended,
     * is closed again by the failed-close job.
     */
    static final String MERGE_REQUEST_REOPENED_BY_A_PERSON = NO_ORPHAN_MERGE_REQUEST
            + " (a merge request a person reopened after its request ended)";
    /** A step the harness saw throw an IllegalTransitionException: the product tried a write the table refuses. */
    static final String REFUSED_WRITE = "no use case attempts a write the table refuses";

    private static final Set<BindingStatus> ENDED = EnumSet.of(BindingStatus.EXPIRED, BindingStatus.REVOKED,
            BindingStatus.REJECTED, BindingStatus.CLOSED);

    /** The default duration of each deadline of {@link Convergence}. */
    static final FindOverdueRequests.Deadlines DEADLINES = FindOverdueRequests.Deadlines.defaults();
    /** Beyond a wait's deadline: the recurring jobs of the quiet world run every 5 minutes; two of their periods. */
    static final Duration DEADLINE_GRACE = Duration.ofMinutes(10);

    private final Map<String, Integer> historySeen = new HashMap<>();
    /** Per request in a wait that is not a person's: that state and when the quiet world first saw it there. */
    private final Map<String, Seen> waitingSince = new HashMap<>();
    private final Set<String> mergesChecked = new HashSet<>();
    /** The state writes seen since the last {@link #drainWrites}, for the trace. */
    private final List<String> writes = new ArrayList<>();

    /** The violations of the safety invariants after the latest action, as "invariant: detail". */
    List<Violation> afterAction(SimWorld world) {
        var found = new ArrayList<Violation>();
        var app = world.app;
        for (var op : app.operations.all()) {
            var history = app.operations.history(op.id());
            var seen = historySeen.getOrDefault(op.id().value(), 0);
            for (var entry : history.subList(seen, history.size())) {
                world.stats.took(entry);
                writes.add(op.id().value().substring(24) + " " + entry.event() + " " + entry.fromBinding().map(Enum::name)
                        .orElse("-") + "/" + entry.fromStep().map(Enum::name).orElse("-") + " -> "
                        + entry.toBinding().map(Enum::name).orElse("-") + "/" + entry.toStep());
                if (!followsTable(op, entry)) {
                    found.add(new Violation(TABLE, op.id() + " " + entry.event() + " " + entry.fromBinding() + "/"
                            + entry.fromStep() + " -> " + entry.toBinding() + "/" + entry.toStep()));
                }
            }
            historySeen.put(op.id().value(), history.size());
            var branch = MergeRequestTexts.branchOf(op.id());
            var mine = app.gitlab.mergeRequestsOf(FakeTargets.PROJECT).stream()
                    .filter(iid -> app.gitlab.find(FakeTargets.PROJECT, iid)
                            .filter(mr -> mr.sourceBranch().equals(branch) && mr.state() != MergeRequestState.CLOSED).isPresent())
                    .toList();
            if (mine.size() > 1) {
                found.add(new Violation(ONE_MERGE_REQUEST, op.id() + " has open or merged merge requests " + mine));
            }
        }
        for (var iid : world.mergeRequestsIn(MergeRequestState.MERGED)) {
            var ref = FakeTargets.PROJECT + "!" + iid;
            if (world.mergedByPerson.contains(ref) || !mergesChecked.add(ref)) {
                continue;
            }
            var head = app.gitlab.headSha(FakeTargets.PROJECT, iid);
            var pipeline = app.gitlab.pipelineNow(FakeTargets.PROJECT, iid);
            if (pipeline.filter(p -> p.ranFor(head) && p.status() == PipelineStatus.PASSED).isEmpty()) {
                found.add(new Violation(OWN_PIPELINE, ref + " merged at head " + head + " whose pipeline is "
                        + pipeline.map(p -> p.status() + " of " + p.sha()).orElse("none")));
            }
        }
        return found;
    }

    /** The state writes seen since the previous call. */
    List<String> drainWrites() {
        var drained = List.copyOf(writes);
        writes.clear();
        return drained;
    }

    /**
     * Liveness against each wait's own deadline, once the world is quiet: a request in a wait that is not a person's
     * (a step of this service, the approver, a pipeline, the deploy pipeline) leaves it within that wait's deadline
     * ({@link Convergence}, durations as configured by default: {@link FindOverdueRequests.Deadlines#DEFAULTS}) and
     * {@link #DEADLINE_GRACE}, counted from when the quiet world first saw it there. Call once per quiet tick.
     */
    List<Violation> pastDeadline(SimWorld world) {
        var found = new ArrayList<Violation>();
        var now = world.app.clock.instant();
        for (var op : world.app.operations.all()) {
            var wait = Convergence.standard().of(op.state()).filter(w -> !w.ownedByPerson());
            if (wait.isEmpty()) {
                waitingSince.remove(op.id().value());
                continue;
            }
            var seen = waitingSince.get(op.id().value());
            if (seen == null || !seen.state().equals(op.state())) {
                waitingSince.put(op.id().value(), new Seen(op.state(), now));
                continue;
            }
            var deadline = wait.get().deadline().orElseThrow();
            var due = seen.since().plus(DEADLINES.of(deadline)).plus(DEADLINE_GRACE);
            if (now.isAfter(due)) {
                var name = op.binding().equals(java.util.Optional.of(BindingStatus.BATCH_WAITING)) ? BATCH_WAITING_PAST_DEADLINE : LIVENESS;
                found.add(new Violation(name, op.id() + " still " + op.binding().map(Enum::name).orElse("detached") + "/" + op.step()
                        + " waiting on " + wait.get().owner() + " since " + seen.since() + ", past its " + deadline
                        + " deadline (" + DEADLINES.of(deadline) + ") and " + DEADLINE_GRACE + " of grace"));
            }
        }
        return found;
    }

    private record Seen(WorkflowState state, Instant since) {}

    /** At rest: every open merge request from a request's branch belongs to a request still under way. */
    List<Violation> orphans(SimWorld world) {
        var found = new ArrayList<Violation>();
        var app = world.app;
        for (var iid : world.openMergeRequests()) {
            var source = app.gitlab.find(FakeTargets.PROJECT, iid).orElseThrow().sourceBranch();
            var owner = app.operations.all().stream().filter(op -> MergeRequestTexts.branchOf(op.id()).equals(source)).findFirst();
            var batch = source.startsWith(MergeRequestTexts.batchBranchOf(0).replaceAll("0$", ""));
            if (!batch && owner.flatMap(Operation::binding).map(b -> ENDED.contains(b) || b == BindingStatus.VALIDATED)
                    .orElse(true)) {
                var state = owner.map(op -> op.binding().map(Enum::name).orElse("detached")).orElse("unknown");
                var story = owner.map(op -> " at " + op.step() + "; its last writes: " + app.operations.history(op.id()).stream()
                        .skip(Math.max(0, app.operations.history(op.id()).size() - 4))
                        .map(e -> e.event() + " -> " + e.toStep() + "/" + e.toBinding().map(Enum::name).orElse("detached"))
                        .toList()).orElse("");
                var personal = owner.flatMap(op -> Convergence.standard().of(op.state())).filter(Convergence.Wait::ownedByPerson);
                var name = personal.isPresent() ? MERGE_REQUEST_LEFT_TO_A_PERSON
                        : world.operations.reopened.contains(iid) ? MERGE_REQUEST_REOPENED_BY_A_PERSON : NO_ORPHAN_MERGE_REQUEST;
                found.add(new Violation(name
                        + " (request " + state + ")",
                        "!" + iid + " from " + source + " is open while its request is " + state + story));
            }
        }
        return found;
    }

    /** After the quiet phase: every operation terminal, detached, or waiting on a person. */
    List<Violation> liveness(SimWorld world) {
        var found = new ArrayList<Violation>();
        for (var op : world.app.operations.all()) {
            var wait = Convergence.standard().of(op.state());
            if (wait.isPresent() && !wait.get().ownedByPerson()) {
                found.add(new Violation(LIVENESS, op.id() + " still " + op.binding().map(Enum::name).orElse("detached") + "/" + op.step()
                        + " waiting on " + wait.get().owner() + " (" + wait.get().deadline().orElseThrow() + ")"));
            }
        }
        return found;
    }

    private static boolean followsTable(Operation op, HistoryEntry entry) {
        if (entry.toBinding().isEmpty() && entry.fromBinding().isPresent()) {
            // the record of an operation handing its row over (to an opening that replaces it, or back to the grant a
            // renewal replaced): it keeps its step and owns no row; the other operation's entry is checked on its own
            return entry.fromStep().equals(Optional.of(entry.toStep()));
        }
        if (entry.fromStep().isEmpty()) {
            // an opening: the step of the row's previous owner is not in the entry; some step of it must allow it
            if (entry.fromBinding().isEmpty()) {
                return Transitions.check(entry.event()) instanceof Transition.Moved moved && lands(moved, entry);
            }
            for (var step : StepStatus.values()) {
                for (var kind : ChangeKind.values()) {
                    if (Transitions.check(new WorkflowState(step, entry.fromBinding(), kind), entry.event())
                            instanceof Transition.Moved moved && lands(moved, entry)) {
                        return true;
                    }
                }
            }
            return false;
        }
        var from = new WorkflowState(entry.fromStep().get(), entry.fromBinding(), op.kind());
        return Transitions.check(from, entry.event()) instanceof Transition.Moved moved && lands(moved, entry);
    }

    private static boolean lands(Transition.Moved moved, HistoryEntry entry) {
        return moved.step() == entry.toStep() && moved.binding().equals(entry.toBinding());
    }

    /** One violated invariant and what shows it. */
    record Violation(String invariant, String detail) {
        @Override
        public String toString() {
            return invariant + ": " + detail;
        }
    }
}
