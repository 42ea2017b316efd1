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
import java.time.Duration;
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
}
