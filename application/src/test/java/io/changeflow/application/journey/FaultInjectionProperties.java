package io.changeflow.application.journey;

import static io.changeflow.propertytesting.Generators.booleans;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Whatever GitLab and the approval system throw at the workflow, once the work queue is idle every
 * request is terminal, failed with an explicit state, or explicitly waiting (for the approver, the
 * deploy report, or a pending pipeline): never "processing" with nothing running. And our state
 * never disagrees with GitLab about what was merged, including when GitLab creates a new head's
 * pipeline late (the latest pipeline is then the previous head's, which must not count).
 */
class FaultInjectionProperties {

    private static final List<String> GITLAB_METHODS = List.of("readFile", "defaultBranch", "createBranch", "commit",
            "findBySourceBranch", "open", "get", "latestPipeline", "approvedBy", "approve", "merge", "rebase");

    private static final EnumSet<BindingStatus> PROCESSING = EnumSet.of(BindingStatus.APPROVAL_SENDING,
            BindingStatus.MR_CREATING, BindingStatus.MR_CREATED, BindingStatus.MERGING);

    /** One injected fault: where, and how (0 transient 502, 1 timeout, 2 unexpected, 3 lost approve answer, 4 lost merge answer). */
    record Fault(String method, int kind) {}

    /**
     * One run: the faults, the step order, whether the merge needs a rebase, whether the approval system
     * is flaky, and after how many looks GitLab shows a new head's pipeline (0: at once).
     */
    record Scenario(List<Fault> faults, boolean approveFirst, boolean needsRebase, boolean approvalFlaky,
                    int pipelineDelay) {}

    private static Generator<Scenario> scenarios() {
        Generator<Fault> fault = s -> new Fault(elements(GITLAB_METHODS).generate(s), ints(0, 4).generate(s));
        var faults = lists(fault, 0, 12);
        var flags = booleans();
        var delays = ints(0, 3);
        return s -> new Scenario(faults.generate(s), flags.generate(s), flags.generate(s), flags.generate(s),
                delays.generate(s));
    }

    @Test
    void everyRequestEndsTerminalFailedOrExplicitlyWaiting() {
        var endStates = EnumSet.noneOf(BindingStatus.class);

        Property.forAll(scenarios()).tries(60).check(scenario -> endStates.addAll(runAndCheck(scenario)));

        // Not vacuous: at least the fault-free run (always the first try) goes all the way.
        assertThat(endStates).contains(BindingStatus.VALIDATED);
    }

    /** Runs {@code scenario} to the end, checks every request's end state, and returns the end states. */
    private static Set<BindingStatus> runAndCheck(Scenario scenario) {
        var app = new InMemoryChangeflow();
        app.config.set(Settings.APPROVE_FIRST, String.valueOf(scenario.approveFirst()));
        app.gitlab.nextPipelineDelay(scenario.pipelineDelay());
        if (scenario.needsRebase()) {
            app.gitlab.nextNeedRebase(false, PipelineStatus.RUNNING, PipelineStatus.PASSED);
        }
        scenario.faults().forEach(f -> inject(app, f));
        if (scenario.approvalFlaky()) {
            app.approvals.failNextSubmit(ExternalCallException.status("approval", 503, "down"));
            app.approvals.loseNextAnswer();
        }
        var ids = new ArrayList<OperationId>();
        ids.add(app.submitAccepted(FakeTargets.SINGLE, "alice"));
        ids.add(app.submitAccepted(FakeTargets.SINGLE, "bob"));

        settle(app);
        for (var id : ids) {
            if (app.op(id).binding().map(BindingStatus::isAwaitingApproval).orElse(false)) {
                app.decide(id, Decision.APPROVED);
            }
        }
        settle(app);
        for (var id : ids) {
            if (app.op(id).binding().equals(Optional.of(BindingStatus.MERGED))) {
                app.deployed(id);
            }
        }

        var endStates = EnumSet.noneOf(BindingStatus.class);
        for (var id : ids) {
            var op = app.op(id);
            var status = op.binding().orElseThrow();
            endStates.add(status);
            assertThat(!PROCESSING.contains(status) || NextAction.PENDING.contains(op.step()))
                    .as("%s must not be left processing at %s", id, op.state()).isTrue();
            var mergedOnGitLab = op.mergeRequest()
                    .flatMap(mr -> app.gitlab.find(mr.project(), mr.iid()))
                    .map(mr -> mr.state() == MergeRequestState.MERGED).orElse(false);
            assertThat(mergedOnGitLab).as("GitLab and %s agree on merged (%s)", id, op.state())
                    .isEqualTo(status == BindingStatus.VALIDATED || status == BindingStatus.MERGED);
        }
        assertThat(app.gitlab.merges()).isLessThanOrEqualTo(ids.size());
        return endStates;
    }

    /** Runs the queue until idle; an escaping exception is the scheduler's retry, so keep going. */
    private static void settle(InMemoryChangeflow app) {
        for (var rounds = 0; rounds < 20; rounds++) {
            try {
                app.queue.runUntilIdle(2000);
                return;
            } catch (RuntimeException retriedByTheScheduler) {
                // the task stays queued and runs again later, exactly like the scheduler adapter
            }
        }
        throw new AssertionError("the queue did not settle");
    }

    private static void inject(InMemoryChangeflow app, Fault fault) {
        switch (fault.kind()) {
            case 0 -> app.gitlab.failNext(fault.method(), ExternalCallException.status("gitlab", 502, "Bad Gateway"));
            case 1 -> app.gitlab.failNext(fault.method(),
                    new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "timeout", null));
            case 2 -> app.gitlab.failNext(fault.method(), new IllegalStateException("unexpected"));
            case 3 -> app.gitlab.loseNextApproveAnswer(InMemoryChangeflow.BOTS.get(fault.method().length() % 2));
            default -> app.gitlab.loseNextMergeAnswer();
        }
    }
}
