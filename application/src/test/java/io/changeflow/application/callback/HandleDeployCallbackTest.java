package io.changeflow.application.callback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A deploy report claims only the operations merged by the merge request it names (issue 37). */
class HandleDeployCallbackTest {

    /** How most line parsers split text: CR, LF, CRLF, U+0085, U+2028, U+2029 (Java's {@code \R}). */
    private static final Pattern ANY_LINE_BREAK = Pattern.compile("\\R");

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    private HandleDeployCallback.Result report(String delivery, OperationId of, String status, List<String> listed) {
        return app.deployCallback.handle(new HandleDeployCallback.Command(delivery, FakeTargets.PROJECT, app.mr(of).iid(),
                status, listed));
    }

    @Test
    void aSuccessReportListingAnotherMergeRequestsOperationLeavesItAloneAndCountsIt() {
        var alice = app.merged("alice");
        var bob = app.merged("bob");

        var result = report("d-1", alice, "success", List.of(bob.value(), alice.value()));

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1, 1));
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(bob).binding()).contains(BindingStatus.MERGED);
        // reconciliation's exact matching never learns the foreign ID from this report either
        assertThat(app.inbox.deployedOperations(List.of(alice, bob))).containsExactly(alice);
    }

    @Test
    void unknownAndGarbledListedIdsAreIgnoredAndCounted() {
        var alice = app.merged("alice");

        var result = report("d-2", alice, "success", List.of("not-an-id", InMemoryChangeflow.newOperationId(), ""));

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 0, 3));
        assertThat(app.op(alice).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aRepeatedReportNamingAnotherMergeRequestsOperationLeavesItAlone() {
        var alice = app.merged("alice");
        var bob = app.merged("bob");
        // the first delivery's instance recorded the ID and stopped before it stored the report
        assertThat(app.inbox.firstDelivery(HandleDeployCallback.SOURCE, "d-3")).isTrue();

        var repeat = report("d-3", alice, "success", List.of(alice.value(), bob.value()));

        assertThat(repeat).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.DUPLICATE, 1, 1));
        assertThat(app.op(bob).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aForgedOperationLineInAReasonNeverLetsTheRequestersDeployReportFlipAnotherRequest() {
        var victim = app.merged("victim");
        var forged = "for the audit\r" + MergeRequestTexts.OPERATION_TRAILER + victim.value()
                + "\u2028" + MergeRequestTexts.OPERATION_TRAILER + victim.value()
                + "\u2029 " + MergeRequestTexts.OPERATION_TRAILER + victim.value() + "\n";
        var id = InMemoryChangeflow.newOperationId();
        app.submit("mallory", new Submission(id, FakeTargets.SINGLE.value(), "mallory", forged, null));
        var mallory = OperationId.of(id);
        app.approveAndRun(mallory);
        assertThat(app.op(mallory).binding()).contains(BindingStatus.MERGED);

        // the deploy pipeline reads the IDs from the description, line by line, as most parsers split lines
        var description = app.gitlab.description(FakeTargets.PROJECT, app.mr(mallory).iid());
        var listed = ANY_LINE_BREAK.splitAsStream(description).map(String::strip)
                .filter(line -> line.startsWith(MergeRequestTexts.OPERATION_TRAILER.strip()))
                .map(line -> line.substring(MergeRequestTexts.OPERATION_TRAILER.length()).strip()).toList();
        assertThat(listed).containsExactly(mallory.value());

        // and even a report that lists the victim's ID for mallory's merge request does not touch the victim
        var failed = report("d-4", mallory, "failed", List.of(victim.value()));
        var success = report("d-5", mallory, "success", List.of(mallory.value(), victim.value()));

        assertThat(failed.ignored()).isEqualTo(1);
        assertThat(success).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1, 1));
        assertThat(app.op(victim).binding()).contains(BindingStatus.MERGED);
        assertThat(app.op(mallory).binding()).contains(BindingStatus.VALIDATED);
    }

    // ---- issue 37: a deploy of main at a commit ------------------------------------------------------------

    private String mergedCommitOf(OperationId id) {
        return app.gitlab.mergedCommit(FakeTargets.PROJECT, app.mr(id).iid()).orElseThrow();
    }

    private HandleDeployCallback.Result reportMainAt(String delivery, String sha, String status, List<String> listed) {
        return app.deployCallback.handle(HandleDeployCallback.Command.atCommit(delivery, FakeTargets.PROJECT,
                Optional.of("main"), sha, status, listed));
    }

    @Test
    void aReportOfMainAtAMergedCommitCoversTheRequestsMergedAtOrBeforeItAndNoneMergedAfter() {
        var alice = app.merged("alice");
        var bob = app.merged("bob");
        var carol = app.merged("carol");
        var atBob = mergedCommitOf(bob);
        var asked = app.gitlab.calls().getOrDefault("isAncestor", 0);

        var result = reportMainAt("c-1", atBob, "success", List.of());

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 2, 0));
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(bob).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(carol).binding()).as("merged after the deployed commit").contains(BindingStatus.MERGED);
        assertThat(app.gitlab.calls().getOrDefault("isAncestor", 0) - asked)
                .as("GitLab is asked about every other merge's commit, once each; bob's is the commit itself").isEqualTo(2);
        assertThat(app.operations.history(bob)).last().extracting(h -> h.detail()).asString()
                .contains("main at commit " + atBob);
        // reconciliation's exact matching learns exactly what the report covered
        assertThat(app.inbox.deployedOperations(List.of(alice, bob, carol))).containsExactlyInAnyOrder(alice, bob);
    }

    @Test
    void aReportAtACommitThatNoMergeOfOursPutAsksGitLabWhichMergesItHolds() {
        var alice = app.merged("alice");
        var personsCommit = app.gitlab.commitOnMain(FakeTargets.PROJECT);
        var bob = app.merged("bob");

        var result = reportMainAt("c-2", personsCommit, "success", List.of());

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1, 0));
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(bob).binding()).contains(BindingStatus.MERGED);
        assertThat(reportMainAt("c-3", "0123456789abcdef0123456789abcdef01234567", "success", List.of()))
                .as("a commit GitLab does not know holds nothing").isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 0, 0));
        assertThat(app.op(bob).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void idsAReportAtACommitListsFreelyThatAreNotMergedIntoItAreIgnoredAndCounted() {
        var alice = app.merged("alice");
        var bob = app.merged("bob");

        var result = reportMainAt("c-4", mergedCommitOf(alice), "success",
                List.of(alice.value(), bob.value(), "not-an-id"));

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1, 2));
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
        assertThat(app.op(bob).binding()).contains(BindingStatus.MERGED);
        assertThat(app.inbox.deployedOperations(List.of(alice, bob))).containsExactly(alice);
    }

    @Test
    void aFailedReportAtACommitMarksOnlyWhatItHoldsDeployFailed() {
        var alice = app.merged("alice");
        var bob = app.merged("bob");

        var result = reportMainAt("c-5", mergedCommitOf(alice), "FAILED", List.of(alice.value(), bob.value()));

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 0, 1));
        assertThat(app.op(alice).binding()).contains(BindingStatus.DEPLOY_FAILED);
        assertThat(app.op(bob).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void aReportAtACommitGitLabCannotBeAskedAboutMovesNothingAndItsRetryIsProcessed() {
        var alice = app.merged("alice");
        var personsCommit = app.gitlab.commitOnMain(FakeTargets.PROJECT);
        app.gitlab.failNext("isAncestor", ExternalCallException.status("gitlab", 503, "503 Service Unavailable"));

        assertThatThrownBy(() -> reportMainAt("c-6", personsCommit, "success", List.of()))
                .isInstanceOf(ExternalCallException.class);
        assertThat(app.op(alice).binding()).contains(BindingStatus.MERGED);

        assertThat(reportMainAt("c-6", personsCommit, "success", List.of()))
                .as("the sender's retry of the same delivery").isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1, 0));
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
    }

    @Test
    void aReportAtACommitConfirmsARequestWhoseDeployDeadlinePassed() {
        var alice = app.merged("alice");
        app.changes.apply(app.op(alice), WorkflowEvent.DEPLOY_DEADLINE_PASSED, "no deploy report in time");
        assertThat(app.op(alice).binding()).contains(BindingStatus.DEPLOY_UNCONFIRMED);

        var result = reportMainAt("c-7", mergedCommitOf(alice), "success", List.of());

        assertThat(result).isEqualTo(new HandleDeployCallback.Result(CallbackAnswer.PROCESSED, 1, 0));
        assertThat(app.op(alice).binding()).contains(BindingStatus.VALIDATED);
    }
}
