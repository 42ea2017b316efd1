package io.changeflow.application.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.query.RequestWait.WaitingFor;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.identity.Identity;
import io.changeflow.domain.request.OperationId;
import io.changeflow.application.recovery.FindOverdueRequests.Deadlines;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The request view says who is expected to act, since and until when, and when the next attempt is due. */
class RequestWaitTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    private RequestWait waitOf(OperationId id) {
        var op = app.op(id);
        return app.showRequest.show(new ShowChangeRequest.Command(id.value(), Identity.verified(op.requester())))
                .orElseThrow().waiting().orElseThrow();
    }

    @Test
    void aPendingPipelineIsWaitedForUntilThePendingDeadlineWithItsNextLook() {
        var id = app.createPipelinePending("alice");
        var pendingSince = app.clock.instant();

        var wait = waitOf(id);

        assertThat(wait.waitingFor()).isEqualTo(WaitingFor.PIPELINE);
        assertThat(wait.since()).isEqualTo(pendingSince);
        assertThat(wait.deadline()).contains(pendingSince.plus(app.policy.pendingGiveUpAfter()));
        assertThat(wait.checkedEvery()).contains(app.policy.pendingRecheck());
        assertThat(wait.nextAttemptAt()).contains(app.queue.pending(StepKind.CREATE, id.value()).orElseThrow().due());
        assertThat(wait.failing()).isEmpty();
    }

    @Test
    void transientFailuresShowTheFailingSystemTheNextAttemptAndWhenTheRetriesStop() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "bob");
        app.gitlab.failNext("defaultBranch", ExternalCallException.status("gitlab", 502, "Bad Gateway"));
        var firstFailure = app.clock.instant();
        app.queue.runNext();

        var wait = waitOf(id);

        assertThat(wait.waitingFor()).isEqualTo(WaitingFor.SERVICE);
        assertThat(wait.failing()).contains("gitlab");
        assertThat(wait.since()).isEqualTo(firstFailure);
        assertThat(wait.deadline()).contains(firstFailure.plus(Duration.ofHours(1)));
        assertThat(wait.nextAttemptAt()).contains(app.queue.pending(StepKind.CREATE, id.value()).orElseThrow().due());
    }

    @Test
    void aFailedRequestRetriedByTheJobShowsItsNextAttemptAndDeadline() {
        var id = app.submitAccepted(FakeTargets.SINGLE, "carol");
        app.gitlab.failNext("commit", new IllegalStateException("a bug"));
        app.queue.runUntilIdle();
        var failedAt = app.clock.instant();
        app.clock.advance(Duration.ofSeconds(1));
        app.retryTransientFailures();

        var wait = waitOf(id);

        assertThat(wait.waitingFor()).isEqualTo(WaitingFor.SERVICE);
        assertThat(wait.since()).isEqualTo(failedAt);
        assertThat(wait.deadline()).contains(failedAt.plus(Duration.ofHours(1)));
        assertThat(wait.nextAttemptAt()).isPresent();
    }

    @Test
    void theApproverTheDeployPipelineAndAPersonAreNamed() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var id = app.submittedAndRun("dave");
        var sent = app.op(id).updatedAt();
        assertThat(waitOf(id).waitingFor()).isEqualTo(WaitingFor.APPROVER);
        assertThat(waitOf(id).deadline()).as("the approval deadline").contains(sent.plus(Duration.ofDays(7)));

        app.decide(id, Decision.APPROVED);
        app.queue.runUntilIdle();
        var merged = app.op(id).updatedAt();
        assertThat(waitOf(id).waitingFor()).isEqualTo(WaitingFor.DEPLOY_PIPELINE);
        assertThat(waitOf(id).deadline()).as("the deploy deadline").contains(merged.plus(Duration.ofHours(2)));

        app.config.set(Settings.APPROVE_FIRST, "false");
        var broken = app.pipelineFailed("erin");
        var wait = waitOf(broken);
        assertThat(wait.waitingFor()).isEqualTo(WaitingFor.MAINTAINERS);
        assertThat(wait.deadline()).isEmpty();
    }

    @Test
    void theListsSayWhoActsNextAsTheRequestPageDoesForEveryStatusAndStep() {
        var waits = new RequestWaits(app.queue, app.policy, Deadlines.defaults());
        var statuses = new ArrayList<Optional<BindingStatus>>();
        statuses.add(Optional.empty());
        for (var status : BindingStatus.values()) {
            statuses.add(Optional.of(status));
        }
        var compared = 0;
        for (var status : statuses) {
            for (var step : StepStatus.values()) {
                var op = new Operation(OperationId.of(UUID.randomUUID().toString()), "alice", SubjectId.of("alice"),
                        TargetKey.of("db-prod-readonly"), "a walk", Optional.empty(), StepOrder.CREATE_FIRST, step, 3,
                        status, Optional.empty(), Optional.empty(), Optional.empty(), "", app.clock.instant(),
                        app.clock.instant(), ChangeKind.GRANT, Optional.empty());

                var onThePage = waits.of(op, List.of()).map(RequestWait::waitingFor);

                assertThat(RequestWaits.ownerOf(op)).as("%s at %s", status, step).isEqualTo(onThePage);
                assertThat(RequestView.summaryOf(op).waiting().map(RequestWait::waitingFor)).isEqualTo(onThePage);
                compared++;
            }
        }
        assertThat(compared).isEqualTo(statuses.size() * StepStatus.values().length);
    }

    @Test
    void myRecordsSayWhoActsNextSinceTheLastChangeAndNobodyForAGrantInEffect() {
        app.config.set(Settings.APPROVE_FIRST, "true");
        var asked = app.submittedAndRun("frank");
        var inEffect = app.grantInEffect("frank", "gina", app.clock.instant().plus(Duration.ofDays(3)));

        var page = app.myRequests.list(new ListMyRequests.Command("frank", 0, 10));

        var waiting = page.items().stream().filter(v -> v.operationId().equals(asked)).findFirst().orElseThrow().waiting();
        assertThat(waiting.map(RequestWait::waitingFor)).contains(WaitingFor.APPROVER);
        assertThat(waiting.map(RequestWait::since)).contains(app.op(asked).updatedAt());
        assertThat(waiting.flatMap(RequestWait::deadline)).as("the deadline is the request page's").isEmpty();
        assertThat(page.items().stream().filter(v -> v.operationId().equals(inEffect)).findFirst().orElseThrow().waiting())
                .isEmpty();
    }
}
