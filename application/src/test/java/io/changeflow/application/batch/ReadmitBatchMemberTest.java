package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.roundsUntilNothingWaits;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.recovery.OperatorAction;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An operator sends a failed batch member back to the waiting set (re-trigger of a culprit). */
class ReadmitBatchMemberTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void retriggeringACulpritReadmitsItToTheWaitingSetAndALaterRoundMergesIt() {
        var good = waiting(app, "anna");
        var culprit = waiting(app, "fail_pipeline");
        roundsUntilNothingWaits(app);
        assertThat(app.op(culprit).step()).isEqualTo(StepStatus.BATCH_PIPELINE_FAILED);
        var details = app.showOperation.show(new ShowOperation.Command(culprit.value())).orElseThrow();
        assertThat(details.allowedActions()).contains(OperatorAction.RETRIGGER);
        assertThat(details.retriggerStep()).contains(StepKind.BATCH);

        var result = app.retrigger.retrigger(new RetriggerStep.Command(culprit.value(), "otto", Map.of("ticket", "OPS-1")));

        assertThat(result).isEqualTo(new RetriggerStep.Result.Retriggered(culprit, StepKind.BATCH, true));
        assertThat(app.op(culprit).binding()).contains(BindingStatus.BATCH_WAITING);
        assertThat(app.op(culprit).batchId()).isEmpty();
        assertThat(app.batches.isWaiting(culprit)).isTrue();
        assertThat(app.audit.about(culprit.value())).singleElement().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("READMIT");
            assertThat(entry.actor()).isEqualTo("otto");
        });
        // a later round takes it like a fresh request; its change still breaks the pipeline, so it alone fails again
        var batches = roundsUntilNothingWaits(app);
        assertThat(batches).singleElement().satisfies(b -> {
            assertThat(b.members()).containsExactly(culprit);
            assertThat(b.depth()).isZero();
        });
        assertThat(app.op(culprit).step()).isEqualTo(StepStatus.BATCH_PIPELINE_FAILED);
        assertThat(app.op(good).binding()).contains(BindingStatus.MERGED);
    }

    @Test
    void onlyAFailedBatchMemberCanBeReadmitted() {
        var id = waiting(app, "ben");

        var result = app.readmit.readmit(new ReadmitBatchMember.Command(id.value(), "otto", Map.of()));

        assertThat(result).isInstanceOf(ReadmitBatchMember.Result.NotAllowed.class);
        assertThat(app.readmit.readmit(new ReadmitBatchMember.Command("nope", "otto", Map.of())))
                .isInstanceOf(ReadmitBatchMember.Result.NotFound.class);
    }
}
