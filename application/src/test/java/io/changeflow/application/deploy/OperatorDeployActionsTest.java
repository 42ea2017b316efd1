package io.changeflow.application.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Issue 20 item 3: an operator confirms a merged change in effect, or marks its rollout failed; both audited. */
class OperatorDeployActionsTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private OperationId merged(String subject) {
        return app.merged(subject);
    }

    private OperationId unconfirmed(String subject) {
        var id = merged(subject);
        app.clock.advance(Duration.ofHours(3));
        app.deployDeadline.run(new DeployDeadline.Command());
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);
        return id;
    }

    private ConfirmDeployed.Result confirm(OperationId id) {
        return app.confirmDeployed.confirm(new DeployActionCommand(id.value(), "otto", Map.of("note", "checked")));
    }

    private MarkDeployFailed.Result markFailed(OperationId id) {
        return app.markDeployFailed.mark(new DeployActionCommand(id.value(), "otto", Map.of()));
    }

    @Test
    void confirmingAnUnconfirmedRequestMakesItValidatedOnceAndASecondConfirmSaysSo() {
        var id = unconfirmed("alice");

        assertThat(confirm(id)).isEqualTo(new ConfirmDeployed.Result.Confirmed(id));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(id).hint()).isEqualTo(Hint.NONE);
        assertThat(app.operations.history(id).getLast().actor()).isEqualTo("otto");
        assertThat(app.metrics.total("validated")).isEqualTo(1);

        assertThat(confirm(id)).isEqualTo(new ConfirmDeployed.Result.AlreadyInEffect());
        assertThat(app.deployed(id).advanced()).as("a late report changes nothing").isZero();
        assertThat(app.metrics.total("validated")).isEqualTo(1);

        assertThat(app.audit.about(id.value())).extracting(e -> e.action() + "/" + e.actor() + "/" + e.parameters().get("result"))
                .containsExactly("CONFIRM_DEPLOYED/otto/Confirmed", "CONFIRM_DEPLOYED/otto/AlreadyInEffect");
        assertThat(app.audit.about(id.value()).getFirst().parameters()).containsEntry("note", "checked");
    }

    @Test
    void confirmingWorksFromMergedAndFromAFailedDeployToo() {
        var merged = merged("bob");
        var failed = merged("carol");
        markFailed(failed);

        assertThat(confirm(merged)).isInstanceOf(ConfirmDeployed.Result.Confirmed.class);
        assertThat(confirm(failed)).isInstanceOf(ConfirmDeployed.Result.Confirmed.class);
        assertThat(app.op(failed).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.total("validated")).isEqualTo(2);
    }

    @Test
    void aRequestThatIsNotMergedCannotBeConfirmedAndAnUnknownOneIsNotFound() {
        var waiting = app.submittedAndRun("dave");

        assertThat(confirm(waiting)).isInstanceOf(ConfirmDeployed.Result.NotAllowed.class);
        assertThat(((ConfirmDeployed.Result.NotAllowed) confirm(waiting)).reason()).contains("APPROVAL_SENT");
        assertThat(app.op(waiting).binding()).contains(BindingStatus.APPROVAL_SENT);
        assertThat(app.confirmDeployed.confirm(new DeployActionCommand("not-an-id", "otto", Map.of())))
                .isEqualTo(new ConfirmDeployed.Result.NotFound());
        assertThat(app.metrics.total("validated")).isZero();
    }

    @Test
    void aRequestReplacedByANewerOneCanBeNeitherConfirmedNorMarkedFailed() {
        var first = app.rejected("xavier");
        app.submitAccepted(FakeTargets.SINGLE, "xavier");
        assertThat(app.op(first).binding()).isEmpty();

        assertThat(confirm(first)).isInstanceOfSatisfying(ConfirmDeployed.Result.NotAllowed.class,
                notAllowed -> assertThat(notAllowed.reason()).contains("replaced by a newer request"));
        assertThat(markFailed(first)).isInstanceOfSatisfying(MarkDeployFailed.Result.NotAllowed.class,
                notAllowed -> assertThat(notAllowed.reason()).contains("replaced by a newer request"));
        assertThat(app.op(first).binding()).isEmpty();
        assertThat(app.metrics.total("validated")).isZero();
    }

    @Test
    void markingFailedMovesMergedOrUnconfirmedToDeployFailedAndIsAudited() {
        var unconfirmed = unconfirmed("frank");
        var merged = merged("erin");

        assertThat(markFailed(merged)).isEqualTo(new MarkDeployFailed.Result.Marked(merged));
        assertThat(markFailed(unconfirmed)).isEqualTo(new MarkDeployFailed.Result.Marked(unconfirmed));
        for (var id : List.of(merged, unconfirmed)) {
            assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_FAILED);
            assertThat(app.op(id).hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
            assertThat(app.op(id).detail()).contains("marked by an operator");
        }
        assertThat(markFailed(merged)).isEqualTo(new MarkDeployFailed.Result.AlreadyFailed());
        assertThat(app.metrics.count("failed", "DEPLOY_FAILED")).isEqualTo(2);
        assertThat(app.audit.about(merged.value())).extracting(e -> e.action() + "/" + e.parameters().get("result"))
                .containsExactly("MARK_DEPLOY_FAILED/Marked", "MARK_DEPLOY_FAILED/AlreadyFailed");
    }

    @Test
    void aReportArrivingBetweenTheOperatorsReadAndWriteWinsAndIsCountedOnce() {
        var confirmed = unconfirmed("hank");
        app.operations.beforeNextWrite(() -> app.deployed(confirmed));

        assertThat(confirm(confirmed)).isEqualTo(new ConfirmDeployed.Result.AlreadyInEffect());
        assertThat(app.metrics.total("validated")).isEqualTo(1);

        var marked = unconfirmed("ida");
        app.operations.beforeNextWrite(() -> app.deployed(marked));

        assertThat(markFailed(marked)).isInstanceOf(MarkDeployFailed.Result.NotAllowed.class);
        assertThat(app.op(marked).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.total("validated")).isEqualTo(2);
    }

    @Test
    void markingFailedIsPinnedToTheVersionReadSoAMoveInBetweenIsAnsweredNotOverwritten() {
        var id = merged("jack");
        // between the operator's read and write, the deploy deadline moves it on (MERGED -> DEPLOY_UNCONFIRMED)
        app.operations.beforeNextWrite(() -> {
            app.clock.advance(Duration.ofHours(3));
            app.deployDeadline.run(new DeployDeadline.Command());
        });

        var answer = markFailed(id);

        assertThat(answer).isInstanceOfSatisfying(MarkDeployFailed.Result.NotAllowed.class,
                notAllowed -> assertThat(notAllowed.reason()).contains("changed meanwhile").contains("DEPLOY_UNCONFIRMED"));
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);
        assertThat(markFailed(id)).isEqualTo(new MarkDeployFailed.Result.Marked(id));
    }

    @Test
    void aValidatedRequestCannotBeMarkedFailed() {
        var id = merged("grace");
        app.deployed(id);

        assertThat(markFailed(id)).isInstanceOf(MarkDeployFailed.Result.NotAllowed.class);
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.markDeployFailed.mark(new DeployActionCommand("0a0a0000-0000-4000-8000-999999999999", "otto",
                Map.of()))).isEqualTo(new MarkDeployFailed.Result.NotFound());
    }

    @Test
    void theConsoleIsOfferedEachActionOnlyWhereItHelps() {
        assertThat(ConfirmDeployed.allowedFrom(BindingStatus.MERGED)).isTrue();
        assertThat(ConfirmDeployed.allowedFrom(BindingStatus.DEPLOY_UNCONFIRMED)).isTrue();
        assertThat(ConfirmDeployed.allowedFrom(BindingStatus.DEPLOY_FAILED)).isTrue();
        assertThat(ConfirmDeployed.allowedFrom(BindingStatus.VALIDATED)).isFalse();
        assertThat(ConfirmDeployed.allowedFrom(BindingStatus.MERGING)).isFalse();
        assertThat(MarkDeployFailed.allowedFrom(BindingStatus.MERGED)).isTrue();
        assertThat(MarkDeployFailed.allowedFrom(BindingStatus.DEPLOY_UNCONFIRMED)).isTrue();
        assertThat(MarkDeployFailed.allowedFrom(BindingStatus.DEPLOY_FAILED)).isFalse();
        assertThat(MarkDeployFailed.allowedFrom(BindingStatus.VALIDATED)).isFalse();
    }

    @Test
    void aConfirmRacingTheDeployReportFlipsOnceAndCountsOnce() throws Exception {
        for (int round = 0; round < 20; round++) {
            var id = unconfirmed("race" + round);
            var start = new CountDownLatch(1);
            var pool = Executors.newFixedThreadPool(2);
            try {
                var results = new ArrayList<Future<Boolean>>();
                results.add(pool.submit((Callable<Boolean>) () -> {
                    start.await();
                    return confirm(id) instanceof ConfirmDeployed.Result.Confirmed;
                }));
                results.add(pool.submit((Callable<Boolean>) () -> {
                    start.await();
                    return app.deployed(id).advanced() == 1;
                }));
                start.countDown();
                var flips = 0;
                for (var result : results) {
                    flips += result.get(10, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(flips).as("round " + round).isEqualTo(1);
                assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(app.metrics.total("validated")).isEqualTo(20);
    }
}
