package io.changeflow.application.simulation;

import io.changeflow.application.drift.DetectDrift;
import io.changeflow.application.simulation.SimInvariants.Violation;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The access invariant of the simulated world (issue 30; the access-truth invariant of issue 36, docs/workflow.md "The
 * access invariant"), asserted after every action: every line on main belongs to the grant in effect, or to a change
 * under way (an approved grant not confirmed yet, the grant a renewal replaces, the grant a removal takes out) whose
 * state has an owner in {@link Convergence}; any other line, and a grant in effect without its line, is a <em>stray</em>,
 * allowed only
 * <ul>
 *   <li>within the <b>detection window</b>: until a run of drift detection ({@link DetectDrift}) that read every target's
 *   file after the stray appeared, with the subject's row written at least {@code changeflow.drift.settle} (30 s)
 *   before the read (the product leaves a row written later for the next run; in production a run comes every
 *   {@code changeflow.drift.interval}, 5 min; in the script, when the seed runs the job);</li>
 *   <li>afterwards, while an active drift item is about it: a line nobody approved or of an ended grant, on a target
 *   whose drift setting removes, is REMOVING through a removal under way (then the line is a change under way again), or
 *   OPEN while the subject's row is held by a request under way (the removal waits for it, {@code RemoveDriftLine});
 *   an edited line, a missing line or a report-only target's line is the item of an operator (a person's move, like
 *   CONTACT_MAINTAINERS).</li>
 * </ul>
 * An item REMOVING whose removal ended while the line is still on main is a violation: nothing would take the line out.
 * At rest (after the quiet phase) no stray may be left for the service: each is an operator's item, or waits for a row
 * a person holds.
 */
final class SimAccess {

    static final String ACCESS = "every line on main belongs to a grant in effect, a change under way, or a drift item";
    static final String ACCESS_AT_REST = "at rest, main holds only grants in effect and strays a person owns";

    /** The statuses after which a row holds no grant and no change under way. */
    private static final Set<BindingStatus> ENDED = Set.of(BindingStatus.EXPIRED, BindingStatus.REVOKED,
            BindingStatus.REJECTED, BindingStatus.CLOSED);

    /** The strays a clean detection run saw settled: from then on each must have its drift item. */
    private final Set<String> covered = new HashSet<>();
    /** Violations found by the postcondition of a detection run, returned by the next {@link #afterAction}. */
    private final List<Violation> pending = new ArrayList<>();
    /** How many detection runs read every target's file (clean runs). */
    int cleanRuns;

    /**
     * One line of main the records do not account for (or, {@code missing}, the line a grant in effect lacks).
     *
     * @param row the subject's row on the target, when there is one
     */
    record Stray(TargetKey target, SubjectId subject, String line, String why, Optional<Binding> row, boolean missing) {

        String key() {
            return target.value() + "|" + subject.value() + "|" + line + (missing ? "|missing" : "");
        }

        @Override
        public String toString() {
            return subject.value() + " on " + target.value() + (missing ? " lacks the line '" : ": '") + line + "' ("
                    + why + ")";
        }
    }

    /** The strays of main now; a line of a change under way whose state has no owner is added to {@code found}. */
    static List<Stray> strays(SimWorld world, List<Violation> found) {
        var app = world.app;
        var strays = new ArrayList<Stray>();
        for (var target : SimWorld.TARGETS) {
            var path = app.targets.find(target).orElseThrow().filePath();
            var file = app.gitlab.fileOn(io.changeflow.application.fake.FakeTargets.PROJECT, "main", path)
                    .map(c -> GrantFile.parse(target, c)).orElse(GrantFile.missing(target));
            for (var name : SimWorld.SUBJECTS) {
                var subject = SubjectId.of(name);
                var row = app.operations.binding(subject, target);
                var owner = row.flatMap(r -> app.operations.find(r.operationId()));
                var line = file.grantOf(subject);
                var status = row.map(Binding::status);
                if (status.equals(Optional.of(BindingStatus.VALIDATED)) || status.equals(Optional.of(BindingStatus.REMOVAL_REJECTED))) {
                    var held = status.get() == BindingStatus.VALIDATED ? Optional.of(Grant.of(owner.orElseThrow().request()))
                            : owner.flatMap(Operation::removedLine);
                    if (held.isPresent() && line.isEmpty()) {
                        strays.add(new Stray(target, subject, held.get().line(), "the grant in effect has no line", row, true));
                    } else if (held.isPresent() && !same(line.get(), held.get())) {
                        strays.add(new Stray(target, subject, line.get().line(), "the grant in effect is '"
                                + held.get().line() + "'", row, false));
                    }
                    continue;
                }
                if (line.isEmpty()) {
                    continue;
                }
                if (row.isEmpty() || ENDED.contains(status.get())) {
                    strays.add(new Stray(target, subject, line.get().line(), status.map(s -> "a line while " + s)
                            .orElse("no request of the records"), row, false));
                    continue;
                }
                var op = owner.orElseThrow();
                var lineOp = line.get().operationId();
                var inFlight = op.removes().equals(Optional.of(lineOp))
                        || !op.kind().removes() && op.id().equals(lineOp) && approved(status.get(), op.order());
                if (!inFlight) {
                    strays.add(new Stray(target, subject, line.get().line(), "not the line of " + op.id() + ", "
                            + status.get() + ", under way", row, false));
                } else if (Convergence.standard().of(op.state()).isEmpty()) {
                    found.add(new Violation(ACCESS + " (a change under way without an owner)", subject.value() + " on "
                            + target.value() + ": '" + line.get().line() + "' of " + op.id() + " at " + op.state()));
                }
            }
        }
        return strays;
    }

    /**
     * Whether a grant request at {@code status} was approved (its line may be merged any moment): docs/workflow.md,
     * "Drift detection", the in-flight states.
     */
    private static boolean approved(BindingStatus status, StepOrder order) {
        return switch (status) {
            case APPROVAL_SENDING, APPROVAL_SENT, APPROVAL_FAILED -> false;
            case MR_CREATING, MR_CREATED, CREATE_FAILED -> order == StepOrder.APPROVE_FIRST;
            default -> true;
        };
    }

    private static boolean same(Grant a, Grant b) {
        return a.subject().equals(b.subject()) && a.operationId().equals(b.operationId())
                && a.until().map(SimAccess::millis).equals(b.until().map(SimAccess::millis));
    }

    private static Instant millis(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }

    /** The active drift item about {@code stray}, if any. */
    private static Optional<DriftItem> itemOf(SimWorld world, Stray stray) {
        return world.drifts.activeOn(stray.target()).stream()
                .filter(i -> i.subject().equals(Optional.of(stray.subject())) && i.line().equals(stray.line())
                        && (i.kind() == DriftKind.MISSING_LINE) == stray.missing())
                .findFirst();
    }

    /** Whether the removal of {@code stray}'s line waits for a request holding the subject's row. */
    private static boolean rowHeld(Stray stray) {
        return stray.row().filter(r -> !r.status().isReappliable()).isPresent();
    }

    /** Whether drift handling takes {@code item}'s line out by itself on its target. */
    private static boolean removedByTheService(SimWorld world, DriftItem item) {
        return item.kind().removable() && world.app.targets.find(item.target()).orElseThrow().drift().removes();
    }

    /** The violations of the access invariant after the latest action. */
    List<Violation> afterAction(SimWorld world) {
        var found = new ArrayList<>(pending);
        pending.clear();
        var strays = strays(world, found);
        var now = new HashSet<String>();
        strays.forEach(s -> now.add(s.key()));
        covered.retainAll(now);
        for (var stray : strays) {
            if (!covered.contains(stray.key())) {
                continue;
            }
            var item = itemOf(world, stray);
            if (item.isEmpty()) {
                found.add(new Violation(ACCESS + " (a stray a detection run saw has no drift item)", stray.toString()));
            } else if (item.get().status() == DriftStatus.REMOVING) {
                var removal = item.get().removal().flatMap(world.app.operations::find);
                found.add(new Violation(ACCESS + " (REMOVING while no removal takes the line out)", stray + ": item "
                        + item.get().id() + " names removal " + removal.map(r -> r.id() + " at " + r.state()).orElse("none")));
            }
        }
        return found;
    }

    /**
     * Runs drift detection once (as the job does) and checks its postcondition when it read every target's file: each
     * stray it could see settled (on main before the run, the subject's row written at least the settle time before the
     * read) has an active item afterwards, and a line the service removes, on a row nobody holds, is no stray any more
     * (its removal is under way).
     */
    String detect(SimWorld world) {
        var readAt = world.app.clock.instant();
        var settledBefore = readAt.minus(world.driftPolicy.settle());
        var seen = new LinkedHashMap<String, Stray>();
        for (var stray : strays(world, new ArrayList<>())) {
            if (stray.row().map(r -> r.updatedAt().isBefore(settledBefore)).orElse(true)) {
                seen.put(stray.key(), stray);
            }
        }
        var result = world.detectDrift.run(new DetectDrift.Command());
        if (result.unreadable() > 0) {
            return "detect drift: " + result;
        }
        cleanRuns++;
        for (var stray : strays(world, new ArrayList<>())) {
            if (!seen.containsKey(stray.key())) {
                continue;
            }
            covered.add(stray.key());
            var item = itemOf(world, stray);
            if (item.isPresent() && item.get().status() == DriftStatus.OPEN && removedByTheService(world, item.get())
                    && !rowHeld(stray)) {
                pending.add(new Violation(ACCESS + " (a line to remove left OPEN by a detection run)", stray + ": item "
                        + item.get().id() + " " + item.get().kind()));
            }
        }
        return "detect drift: " + result;
    }

    /** At rest: every stray is an operator's drift item, or waits for a row a request holds. */
    List<Violation> atRest(SimWorld world) {
        var found = new ArrayList<Violation>();
        for (var stray : strays(world, found)) {
            var item = itemOf(world, stray);
            if (item.isEmpty()) {
                found.add(new Violation(ACCESS_AT_REST + " (no drift item)", stray.toString()));
            } else if (removedByTheService(world, item.get()) && !rowHeld(stray)
                    && item.get().status() != DriftStatus.ACKNOWLEDGED) { // one an operator acknowledged: a person decided
                found.add(new Violation(ACCESS_AT_REST + " (a line the service removes is still on main)", stray + ": item "
                        + item.get().id() + " " + item.get().kind() + " " + item.get().status()));
            }
        }
        return found;
    }
}
