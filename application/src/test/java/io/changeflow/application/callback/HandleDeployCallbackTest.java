package io.changeflow.application.callback;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.state.BindingStatus;
import java.util.List;
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
}
