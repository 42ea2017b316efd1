package io.changeflow.domain.drift;

import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.Grant;
import io.changeflow.domain.request.GrantFile;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The comparison of one target's grant file on main with the service's records, as a pure function (issue 36):
 * which lines nobody approved, which belong to ended grants, which grants in effect have no line or an edited one,
 * what is not a grant at all, and which lines are the target's baseline. Lines legitimately in flight are never
 * found: a merge of ours whose record is not written yet (MERGING, BATCHED, a failed handle), MERGED awaiting its
 * deploy, a removal under way (it has an owner and a deadline), the renewed grant's line while its renewal waits.
 * The caller reads the file first and the records after it (so a record can only be newer than the file), and every
 * subject whose row was written after {@code settledBefore} is left for the next run. Design: docs/workflow.md,
 * "Drift detection".
 */
public final class DriftCheck {

    /** The comment lines every grant file starts with (GrantFile's header): not reported. */
    private static final List<String> HEADER_PREFIXES =
            List.of("# Access grants for target ", "# One line per subject:");

    private DriftCheck() {
    }

    /**
     * The records of one target the comparison needs, read after the file.
     *
     * @param rows       the target's subject-target rows (each subject once, whoever owns it)
     * @param operations the rows' owners and the operations the file's lines name, by ID (missing IDs: unknown)
     */
    public record Records(List<Binding> rows, Map<OperationId, Operation> operations) {
        public Records {
            rows = List.copyOf(rows);
            operations = Map.copyOf(operations);
        }
    }

    /**
     * The target's baseline: {@code taken} false before its first check (every line the records do not account for is
     * then imported as {@link DriftKind#BASELINE}); afterwards the {@code lines} of its baseline items still about main,
     * which stay baseline lines and are never found as another kind.
     */
    public record Baseline(boolean taken, Set<String> lines) {

        public static final Baseline NOT_TAKEN = new Baseline(false, Set.of());

        public Baseline {
            lines = Set.copyOf(lines);
        }

        public static Baseline taken(Collection<String> lines) {
            return new Baseline(true, Set.copyOf(lines));
        }
    }

    /** The operations the comparison must know besides the rows' owners: those the lines of {@code content} name. */
    public static Set<OperationId> operationsNamedIn(String content) {
        var ids = new LinkedHashSet<OperationId>();
        for (var line : lines(content)) {
            GrantFile.parseLine(line).ifPresent(grant -> ids.add(grant.operationId()));
        }
        return ids;
    }

    /**
     * Compares {@code content} (the file on main; empty for a missing file) with {@code records}.
     *
     * @param settledBefore rows written at or after this instant are in flight: nothing is found about their subject
     *                      this time (the file may predate the write)
     * @return the findings, in the file's order, missing lines last; the same line at most once
     */
    public static List<Finding> compare(TargetKey target, String content, Records records, Baseline baseline,
                                        Instant settledBefore) {
        return check(target, content, records, baseline, settledBefore).findings();
    }

    /**
     * What one comparison found, and the subjects it left for the next run (their row was written at or after the
     * instant the file was read, or names an operation the records did not return): an item about one of them is
     * neither found nor resolved this time.
     */
    public record Comparison(List<Finding> findings, Set<SubjectId> deferred) {
        public Comparison {
            findings = List.copyOf(findings);
            deferred = Set.copyOf(deferred);
        }
    }

    /** {@link #compare}, with the subjects left for the next run. */
    public static Comparison check(TargetKey target, String content, Records records, Baseline baseline,
                                   Instant settledBefore) {
        Objects.requireNonNull(target, "target");
        var rows = new HashMap<SubjectId, Expectation>();
        var recent = new HashSet<SubjectId>();
        for (var row : records.rows()) {
            var owner = records.operations().get(row.operationId());
            if (!row.updatedAt().isBefore(settledBefore) || owner == null) {
                recent.add(row.subject());
            } else {
                rows.put(row.subject(), Expectation.of(row, owner));
            }
        }
        var found = new java.util.LinkedHashMap<String, Finding>();
        var subjectsWithLines = new HashSet<SubjectId>();
        for (var line : lines(content)) {
            if (line.startsWith("#")) {
                if (HEADER_PREFIXES.stream().noneMatch(line::startsWith)) {
                    var comment = new Finding(DriftKind.NOT_A_GRANT, Optional.empty(), line, Optional.empty(),
                            "A comment in the grant file; it grants nothing and is never removed.");
                    found.putIfAbsent(comment.kind() + ":" + comment.fingerprint(), comment);
                }
                continue;
            }
            var grant = GrantFile.parseLine(line);
            var subject = grant.map(Grant::subject).or(() -> SubjectId.parse(line.split("\\s+")[0]));
            subject.ifPresent(subjectsWithLines::add);
            if (subject.isPresent() && recent.contains(subject.get())) {
                continue;
            }
            var expectation = subject.map(rows::get);
            var finding = grant.isPresent()
                    ? judge(target, grant.get(), line, expectation, records.operations())
                    : unparsed(line, subject.filter(rows::containsKey), expectation);
            // the same line twice is one finding (one item)
            finding.map(f -> baselined(f, baseline)).ifPresent(f -> found.putIfAbsent(f.kind() + ":" + f.fingerprint(), f));
        }
        var missing = new ArrayList<Finding>();
        rows.forEach((subject, expectation) -> expectation.inEffect
                .filter(grant -> !subjectsWithLines.contains(subject))
                .ifPresent(grant -> missing.add(new Finding(DriftKind.MISSING_LINE, Optional.of(subject), grant.line(),
                        Optional.of(grant.operationId()), "The service holds this grant in effect, but main has no line"
                                + " for " + subject + ": the access it reports does not exist."))));
        missing.sort(java.util.Comparator.comparing(Finding::line));
        var all = new ArrayList<>(found.values());
        all.addAll(missing);
        return new Comparison(all, recent);
    }

    private static Finding baselined(Finding finding, Baseline baseline) {
        var importable = finding.kind() == DriftKind.UNAPPROVED_LINE || finding.kind() == DriftKind.ENDED_GRANT_LINE
                || finding.kind() == DriftKind.EDITED_LINE;
        if (importable && (!baseline.taken() || baseline.lines().contains(finding.line()))) {
            return finding.asBaseline();
        }
        return finding;
    }

    private static Optional<Finding> judge(TargetKey target, Grant grant, String line, Optional<Expectation> expectation,
                                           Map<OperationId, Operation> operations) {
        var op = grant.operationId();
        if (expectation.isPresent()) {
            var e = expectation.get();
            if (e.inEffect.isPresent()) {
                var held = e.inEffect.get();
                return sameGrant(held, grant) ? Optional.empty()
                        : Optional.of(edited(grant.subject(), line, held));
            }
            if (e.inFlight.contains(op)) {
                return Optional.empty();
            }
            if (e.ended.contains(op)) {
                return Optional.of(new Finding(DriftKind.ENDED_GRANT_LINE, Optional.of(grant.subject()), line,
                        Optional.of(op), "The grant of this line ended (" + e.status + "), yet its line is on main."));
            }
            if (e.unapproved.contains(op)) {
                return Optional.of(new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(grant.subject()), line,
                        Optional.of(op), "The request of this line was never approved (" + e.status
                                + "), yet its line is on main: merged or pushed by a person."));
            }
        }
        var named = Optional.ofNullable(operations.get(op))
                .filter(o -> o.subject().equals(grant.subject()) && o.target().equals(target));
        if (named.isPresent() && !named.get().kind().removes() && named.get().step() == StepStatus.CALLED_BACK) {
            return Optional.of(new Finding(DriftKind.ENDED_GRANT_LINE, Optional.of(grant.subject()), line, Optional.of(op),
                    "A grant of Changeflow that is no longer in effect (a later request replaced it), yet its line is on main."));
        }
        return Optional.of(new Finding(DriftKind.UNAPPROVED_LINE, Optional.of(grant.subject()), line, Optional.of(op),
                named.isPresent() ? "The request of this line never took effect (" + named.get().step()
                        + "), yet its line is on main: merged or pushed by a person."
                        : "No request of Changeflow for " + grant.subject() + " on this target wrote this line: "
                        + "merged or pushed by a person."));
    }

    /** The same grant, its until compared to the millisecond as the records store it. */
    private static boolean sameGrant(Grant held, Grant line) {
        return held.subject().equals(line.subject()) && held.operationId().equals(line.operationId())
                && held.until().map(DriftCheck::millis).equals(line.until().map(DriftCheck::millis));
    }

    private static Instant millis(Instant instant) {
        return instant.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    private static Finding edited(SubjectId subject, String line, Grant held) {
        return new Finding(DriftKind.EDITED_LINE, Optional.of(subject), line, Optional.of(held.operationId()),
                "Edited by hand: the grant in effect is '" + held.line() + "'. An operator adopts the line or reverts it.");
    }

    /** A line the format does not parse: an edit of a known subject's line, or content that is not a grant. */
    private static Optional<Finding> unparsed(String line, Optional<SubjectId> known, Optional<Expectation> expectation) {
        if (known.isPresent()) {
            var held = expectation.flatMap(e -> e.inEffect);
            if (held.isPresent()) {
                return Optional.of(edited(known.get(), line, held.get()));
            }
            return Optional.of(new Finding(DriftKind.EDITED_LINE, known, line, Optional.empty(),
                    "A line of " + known.get() + " the grant format does not parse (edited by hand); it is never removed"
                            + " by itself."));
        }
        return Optional.of(new Finding(DriftKind.NOT_A_GRANT, Optional.empty(), line, Optional.empty(),
                "Text the grant format does not parse and that names no subject of this target; it is never removed."));
    }

    private static List<String> lines(String content) {
        return content.lines().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
    }

    /**
     * What the records say one subject's line on main may be.
     *
     * @param inEffect   the grant in effect: exactly its line must be on main
     * @param inFlight   operations whose line is legitimately on main or not (a change of ours under way)
     * @param ended      operations whose grant ended: their line must be gone
     * @param unapproved operations that never got an approval, or ended without taking effect: their line must not be there
     */
    private record Expectation(BindingStatus status, Optional<Grant> inEffect, Set<OperationId> inFlight,
                               Set<OperationId> ended, Set<OperationId> unapproved) {

        static Expectation of(Binding row, Operation owner) {
            var status = row.status();
            if (owner.kind().removes()) {
                var removed = owner.removedLine();
                var removedOp = owner.removes().stream().collect(Collectors.toSet());
                return switch (status) {
                    case REMOVAL_REJECTED -> new Expectation(status, removed, Set.of(), Set.of(), Set.of());
                    case EXPIRED, REVOKED -> new Expectation(status, Optional.empty(), Set.of(), removedOp, Set.of());
                    default -> new Expectation(status, Optional.empty(), removedOp, Set.of(), Set.of());
                };
            }
            var own = owner.id();
            var renewed = owner.removes().stream().collect(Collectors.toSet());
            if (status == BindingStatus.VALIDATED) {
                return new Expectation(status, Optional.of(Grant.of(owner.request())), Set.of(), Set.of(), Set.of());
            }
            if (status == BindingStatus.REJECTED || status == BindingStatus.CLOSED) {
                return new Expectation(status, Optional.empty(), Set.of(), Set.of(), Set.of(own));
            }
            if (approved(status, owner.order())) {
                var both = new HashSet<>(renewed);
                both.add(own);
                return new Expectation(status, Optional.empty(), both, Set.of(), Set.of());
            }
            return new Expectation(status, Optional.empty(), renewed, Set.of(), Set.of(own));
        }

        /** Whether a grant at {@code status} was approved already (its line may be merged by us any moment). */
        private static boolean approved(BindingStatus status, StepOrder order) {
            return switch (status) {
                case APPROVAL_SENDING, APPROVAL_SENT, APPROVAL_FAILED -> false;
                case MR_CREATING, MR_CREATED, CREATE_FAILED -> order == StepOrder.APPROVE_FIRST;
                default -> true;
            };
        }
    }
}
