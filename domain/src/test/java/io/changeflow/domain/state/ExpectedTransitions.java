package io.changeflow.domain.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The hand-written expectation of the binding layer, read from {@code transitions.txt}: which
 * (event, from) pairs are allowed and where they lead. Independent of {@link Transitions}.
 */
final class ExpectedTransitions {

    /** Where an operation is, as the file names it: a binding, NEW or DETACHED. */
    sealed interface From {
        record New() implements From {
            @Override
            public String toString() {
                return "NEW";
            }
        }

        record Detached() implements From {
            @Override
            public String toString() {
                return "DETACHED";
            }
        }

        record Owning(BindingStatus binding) implements From {
            @Override
            public String toString() {
                return binding.name();
            }
        }

        From NEW = new New();
        From DETACHED = new Detached();

        static From of(Optional<WorkflowState> state) {
            return state.map(s -> s.binding().<From>map(Owning::new).orElse(DETACHED)).orElse(NEW);
        }

        static From parse(String text) {
            return switch (text) {
                case "NEW" -> NEW;
                case "DETACHED" -> DETACHED;
                default -> new Owning(BindingStatus.valueOf(text));
            };
        }
    }

    record Key(WorkflowEvent event, From from) {}

    /**
     * {@code toBinding} empty: the binding stays as it is. {@code steps}: the steps the event is
     * allowed at, empty for any step (a {@code [steps: not ...]} line lists all steps but those).
     */
    record Expectation(StepStatus toStep, Optional<BindingStatus> toBinding, Set<StepStatus> steps, String line) {

        boolean allowsStep(StepStatus step) {
            return steps.isEmpty() || steps.contains(step);
        }
    }

    private static final Pattern LINE = Pattern.compile(
            "^(?<event>[A-Z_]+):\\s*(?<from>[A-Z_]+)\\s*->\\s*(?<step>[A-Z_]+)\\s*/\\s*(?<binding>[A-Z_]+|=)"
                    + "\\s*(?:\\[steps:\\s*(?<not>not\\s+)?(?<steps>[A-Z_,\\s]+)])?$");

    private static final Map<Key, Expectation> TABLE = load();

    private ExpectedTransitions() {
    }

    static Map<Key, Expectation> table() {
        return TABLE;
    }

    /** {@link Transitions#check} from {@code from}; empty: no operation exists yet. */
    static Transition check(Optional<WorkflowState> from, WorkflowEvent event) {
        return from.map(state -> Transitions.check(state, event)).orElseGet(() -> Transitions.check(event));
    }

    /** {@link Transitions#require} from {@code from}; empty: no operation exists yet. */
    static Transition.Moved require(Optional<WorkflowState> from, WorkflowEvent event) {
        return from.map(state -> Transitions.require(state, event)).orElseGet(() -> Transitions.require(event));
    }

    static Optional<Expectation> lookup(WorkflowEvent event, Optional<WorkflowState> from) {
        return Optional.ofNullable(TABLE.get(new Key(event, From.of(from))));
    }

    /**
     * The state the file says {@code event} leads to from {@code from}, or empty when the file
     * does not allow it.
     */
    static Optional<WorkflowState> expectedTarget(WorkflowEvent event, Optional<WorkflowState> from) {
        var fromKind = from.map(WorkflowState::kind).orElse(ChangeKind.GRANT);
        if (fromKind != ChangeKind.GRANT && NEVER_FOR_A_REMOVAL.contains(event)) {
            return Optional.empty(); // a removal is never closed or rejected (its line would stay while the row ended)
        }
        if (fromKind == ChangeKind.GRANT && (event == WorkflowEvent.REMOVAL_NOT_APPROVED
                || event == WorkflowEvent.REMOVAL_CLOSED)) {
            return Optional.empty(); // only a removal ends REMOVAL_REJECTED
        }
        var kind = KIND_OPENED.getOrDefault(event, fromKind);
        if (fromKind == ChangeKind.EXPIRY && kind == ChangeKind.EXPIRY && KIND_OPENED.containsKey(event)
                && from.flatMap(WorkflowState::binding).equals(Optional.of(BindingStatus.REMOVAL_REJECTED))) {
            return Optional.empty(); // a rejected expiry is not asked again
        }
        return lookup(event, from)
                .filter(e -> from.isEmpty() || e.allowsStep(from.get().step()))
                .map(e -> new WorkflowState(e.toStep(),
                        (e.toBinding().isPresent() ? e.toBinding() : from.flatMap(WorkflowState::binding))
                                .map(b -> b == BindingStatus.VALIDATED ? END_OF.get(kind) : b),
                        kind));
    }

    /** The events that open an operation and its kind (issue 18), written out independently of Transitions. */
    static final Map<WorkflowEvent, ChangeKind> KIND_OPENED = Map.of(
            WorkflowEvent.SUBMITTED_APPROVE_FIRST, ChangeKind.GRANT,
            WorkflowEvent.SUBMITTED_CREATE_FIRST, ChangeKind.GRANT,
            WorkflowEvent.EXPIRY_DUE, ChangeKind.EXPIRY,
            WorkflowEvent.REVOCATION_REQUESTED, ChangeKind.REVOCATION,
            WorkflowEvent.EXPIRY_DUE_FOR_APPROVAL, ChangeKind.EXPIRY,
            WorkflowEvent.REVOCATION_FOR_APPROVAL, ChangeKind.REVOCATION,
            WorkflowEvent.DRIFT_REMOVAL, ChangeKind.REVOCATION);

    /** Events the removal kinds never take (written out independently of Transitions). */
    static final Set<WorkflowEvent> NEVER_FOR_A_REMOVAL = EnumSet.of(WorkflowEvent.CLOSED_BY_OPERATOR,
            WorkflowEvent.APPROVAL_REJECTED, WorkflowEvent.APPROVAL_WITHDRAWN, WorkflowEvent.APPROVAL_GRANTED_CREATE,
            WorkflowEvent.APPROVAL_GRANTED_MERGE, WorkflowEvent.MR_CLOSED_REMOTELY);

    /** Where "in effect" lands for each kind: a removal confirmed in effect ends EXPIRED or REVOKED. */
    static final Map<ChangeKind, BindingStatus> END_OF = Map.of(
            ChangeKind.GRANT, BindingStatus.VALIDATED,
            ChangeKind.EXPIRY, BindingStatus.EXPIRED,
            ChangeKind.REVOCATION, BindingStatus.REVOKED);

    private static Map<Key, Expectation> load() {
        try (InputStream in = ExpectedTransitions.class.getResourceAsStream("/transitions.txt")) {
            if (in == null) {
                throw new IllegalStateException("transitions.txt is missing from the test resources");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the lines of the expectation file (see its header for the format). */
    static Map<Key, Expectation> parse(String text) {
        var table = new LinkedHashMap<Key, Expectation>();
        for (var raw : text.split("\n")) {
            var line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            var m = LINE.matcher(line);
            if (!m.matches()) {
                throw new IllegalStateException("unreadable line in transitions.txt: " + line);
            }
            var key = new Key(WorkflowEvent.valueOf(m.group("event")), From.parse(m.group("from")));
            var binding = m.group("binding").equals("=")
                    ? Optional.<BindingStatus>empty()
                    : Optional.of(BindingStatus.valueOf(m.group("binding")));
            Set<StepStatus> steps = m.group("steps") == null
                    ? Set.of()
                    : Arrays.stream(m.group("steps").split(","))
                            .map(String::strip)
                            .map(StepStatus::valueOf)
                            .collect(Collectors.toCollection(() -> EnumSet.noneOf(StepStatus.class)));
            if (m.group("not") != null) {
                steps = EnumSet.complementOf((EnumSet<StepStatus>) steps);
                if (steps.isEmpty()) {
                    throw new IllegalStateException("a line in transitions.txt excludes every step: " + line);
                }
            }
            var expectation = new Expectation(StepStatus.valueOf(m.group("step")), binding,
                    Collections.unmodifiableSet(steps), line);
            if (table.putIfAbsent(key, expectation) != null) {
                throw new IllegalStateException("two lines for " + key + " in transitions.txt");
            }
        }
        return Collections.unmodifiableMap(table);
    }
}
