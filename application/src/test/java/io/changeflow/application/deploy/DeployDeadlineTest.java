package io.changeflow.application.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.CallbackAnswer;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.config.RawValue;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 20 item 3: a merged request whose deploy report never comes ends in an explicit state. */
class DeployDeadlineTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private OperationId merged(String subject) {
        return app.merged(subject);
    }

    private DeployDeadline.Result runDeadline() {
        return app.deployDeadline.run(new DeployDeadline.Command());
    }

    @Test
    void aMergedRequestUnconfirmedPastTheDeadlineIsDeployUnconfirmedWithContactMaintainers() {
        var id = merged("alice");
        app.clock.advance(Duration.ofHours(2).plusSeconds(1));

        assertThat(runDeadline()).isEqualTo(new DeployDeadline.Result(1, 1));

        var op = app.assertState(id, BindingStatus.DEPLOY_UNCONFIRMED, StepStatus.DEPLOY_UNCONFIRMED, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("no deploy report confirmed it within 2 h").doesNotContain("Exception");
        assertThat(app.metrics.count("failed", "DEPLOY_UNCONFIRMED")).isEqualTo(1);
        assertThat(runDeadline()).as("moved once").isEqualTo(new DeployDeadline.Result(0, 0));
    }

    @Test
    void theSubjectAndTargetStayBlockedForANewRequestWhileTheDeployIsUnconfirmedOrFailed() {
        var id = merged("paul");
        app.clock.advance(Duration.ofHours(3));
        runDeadline();

        var again = app.submit("paul", InMemoryChangeflow.submission(InMemoryChangeflow.newOperationId(), FakeTargets.SINGLE, "paul"));
        assertThat(again).isInstanceOf(SubmitChangeRequest.Result.RequestInProgress.class);

        var mr = app.mr(id);
        app.deployCallback.handle(new HandleDeployCallback.Command("failed-paul", mr.project(), mr.iid(), "failed", List.of()));
        var once = app.submit("paul", InMemoryChangeflow.submission(InMemoryChangeflow.newOperationId(), FakeTargets.SINGLE, "paul"));
        assertThat(once).isInstanceOf(SubmitChangeRequest.Result.RequestInProgress.class);
        assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_FAILED);
    }

    @Test
    void aMergedRequestWithinTheDeadlineKeepsWaitingForItsReport() {
        var id = merged("bob");
        app.clock.advance(Duration.ofHours(2).minusSeconds(1));

        assertThat(runDeadline()).isEqualTo(new DeployDeadline.Result(0, 0));
        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aLateReportStillMakesAnUnconfirmedRequestValidatedAndCountsItOnce() {
        var id = merged("carol");
        app.clock.advance(Duration.ofHours(3));
        runDeadline();

        var report = app.deployed(id);

        assertThat(report.advanced()).isEqualTo(1);
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(id).hint()).isEqualTo(Hint.NONE);
        assertThat(app.deployed(id).advanced()).isZero();
        assertThat(app.metrics.total("validated")).isEqualTo(1);
    }

    @Test
    void aFailedReportMarksTheRequestDeployFailedAndALaterSuccessStillValidatesIt() {
        var unconfirmed = merged("erin");
        app.clock.advance(Duration.ofHours(3));
        runDeadline();
        var merged = merged("dave");
        assertThat(app.op(unconfirmed).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);

        for (var id : List.of(merged, unconfirmed)) {
            var mr = app.mr(id);
            var result = app.deployCallback.handle(new HandleDeployCallback.Command("failed-" + id.value(), mr.project(),
                    mr.iid(), "FAILED", List.of()));
            assertThat(result.advanced()).isZero();
            assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_FAILED);
            assertThat(app.op(id).hint()).isEqualTo(Hint.CONTACT_MAINTAINERS);
            assertThat(app.op(id).detail()).contains("reported").contains("failed");
        }
        assertThat(app.metrics.count("failed", "DEPLOY_FAILED")).isEqualTo(2);

        var mr = app.mr(merged);
        var duplicate = app.deployCallback.handle(new HandleDeployCallback.Command("failed-" + merged.value(), mr.project(),
                mr.iid(), "failed", List.of()));
        assertThat(duplicate.answer()).isEqualTo(CallbackAnswer.DUPLICATE);

        assertThat(app.deployed(merged).advanced()).isEqualTo(1);
        assertThat(app.op(merged).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.total("validated")).isEqualTo(1);
    }

    @Test
    void aFailedReportNamingAnOperationOfAnotherMergeRequestMovesNothingAndCountsIt() {
        var named = merged("frank");
        var other = merged("grace");

        var result = app.deployCallback.handle(new HandleDeployCallback.Command("failed-named", FakeTargets.PROJECT,
                app.mr(other).iid(), "failed", List.of(named.value())));

        assertThat(result.ignored()).isEqualTo(1);
        assertThat(app.op(named).binding()).contains(BindingStatus.MERGED);
        assertThat(app.op(other).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aFailedReportDoesNotUndoAValidatedRequest() {
        var id = merged("heidi");
        app.deployed(id);
        var mr = app.mr(id);

        app.deployCallback.handle(new HandleDeployCallback.Command("late-failed", mr.project(), mr.iid(), "failed", List.of()));

        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
    }

    @Test
    void oneRunPagesThroughEveryCandidateAndTheNextRunGoesOnWhereItStopped() {
        var deadline = new DeployDeadline(app.operations, app.changes,
                new DeployDeadline.Policy(Duration.ofHours(2), Duration.ofMinutes(1), 2, 2));
        var ids = List.of(merged("s1"), merged("s2"), merged("s3"), merged("s4"), merged("s5"));
        app.clock.advance(Duration.ofHours(3));

        assertThat(deadline.run(new DeployDeadline.Command()).unconfirmed()).isEqualTo(4);
        assertThat(deadline.run(new DeployDeadline.Command()).unconfirmed()).isEqualTo(1);
        assertThat(ids).allSatisfy(id -> assertThat(app.op(id).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED));
    }

    @Test
    void aRequestThatAReportMovedAfterItWasReadIsSkipped() {
        var id = merged("ivan");
        app.clock.advance(Duration.ofHours(3));
        // the page is read, then the deploy report comes in before the deadline's write
        var racing = (Operations) Proxy.newProxyInstance(Operations.class.getClassLoader(), new Class<?>[] {Operations.class},
                (proxy, method, args) -> {
                    try {
                        var answer = method.invoke(app.operations, args);
                        if (method.getName().equals("mergedLongerThan")) {
                            app.deployed(id);
                        }
                        return answer;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        var deadline = new DeployDeadline(racing, app.changes, DeployDeadline.Policy.defaults());

        assertThat(deadline.run(new DeployDeadline.Command())).isEqualTo(new DeployDeadline.Result(1, 0));
        assertThat(app.op(id).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.metrics.total("validated")).isEqualTo(1);
        assertThat(app.metrics.count("failed", "DEPLOY_UNCONFIRMED")).isZero();
    }

    @Test
    void aBadDeadlineOrIntervalFallsBackToItsDefault() {
        for (var bad : List.of(Optional.<String>empty(), Optional.of(""), Optional.of("  "), Optional.of("soon"),
                Optional.of("2x"), Optional.of("0"), Optional.of("0s"), Optional.of("-5m"), Optional.of("PT-2H"),
                Optional.of("PT0S"), Optional.of("P"), Optional.of("99999999999999999999h"), Optional.of("2h\u0000"))) {
            var policy = DeployDeadline.Policy.of(new RawValue(bad), new RawValue(bad));
            assertThat(policy.deadline()).as("deadline %s", bad).isEqualTo(Duration.ofHours(2));
            assertThat(policy.every()).as("every %s", bad).isEqualTo(Duration.ofMinutes(1));
        }
    }

    @Test
    void aReadableDeadlineOrIntervalIsTaken() {
        assertThat(DeployDeadline.Policy.of(RawValue.of("2m"), RawValue.of("10s")))
                .extracting(DeployDeadline.Policy::deadline, DeployDeadline.Policy::every)
                .containsExactly(Duration.ofMinutes(2), Duration.ofSeconds(10));
        assertThat(DeployDeadline.Policy.of(RawValue.of(" PT90M "), RawValue.of("500ms")).deadline())
                .isEqualTo(Duration.ofMinutes(90));
        assertThat(DeployDeadline.Policy.of(RawValue.of("3H"), RawValue.of("1500")).every()).isEqualTo(Duration.ofMillis(1500));
        assertThat(DeployDeadline.Policy.of(RawValue.of("1d"), RawValue.missing()).deadline()).isEqualTo(Duration.ofDays(1));
    }

    @ParameterizedTest(name = "{0} reads \"{1}\"")
    @CsvSource({"PT2H, 2 h", "PT2M, 2 min", "PT90S, 90 s", "PT90M, 90 min", "PT20S, 20 s"})
    void theNoteSaysTheDeadlineAsAPersonReadsIt(Duration deadline, String readable) {
        assertThat(DeployDeadline.readable(deadline)).isEqualTo(readable);
    }
}
