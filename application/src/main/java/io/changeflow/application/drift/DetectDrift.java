package io.changeflow.application.drift;

import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.LineOrigins;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.drift.DriftCheck;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.drift.Evidence;
import io.changeflow.domain.drift.Finding;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.state.BindingStatus;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Drift detection (issue 36), the recurring job: for every catalog target, one read of its grant file on main (at the
 * commit main points to), then the records, compared by {@link DriftCheck}; findings become drift items (deduplicated:
 * one seen again only updates its last sighting), items no longer found are resolved, and on a target with
 * {@code drift: remove} the open items of a line nobody approved or of an ended grant are removed through the workflow
 * ({@link RemoveDriftLine}). GitLab calls per
 * run: per project, its default branch and that branch's head; per target, the file at that head and, only when a new
 * item is about a line on main, one blame of the file. Design: docs/workflow.md, "Drift detection".
 */
public final class DetectDrift {

    private static final System.Logger LOG = System.getLogger(DetectDrift.class.getName());

    /**
     * @param every  the pause between two runs; positive
     * @param settle a row written less than this before the file was read is left for the next run (our own writes
     *               racing the read, and the database clock against this instance's); zero or more
     */
    public record Policy(Duration every, Duration settle) {

        public static final Duration DEFAULT_EVERY = Duration.ofMinutes(5);
        public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(30);

        public Policy {
            Objects.requireNonNull(every, "every");
            Objects.requireNonNull(settle, "settle");
            if (every.isZero() || every.isNegative() || settle.isNegative()) {
                throw new IllegalArgumentException("the drift interval must be positive and the settle time not negative");
            }
        }

        public static Policy defaults() {
            return new Policy(DEFAULT_EVERY, DEFAULT_SETTLE);
        }

        /**
         * From configuration text ({@code 5m}, {@code 30s}, {@code PT5M}; a bare number is milliseconds). Fail-safe: a
         * missing, garbled, zero or negative interval is its default (never "off"); a missing, garbled or negative
         * settle time is its default.
         */
        public static Policy of(RawValue every, RawValue settle) {
            var e = every.text().map(String::strip).filter(t -> !t.isEmpty()).flatMap(DeployDeadline.Policy::parseDuration)
                    .filter(d -> !d.isNegative() && !d.isZero()).orElse(DEFAULT_EVERY);
            var s = settle.text().map(String::strip).filter(t -> !t.isEmpty()).flatMap(DeployDeadline.Policy::parseDuration)
                    .filter(d -> !d.isNegative()).orElse(DEFAULT_SETTLE);
            return new Policy(e, s);
        }
    }

    /** One scheduled run. */
    public record Command() {}

    /**
     * What a run did (its numbers are counted per run by the job runner: {@code changeflow_jobs_results_total}).
     *
     * @param checked           targets whose file was read and compared
     * @param unreadable        targets skipped because GitLab could not be asked (tried again next run)
     * @param found             items new (or seen again after they were resolved) this run
     * @param unapprovedLines   of those, lines nobody approved
     * @param endedGrantLines   of those, lines of ended grants
     * @param missingLines      of those, grants in effect without their line
     * @param editedLines       of those, lines edited by hand
     * @param notGrants         of those, content that is not a grant
     * @param baselineLines     of those, lines imported with a baseline
     * @param resolved          items no longer found, resolved
     * @param removalsOpened    lines handed to the workflow for removal
     */
    public record Result(int checked, int unreadable, int found, int unapprovedLines, int endedGrantLines,
                         int missingLines, int editedLines, int notGrants, int baselineLines, int resolved,
                         int removalsOpened) {}

    private final Targets targets;
    private final MergeRequests gitlab;
    private final LineOrigins origins;
    private final Operations operations;
    private final Drifts drifts;
    private final RemoveDriftLine removals;
    private final Clock clock;
    private final Policy policy;

    public DetectDrift(Targets targets, MergeRequests gitlab, LineOrigins origins, Operations operations, Drifts drifts,
                       RemoveDriftLine removals, Clock clock, Policy policy) {
        this.targets = targets;
        this.gitlab = gitlab;
        this.origins = origins;
        this.operations = operations;
        this.drifts = drifts;
        this.removals = removals;
        this.clock = clock;
        this.policy = policy;
    }

    public Result run(Command command) {
        var heads = new HashMap<String, Optional<String>>();
        var tally = new Tally();
        for (var target : targets.all()) {
            try {
                var head = heads.get(target.project());
                if (head == null) {
                    head = headOf(target.project());
                    heads.put(target.project(), head);
                }
                if (head.isEmpty()) {
                    tally.unreadable++;
                    continue;
                }
                check(target, head.get(), tally);
                tally.checked++;
            } catch (ExternalCallException e) {
                tally.unreadable++;
                LOG.log(Level.WARNING, () -> "drift: the grant file of " + target.key() + " could not be read this run ("
                        + e.getMessage() + "); tried again next run");
            }
        }
        var result = tally.result();
        if (result.found() > 0 || result.resolved() > 0 || result.removalsOpened() > 0) {
            LOG.log(Level.INFO, () -> "drift: " + result);
        }
        return result;
    }

    /** The commit main (the project's default branch) points to now; empty when the branch does not exist. */
    private Optional<String> headOf(String project) {
        return gitlab.branchHead(project, gitlab.defaultBranch(project));
    }

    private void check(Target target, String head, Tally tally) {
        var readAt = clock.instant();
        var content = gitlab.readFile(target.project(), head, target.filePath()).orElse("");
        // the records after the file: a record can only be newer than the file, never older
        var rows = operations.bindingsOn(target.key());
        var ids = new LinkedHashSet<OperationId>();
        rows.stream().map(Binding::operationId).forEach(ids::add);
        ids.addAll(DriftCheck.operationsNamedIn(content));
        var byId = operations.findAll(ids).stream().collect(Collectors.toMap(Operation::id, Function.identity()));
        var baselineTaken = drifts.baselineOf(target.key()).isPresent();
        var active = drifts.activeOn(target.key());
        var baseline = baselineTaken
                ? DriftCheck.Baseline.taken(active.stream().filter(i -> i.kind() == DriftKind.BASELINE).map(DriftItem::line).toList())
                : DriftCheck.Baseline.NOT_TAKEN;
        var comparison = DriftCheck.check(target.key(), content, new DriftCheck.Records(rows, byId), baseline,
                readAt.minus(policy.settle()));

        var known = new HashMap<String, DriftItem>();
        active.forEach(item -> known.put(key(item.finding()), item));
        var fresh = comparison.findings().stream().filter(f -> !known.containsKey(key(f))).toList();
        var evidence = fresh.stream().anyMatch(f -> f.kind().onMain()) ? blame(target, head) : Map.<String, Evidence>of();
        var sightings = comparison.findings().stream()
                .map(f -> new Drifts.Sighting(f, known.containsKey(key(f)) ? Evidence.NONE
                        : f.kind().onMain() ? evidence.getOrDefault(f.line(), Evidence.NONE) : Evidence.NONE))
                .toList();
        var newIds = new HashSet<>(drifts.record(target.key(), sightings, head, readAt));
        if (!baselineTaken) {
            drifts.markBaseline(target.key(), head, readAt);
        }
        var seen = comparison.findings().stream().map(DetectDrift::key).collect(Collectors.toSet());
        var onMain = content.lines().map(String::strip).collect(Collectors.toSet());
        for (var item : active) {
            var deferred = item.subject().filter(comparison.deferred()::contains).isPresent();
            // a removal under way makes its line legitimate; the item ends once the line is gone from main
            var removalPending = item.status() == DriftStatus.REMOVING && onMain.contains(item.line());
            if (!seen.contains(key(item.finding())) && !deferred && !removalPending) {
                if (drifts.move(item, DriftStatus.RESOLVED, "system", resolvedNote(item), clock.instant(), Optional.empty())
                        .isPresent()) {
                    tally.resolved++;
                }
            }
        }
        for (var item : active) {
            var deferred = item.subject().filter(comparison.deferred()::contains).isPresent();
            if (item.status() == DriftStatus.ADOPTED && seen.contains(key(item.finding())) && !deferred) {
                followAdoption(item, byId, tally);
            }
        }
        for (var id : newIds) {
            drifts.find(id).ifPresent(tally::count);
        }
        if (target.drift().removes()) {
            removeOpenLines(target, comparison.deferred(), tally);
        }
    }

    /**
     * The open items of a line nobody approved or of an ended grant, each removed through the workflow; one whose
     * subject's row is held by a request stays open for the next run.
     */
    private void removeOpenLines(Target target, java.util.Set<io.changeflow.domain.request.SubjectId> deferred,
                                 Tally tally) {
        for (var item : drifts.activeOn(target.key())) {
            if (item.status() != DriftStatus.OPEN || !item.kind().removable()
                    || item.subject().filter(deferred::contains).isPresent()) {
                continue;
            }
            var outcome = removals.remove(target, item, "system");
            if (outcome instanceof RemoveDriftLine.Outcome.Removing) {
                tally.removalsOpened++;
            } else {
                LOG.log(Level.INFO, () -> "drift: item " + item.id() + " on " + target.key() + " not removed now: " + outcome);
            }
        }
    }

    /**
     * An ADOPTED item whose line is still found follows its adopting request ({@link DriftItem#removal()} names it):
     * ended without a grant (refused, closed, superseded, replaced, gone) it is OPEN again, so this run's removal (on a
     * {@code remove} target) or an operator handles the line again; its grant in effect, RESOLVED. While the request is
     * in progress the item stays ADOPTED. An item adopted before the request was recorded on it stays as it is.
     */
    private void followAdoption(DriftItem item, Map<OperationId, Operation> byId, Tally tally) {
        var requestId = item.removal();
        if (requestId.isEmpty()) {
            return;
        }
        var request = Optional.ofNullable(byId.get(requestId.get())).or(() -> operations.find(requestId.get()));
        var status = request.flatMap(Operation::binding);
        if (status.filter(s -> s == BindingStatus.VALIDATED).isPresent()) {
            if (drifts.move(item, DriftStatus.RESOLVED, "system", "Adopted: request " + requestId.get().value()
                    + " is in effect.", clock.instant(), Optional.empty()).isPresent()) {
                tally.resolved++;
            }
        } else if (status.isEmpty() || status.get().isReappliable()) {
            var why = request.isEmpty() ? "is unknown" : status.isEmpty() ? "was replaced by another request"
                    : "ended " + status.get();
            drifts.move(item, DriftStatus.OPEN, "system", "The adopting request " + requestId.get().value() + " " + why
                    + " without a grant: the line is handled again.", clock.instant(), Optional.empty())
                    .ifPresent(reopened -> LOG.log(Level.INFO, () -> "drift: item " + item.id() + " on " + item.target()
                            + " is open again (adopting request " + requestId.get().value() + " " + why + ")"));
        }
    }

    private static String resolvedNote(DriftItem item) {
        return item.kind() == DriftKind.MISSING_LINE
                ? "The grant's line is on main again, or the grant is no longer in effect."
                : "No longer on main as found, or the records account for it now.";
    }

    /** The blame of the file at {@code head}; a failed read leaves the new items without evidence (never fails the run). */
    private Map<String, Evidence> blame(Target target, String head) {
        try {
            return origins.of(target.project(), head, target.filePath());
        } catch (ExternalCallException e) {
            LOG.log(Level.INFO, () -> "drift: no blame of " + target.key() + "'s file this run (" + e.getMessage()
                    + "); its new items are stored without evidence");
            return Map.of();
        }
    }

    private static String key(Finding finding) {
        return finding.kind() + ":" + finding.fingerprint();
    }

    private static final class Tally {
        int checked;
        int unreadable;
        int resolved;
        int removalsOpened;
        final Map<DriftKind, Integer> found = new EnumMap<>(DriftKind.class);

        void count(DriftItem item) {
            found.merge(item.kind(), 1, Integer::sum);
        }

        Result result() {
            var total = found.values().stream().mapToInt(Integer::intValue).sum();
            return new Result(checked, unreadable, total, n(DriftKind.UNAPPROVED_LINE), n(DriftKind.ENDED_GRANT_LINE),
                    n(DriftKind.MISSING_LINE), n(DriftKind.EDITED_LINE), n(DriftKind.NOT_A_GRANT), n(DriftKind.BASELINE),
                    resolved, removalsOpened);
        }

        private int n(DriftKind kind) {
            return found.getOrDefault(kind, 0);
        }
    }
}
