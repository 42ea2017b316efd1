package io.changeflow.domain.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.domain.ChangeflowException;
import io.changeflow.domain.state.ExpectedTransitions.From;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Checks the central table against the hand-written expectation in {@code transitions.txt}, for
 * every from state (NEW, DETACHED and every binding) x every step x every event.
 */
class TransitionTableTest {

    /** Every state an existing operation can be read in: every step with every binding, and detached. */
    static List<WorkflowState> everyExistingState() {
        return everyExistingState(ChangeKind.GRANT);
    }

    /** The same for an operation of {@code kind} (detached ones are always read as grants). */
    static List<WorkflowState> everyExistingState(ChangeKind kind) {
        var states = new ArrayList<WorkflowState>();
        for (var step : StepStatus.values()) {
            for (var binding : BindingStatus.values()) {
                states.add(WorkflowState.of(step, binding, kind));
            }
            states.add(WorkflowState.detached(step));
        }
        return states;
    }

    /** NEW (no operation yet) followed by every existing state. */
    static List<Optional<WorkflowState>> everyFromState() {
        var froms = new ArrayList<Optional<WorkflowState>>();
        froms.add(Optional.empty());
        everyExistingState().forEach(s -> froms.add(Optional.of(s)));
        return froms;
    }

    @Test
    void allowsExactlyThePairsListedInTheExpectationFileWithTheListedTargets() {
        compareWithTheFile(everyFromState());
        // the walk really covered every combination (NEW once per event, it has no step)
        assertThat(everyFromState()).hasSize(1 + StepStatus.values().length * (BindingStatus.values().length + 1));
    }

    /** Issue 18: the removal kinds, every step x every binding x every event, against the file and the kind rules. */
    @Test
    void theRemovalKindsAllowExactlyWhatTheFileAndTheKindRulesSay() {
        for (var kind : new ChangeKind[] {ChangeKind.EXPIRY, ChangeKind.REVOCATION}) {
            var froms = new ArrayList<Optional<WorkflowState>>();
            everyExistingState(kind).forEach(s -> froms.add(Optional.of(s)));
            compareWithTheFile(froms);
        }
    }

    private static void compareWithTheFile(List<Optional<WorkflowState>> froms) {
        var mismatches = new ArrayList<String>();
        var allowedCombinations = 0;
        var expectedAllowedCombinations = 0;
        for (var from : froms) {
            for (var event : WorkflowEvent.values()) {
                var expected = ExpectedTransitions.expectedTarget(event, from);
                var actual = ExpectedTransitions.check(from, event);
                var where = event + " from " + from.map(Object::toString).orElse("NEW");
                if (expected.isPresent()) {
                    expectedAllowedCombinations++;
                }
                switch (actual) {
                    case Transition.Moved moved -> {
                        allowedCombinations++;
                        if (expected.isEmpty()) {
                            mismatches.add(where + ": allowed (-> " + moved.to() + ") but not listed");
                        } else if (!moved.to().equals(expected.get())) {
                            mismatches.add(where + ": goes to " + moved.to() + ", listed " + expected.get());
                        }
                        if (!moved.event().equals(event) || !moved.from().equals(from)) {
                            mismatches.add(where + ": Moved carries the wrong event or from: " + moved);
                        }
                    }
                    case Transition.Refused refused -> {
                        if (expected.isPresent()) {
                            mismatches.add(where + ": refused (" + refused.reason() + ") but listed -> " + expected.get());
                        }
                        if (!refused.event().equals(event) || !refused.from().equals(from)) {
                            mismatches.add(where + ": Refused carries the wrong event or from: " + refused);
                        }
                    }
                }
            }
        }
        assertThat(mismatches).as("differences between Transitions and transitions.txt").isEmpty();
        assertThat(allowedCombinations).isEqualTo(expectedAllowedCombinations);
    }

    @Test
    void expectationFileNamesEveryEventAndOnlyAllowedPairs() {
        var eventsInFile = ExpectedTransitions.table().keySet().stream()
                .map(ExpectedTransitions.Key::event)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(WorkflowEvent.class)));
        assertThat(eventsInFile).containsExactlyInAnyOrder(WorkflowEvent.values());
        assertThat(ExpectedTransitions.table().size()).as("lines in transitions.txt").isEqualTo(170);
    }

    private static final Set<StepStatus> BATCH_STEPS = EnumSet.of(StepStatus.BATCH_WAITING, StepStatus.BATCH_CLAIMED,
            StepStatus.BATCH_PENDING, StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED);

    private static final Set<WorkflowEvent> SINGLE_MR_EVENTS =
            EnumSet.of(WorkflowEvent.HANDLE_STARTED, WorkflowEvent.MERGED, WorkflowEvent.MR_CLOSED_REMOTELY);

    @Test
    void expectationFileExcludesTheBatchStepsForSingleMergeRequestEvents() {
        var lines = ExpectedTransitions.table().entrySet().stream()
                .filter(e -> SINGLE_MR_EVENTS.contains(e.getKey().event()))
                .toList();
        assertThat(lines).hasSize(3 + 3 + 8);
        for (var line : lines) {
            assertThat(line.getValue().steps()).as(line.getValue().line())
                    .isEqualTo(EnumSet.complementOf(EnumSet.copyOf(BATCH_STEPS)));
        }
    }

    /** Every batch step x every binding (and detached) x the single-MR events: always refused. */
    @Test
    void batchMembersGetNoSingleMergeRequestHandling() {
        var walked = 0;
        for (var step : BATCH_STEPS) {
            var states = new ArrayList<WorkflowState>();
            for (var binding : BindingStatus.values()) {
                states.add(WorkflowState.of(step, binding));
            }
            states.add(WorkflowState.detached(step));
            for (var state : states) {
                for (var event : SINGLE_MR_EVENTS) {
                    walked++;
                    var result = Transitions.check(state, event);
                    assertThat(result.allowed()).as(event + " from " + state).isFalse();
                    assertThat(ExpectedTransitions.expectedTarget(event, Optional.of(state))).isEmpty();
                    if (state.binding().map(Transitions.bindingsAllowing(event)::contains).orElse(false)) {
                        assertThat(((Transition.Refused) result).reason()).isEqualTo("not allowed at step " + step);
                    }
                }
            }
        }
        assertThat(walked).isEqualTo(5 * (BindingStatus.values().length + 1) * 3);
    }

    @Test
    void readsBothStepForms() {
        var table = ExpectedTransitions.parse("""
                # comment
                MERGED: MERGING -> HANDLE_MERGED / MERGED [steps: not BATCH_WAITING, BATCH_FAILED]
                CLOSE_DONE: DETACHED -> CLOSE_DONE / = [steps: CLOSE_STARTED,CLOSE_FAILED]
                DEPLOYED: MERGED -> CALLED_BACK / VALIDATED
                """);
        var merged = table.get(new ExpectedTransitions.Key(WorkflowEvent.MERGED, From.parse("MERGING")));
        assertThat(merged.steps()).hasSize(StepStatus.values().length - 2)
                .doesNotContain(StepStatus.BATCH_WAITING, StepStatus.BATCH_FAILED);
        assertThat(merged.allowsStep(StepStatus.HANDLE_STARTED)).isTrue();
        assertThat(merged.allowsStep(StepStatus.BATCH_FAILED)).isFalse();
        var closeDone = table.get(new ExpectedTransitions.Key(WorkflowEvent.CLOSE_DONE, From.DETACHED));
        assertThat(closeDone.steps()).containsExactlyInAnyOrder(StepStatus.CLOSE_STARTED, StepStatus.CLOSE_FAILED);
        assertThat(closeDone.toBinding()).isEmpty();
        var deployed = table.get(new ExpectedTransitions.Key(WorkflowEvent.DEPLOYED, From.parse("MERGED")));
        assertThat(deployed.steps()).isEmpty();
        assertThat(deployed.allowsStep(StepStatus.BATCH_FAILED)).isTrue();
    }

    @Test
    void refusesUnreadableStepLists() {
        var everyStep = Arrays.stream(StepStatus.values()).map(Enum::name).collect(Collectors.joining(", "));
        assertThatThrownBy(() -> ExpectedTransitions.parse("MERGED: MERGING -> HANDLE_MERGED / MERGED [steps: not " + everyStep + "]"))
                .hasMessageContaining("excludes every step");
        assertThatThrownBy(() -> ExpectedTransitions.parse("MERGED: MERGING -> HANDLE_MERGED / MERGED [steps: NO_SUCH_STEP]"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ExpectedTransitions.parse("MERGED: MERGING -> HANDLE_MERGED / MERGED [steps: except BATCH_FAILED]"))
                .hasMessageContaining("unreadable line");
        assertThatThrownBy(() -> ExpectedTransitions.parse(
                "MERGED: MERGING -> HANDLE_MERGED / MERGED\nMERGED: MERGING -> HANDLE_STARTED / MERGED"))
                .hasMessageContaining("two lines for");
    }

    @Test
    void requireThrowsExactlyWhenCheckRefuses() {
        for (var from : everyFromState()) {
            for (var event : WorkflowEvent.values()) {
                var checked = ExpectedTransitions.check(from, event);
                if (checked instanceof Transition.Refused refused) {
                    assertThatThrownBy(() -> ExpectedTransitions.require(from, event))
                            .isInstanceOf(IllegalTransitionException.class)
                            .isInstanceOf(ChangeflowException.class)
                            .satisfies(e -> assertThat(((IllegalTransitionException) e).refused()).isEqualTo(refused));
                } else {
                    assertThat(ExpectedTransitions.require(from, event)).isEqualTo(checked);
                }
            }
        }
    }

    @Test
    void refusalsSayWhyTheEventIsRefused() {
        var fromNew = (Transition.Refused) Transitions.check(WorkflowEvent.DEPLOYED);
        assertThat(fromNew.reason()).isEqualTo("no such operation");

        var detached = (Transition.Refused) Transitions.check(
                WorkflowState.detached(StepStatus.APPROVAL_SUBMITTED), WorkflowEvent.APPROVAL_GRANTED_CREATE);
        assertThat(detached.reason()).contains("no longer owns");

        var wrongBinding = (Transition.Refused) Transitions.check(
                WorkflowState.of(StepStatus.HANDLE_MERGED, BindingStatus.MERGED), WorkflowEvent.APPROVAL_SUBMITTED);
        assertThat(wrongBinding.reason()).contains("MERGED");

        var wrongStep = (Transition.Refused) Transitions.check(
                WorkflowState.of(StepStatus.HANDLE_MERGE_FAILED, BindingStatus.HANDLE_FAILED), WorkflowEvent.BATCH_READMITTED);
        assertThat(wrongStep.reason()).contains("HANDLE_MERGE_FAILED");
    }

    @Test
    void exceptionMessageNamesTheEventAndTheState() {
        assertThatThrownBy(() -> Transitions.require(WorkflowEvent.DEPLOYED))
                .hasMessageContaining("DEPLOYED")
                .hasMessageContaining("(new)");
        assertThatThrownBy(() -> Transitions.require(WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.VALIDATED),
                WorkflowEvent.DEPLOYED))
                .hasMessageContaining("DEPLOYED")
                .hasMessageContaining("CALLED_BACK/VALIDATED");
    }

    @Test
    void bindingsAllowingListsTheBindingStatesOfTheExpectationFile() {
        for (var event : WorkflowEvent.values()) {
            var fromFile = ExpectedTransitions.table().keySet().stream()
                    .filter(k -> k.event() == event)
                    .map(ExpectedTransitions.Key::from)
                    .filter(f -> f instanceof From.Owning)
                    .map(f -> ((From.Owning) f).binding())
                    .collect(Collectors.toSet());
            assertThat(Transitions.bindingsAllowing(event)).as(event.name()).isEqualTo(fromFile);
        }
    }

    @Test
    void rulesHoldOneRulePerEventInEventOrder() {
        assertThat(Transitions.rules()).extracting(Transitions.Rule::event).containsExactly(WorkflowEvent.values());
        for (var event : WorkflowEvent.values()) {
            assertThat(Transitions.rule(event).event()).isEqualTo(event);
            assertThat(Transitions.rules()).contains(Transitions.rule(event));
        }
    }

    @Test
    void allowedEventsAreTheEventsCheckAllows() {
        for (var state : everyExistingState()) {
            var expected = Arrays.stream(WorkflowEvent.values())
                    .filter(e -> ExpectedTransitions.expectedTarget(e, Optional.of(state)).isPresent())
                    .collect(Collectors.toSet());
            assertThat(Transitions.allowedEvents(state)).as(state.toString()).isEqualTo(expected);
        }
    }

    @Test
    void movedTellsWhetherTheBindingChanged() {
        var submitted = Transitions.require(WorkflowEvent.SUBMITTED_APPROVE_FIRST);
        assertThat(submitted.bindingChanged()).isTrue();
        assertThat(submitted.to()).isEqualTo(WorkflowState.of(StepStatus.APPROVAL_SUBMITTING, BindingStatus.APPROVAL_SENDING));

        var opened = Transitions.require(WorkflowState.of(StepStatus.CREATE_STARTED, BindingStatus.MR_CREATING),
                WorkflowEvent.MR_OPENED);
        assertThat(opened.bindingChanged()).isFalse();

        var closeStarted = Transitions.require(WorkflowState.of(StepStatus.HANDLE_STARTED, BindingStatus.MERGING),
                WorkflowEvent.CLOSE_STARTED);
        assertThat(closeStarted.bindingChanged()).isFalse();
        assertThat(closeStarted.to()).isEqualTo(WorkflowState.of(StepStatus.CLOSE_STARTED, BindingStatus.MERGING));

        var detachedClose = Transitions.require(WorkflowState.detached(StepStatus.APPROVAL_REJECTED), WorkflowEvent.CLOSE_STARTED);
        assertThat(detachedClose.bindingChanged()).isFalse();
        assertThat(detachedClose.to()).isEqualTo(WorkflowState.detached(StepStatus.CLOSE_STARTED));
    }

    // --- batch layer -----------------------------------------------------------------------------

    private static final Set<List<BatchStatus>> BATCH_ALLOWED = Set.of(
            List.of(BatchStatus.RUNNING, BatchStatus.SUCCEEDED),
            List.of(BatchStatus.RUNNING, BatchStatus.FAILED),
            List.of(BatchStatus.RUNNING, BatchStatus.BLOCKED),
            List.of(BatchStatus.BLOCKED, BatchStatus.SUCCEEDED),
            List.of(BatchStatus.BLOCKED, BatchStatus.FAILED));

    @Test
    void batchLayerAllowsOnlyEndingARunningBatchAndSettlingABlockedOne() {
        var walked = 0;
        for (var from : BatchStatus.values()) {
            for (var to : BatchStatus.values()) {
                walked++;
                var expected = BATCH_ALLOWED.contains(List.of(from, to));
                assertThat(Transitions.batchAllows(from, to)).as(from + " -> " + to).isEqualTo(expected);
                if (expected) {
                    assertThatCode(() -> Transitions.requireBatch(from, to)).doesNotThrowAnyException();
                } else {
                    assertThatThrownBy(() -> Transitions.requireBatch(from, to))
                            .isInstanceOf(IllegalBatchTransitionException.class)
                            .isInstanceOf(ChangeflowException.class)
                            .hasMessageContaining(from + " -> " + to);
                }
            }
        }
        assertThat(walked).isEqualTo(16);
    }

    @Test
    void batchCodesAreOneToFourAndOnlyRunningAndBlockedAreActive() {
        assertThat(BatchStatus.RUNNING.code()).isEqualTo(1);
        assertThat(BatchStatus.SUCCEEDED.code()).isEqualTo(2);
        assertThat(BatchStatus.FAILED.code()).isEqualTo(3);
        assertThat(BatchStatus.BLOCKED.code()).isEqualTo(4);
        for (var status : BatchStatus.values()) {
            var active = status == BatchStatus.RUNNING || status == BatchStatus.BLOCKED;
            assertThat(status.isActive()).as(status.name()).isEqualTo(active);
            assertThat(status.isTerminal()).as(status.name()).isEqualTo(!active);
            assertThat(BatchStatus.fromCode(status.code())).contains(status);
        }
        assertThat(BatchStatus.fromCode(0)).isEmpty();
        assertThat(BatchStatus.fromCode(5)).isEmpty();
    }

    // --- step codes ------------------------------------------------------------------------------

    /** The persisted codes, pinned: never renumber a constant (the design pins several of them). */
    private static final Map<StepStatus, Integer> PERSISTED_CODES = Map.ofEntries(
            Map.entry(StepStatus.CREATE_STARTED, 10001),
            Map.entry(StepStatus.CREATE_SUCCEEDED, 10002),
            Map.entry(StepStatus.CREATE_FAILED, 10003),
            Map.entry(StepStatus.CREATE_PIPELINE_FAILED, 10004),
            Map.entry(StepStatus.CREATE_MR_OPENED, 10005),
            Map.entry(StepStatus.CREATE_PIPELINE_UNFINISHED, 10050),
            Map.entry(StepStatus.CREATE_GAVE_UP, 10051),
            Map.entry(StepStatus.HANDLE_PIPELINE_UNFINISHED, 10150),
            Map.entry(StepStatus.HANDLE_GAVE_UP, 10151),
            Map.entry(StepStatus.APPROVAL_SUBMIT_GAVE_UP, 10450),
            Map.entry(StepStatus.HANDLE_STARTED, 10101),
            Map.entry(StepStatus.HANDLE_APPROVED, 10102),
            Map.entry(StepStatus.HANDLE_MERGED, 10103),
            Map.entry(StepStatus.HANDLE_APPROVE_FAILED, 10104),
            Map.entry(StepStatus.HANDLE_REBASE_CONFLICT, 10105),
            Map.entry(StepStatus.HANDLE_MERGE_FAILED, 10106),
            Map.entry(StepStatus.HANDLE_PIPELINE_FAILED, 10107),
            Map.entry(StepStatus.HANDLE_REBASING, 10108),
            Map.entry(StepStatus.HANDLE_MR_CLOSED, 10109),
            Map.entry(StepStatus.BATCH_CLAIMED, 10110),
            Map.entry(StepStatus.BATCH_PIPELINE_FAILED, 10111),
            Map.entry(StepStatus.BATCH_FAILED, 10112),
            Map.entry(StepStatus.HANDLE_MERGE_BLOCKED, 10121),
            Map.entry(StepStatus.CLOSE_STARTED, 10201),
            Map.entry(StepStatus.CLOSE_DONE, 10202),
            Map.entry(StepStatus.CLOSE_FAILED, 10203),
            Map.entry(StepStatus.CLOSE_GAVE_UP, 10250),
            Map.entry(StepStatus.CLOSED_BY_OPERATOR, 10204),
            Map.entry(StepStatus.SUPERSEDED_BY_SUBJECT, 10205),
            Map.entry(StepStatus.CALLED_BACK, 10301),
            Map.entry(StepStatus.DEPLOY_UNCONFIRMED, 10310),
            Map.entry(StepStatus.DEPLOY_FAILED, 10311),
            Map.entry(StepStatus.APPROVAL_GRANTED, 10302),
            Map.entry(StepStatus.APPROVAL_REJECTED, 10303),
            Map.entry(StepStatus.APPROVAL_WITHDRAWN, 10304),
            Map.entry(StepStatus.APPROVAL_SUBMITTING, 10401),
            Map.entry(StepStatus.APPROVAL_SUBMITTED, 10402),
            Map.entry(StepStatus.APPROVAL_SUBMIT_FAILED, 10403),
            Map.entry(StepStatus.HANDLE_PIPELINE_PENDING, 10501),
            Map.entry(StepStatus.CREATE_PIPELINE_PENDING, 10502),
            Map.entry(StepStatus.BATCH_WAITING, 10503),
            Map.entry(StepStatus.BATCH_PENDING, 10504));

    /** Which phase each step belongs to, by meaning (independent of its code). */
    private static final Map<Integer, Set<StepStatus>> PHASES = Map.of(
            100, EnumSet.of(StepStatus.CREATE_STARTED, StepStatus.CREATE_SUCCEEDED, StepStatus.CREATE_FAILED,
                    StepStatus.CREATE_PIPELINE_FAILED, StepStatus.CREATE_MR_OPENED, StepStatus.CREATE_PIPELINE_UNFINISHED,
                    StepStatus.CREATE_GAVE_UP),
            101, EnumSet.of(StepStatus.HANDLE_STARTED, StepStatus.HANDLE_APPROVED, StepStatus.HANDLE_MERGED,
                    StepStatus.HANDLE_APPROVE_FAILED, StepStatus.HANDLE_REBASE_CONFLICT, StepStatus.HANDLE_MERGE_FAILED,
                    StepStatus.HANDLE_PIPELINE_FAILED, StepStatus.HANDLE_REBASING, StepStatus.HANDLE_MR_CLOSED,
                    StepStatus.BATCH_CLAIMED, StepStatus.BATCH_PIPELINE_FAILED, StepStatus.BATCH_FAILED,
                    StepStatus.HANDLE_PIPELINE_UNFINISHED, StepStatus.HANDLE_GAVE_UP,
                    StepStatus.HANDLE_MERGE_BLOCKED),
            102, EnumSet.of(StepStatus.CLOSE_STARTED, StepStatus.CLOSE_DONE, StepStatus.CLOSE_FAILED, StepStatus.CLOSE_GAVE_UP,
                    StepStatus.CLOSED_BY_OPERATOR, StepStatus.SUPERSEDED_BY_SUBJECT),
            103, EnumSet.of(StepStatus.CALLED_BACK, StepStatus.APPROVAL_GRANTED, StepStatus.APPROVAL_REJECTED,
                    StepStatus.APPROVAL_WITHDRAWN, StepStatus.DEPLOY_UNCONFIRMED, StepStatus.DEPLOY_FAILED),
            104, EnumSet.of(StepStatus.APPROVAL_SUBMITTING, StepStatus.APPROVAL_SUBMITTED, StepStatus.APPROVAL_SUBMIT_FAILED,
                    StepStatus.APPROVAL_SUBMIT_GAVE_UP),
            105, EnumSet.of(StepStatus.HANDLE_PIPELINE_PENDING, StepStatus.CREATE_PIPELINE_PENDING,
                    StepStatus.BATCH_WAITING, StepStatus.BATCH_PENDING));

    @Test
    void stepCodesAreThePersistedOnesAndUnique() {
        assertThat(PERSISTED_CODES).hasSize(StepStatus.values().length);
        var seen = new HashSet<Integer>();
        for (var step : StepStatus.values()) {
            assertThat(step.code()).as(step.name()).isEqualTo(PERSISTED_CODES.get(step));
            assertThat(seen.add(step.code())).as("code of " + step + " is unique").isTrue();
        }
    }

    @Test
    void stepCodesLieInTheRangeOfTheirPhase() {
        assertThat(PHASES.values().stream().mapToInt(Set::size).sum()).isEqualTo(StepStatus.values().length);
        PHASES.forEach((phase, steps) -> steps.forEach(step -> {
            assertThat(step.phase()).as(step.name()).isEqualTo(phase);
            assertThat(step.code()).as(step.name()).isBetween(phase * 100 + 1, phase * 100 + 99);
        }));
    }

    @Test
    void fromCodeRoundTripsAndRejectsUnknownCodes() {
        for (var step : StepStatus.values()) {
            assertThat(StepStatus.fromCode(step.code())).contains(step);
        }
        Stream.of(0, -1, 10000, 10006, 10100, 10200, 10206, 10300, 10400, 10500, 10505, 10601, Integer.MAX_VALUE)
                .forEach(code -> assertThat(StepStatus.fromCode(code)).as("code " + code).isEmpty());
    }

    // --- binding sets ----------------------------------------------------------------------------

    @Test
    void onlyRejectedClosedExpiredAndRevokedMayBeAppliedForAgain() {
        assertThat(BindingStatus.REAPPLIABLE).containsExactlyInAnyOrder(BindingStatus.REJECTED, BindingStatus.CLOSED,
                BindingStatus.EXPIRED, BindingStatus.REVOKED);
        for (var status : BindingStatus.values()) {
            assertThat(status.isReappliable()).as(status.name()).isEqualTo(BindingStatus.REAPPLIABLE.contains(status));
        }
    }

    @Test
    void approvalCallbacksAreAwaitedWhileSendingAndSent() {
        assertThat(BindingStatus.AWAITING_APPROVAL)
                .containsExactlyInAnyOrder(BindingStatus.APPROVAL_SENDING, BindingStatus.APPROVAL_SENT);
        for (var status : BindingStatus.values()) {
            assertThat(status.isAwaitingApproval()).as(status.name())
                    .isEqualTo(BindingStatus.AWAITING_APPROVAL.contains(status));
        }
    }

    @Test
    void classifiesEveryBindingAsExactlyOneOfTerminalFailedOrInProgress() {
        assertThat(BindingStatus.TERMINAL).containsExactlyInAnyOrder(
                BindingStatus.VALIDATED, BindingStatus.REJECTED, BindingStatus.CLOSED, BindingStatus.EXPIRED,
                BindingStatus.REVOKED);
        assertThat(BindingStatus.FAILED).containsExactlyInAnyOrder(
                BindingStatus.APPROVAL_FAILED, BindingStatus.CREATE_FAILED, BindingStatus.HANDLE_FAILED,
                BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_FAILED);
        for (var status : BindingStatus.values()) {
            var kinds = Stream.of(status.isTerminal(), status.isFailed(), status.isInProgress()).filter(b -> b).count();
            assertThat(kinds).as(status.name()).isEqualTo(1);
        }
    }

    @Test
    void aMergedChangeAwaitsItsDeployUntilConfirmedInEffect() {
        assertThat(BindingStatus.AWAITING_DEPLOY).containsExactlyInAnyOrder(
                BindingStatus.MERGED, BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_FAILED);
        assertThat(Transitions.bindingsAllowing(WorkflowEvent.DEPLOYED)).isEqualTo(BindingStatus.AWAITING_DEPLOY);
        assertThat(BindingStatus.AWAITING_DEPLOY).noneMatch(BindingStatus::isReappliable).noneMatch(BindingStatus::isTerminal);
    }

    @Test
    void bindingSetsCannotBeModified() {
        assertThatThrownBy(() -> BindingStatus.REAPPLIABLE.add(BindingStatus.VALIDATED))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> BindingStatus.AWAITING_APPROVAL.add(BindingStatus.MERGED))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void workflowStateRequiresAStepAndABindingOptional() {
        assertThatThrownBy(() -> new WorkflowState(null, Optional.empty(), ChangeKind.GRANT)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new WorkflowState(StepStatus.CALLED_BACK, null, ChangeKind.GRANT)).isInstanceOf(NullPointerException.class);
        assertThat(WorkflowState.of(StepStatus.CALLED_BACK, BindingStatus.VALIDATED))
                .hasToString("CALLED_BACK/VALIDATED");
        assertThat(WorkflowState.detached(StepStatus.CLOSE_DONE)).hasToString("CLOSE_DONE/(replaced)");
    }
}
