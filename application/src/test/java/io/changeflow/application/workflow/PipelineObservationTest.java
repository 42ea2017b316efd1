package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.polling.PollObservation;
import io.changeflow.domain.request.PipelinePolicy;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How the latest pipeline reads for the merge request's head: only the head's own pipeline decides, as the target's
 * pipeline policy reads it ({@link HeadPipeline}).
 */
class PipelineObservationTest {

    private static final String HEAD = "b".repeat(40);
    private static final String EARLIER = "a".repeat(40);

    @Test
    void noPipelineYetReadsAsRunning() {
        assertThat(PipelineWatch.observationWithoutPipeline()).isEqualTo(PollObservation.RUNNING);
    }

    @Test
    void theHeadsOwnPipelineReadsAsItsStatus() {
        var expected = Map.of(PipelineStatus.RUNNING, PollObservation.RUNNING, PipelineStatus.PASSED, PollObservation.PASSED,
                PipelineStatus.FAILED, PollObservation.FAILED, PipelineStatus.MANUAL, PollObservation.FAILED,
                PipelineStatus.SKIPPED, PollObservation.FAILED, PipelineStatus.CANCELED, PollObservation.FAILED,
                PipelineStatus.UNKNOWN, PollObservation.RUNNING);
        for (var status : PipelineStatus.values()) {
            assertThat(PipelineWatch.observation(new Pipeline(7, HEAD, status), HEAD))
                    .as("%s", status).isEqualTo(expected.get(status));
        }
    }

    @Test
    void aPipelineOfAnEarlierHeadReadsAsRunningWhateverItsStatus() {
        for (var status : PipelineStatus.values()) {
            assertThat(PipelineWatch.observation(new Pipeline(7, EARLIER, status), HEAD))
                    .as("%s of the earlier head", status).isEqualTo(PollObservation.RUNNING);
        }
    }

    @Test
    void aPipelineWithoutAShaOrAMergeRequestWithoutAHeadNeverPasses() {
        assertThat(PipelineWatch.observation(new Pipeline(7, null, PipelineStatus.PASSED), HEAD))
                .isEqualTo(PollObservation.RUNNING);
        assertThat(PipelineWatch.observation(new Pipeline(7, "", PipelineStatus.PASSED), ""))
                .isEqualTo(PollObservation.RUNNING);
        assertThat(PipelineWatch.observation(new Pipeline(7, HEAD, PipelineStatus.PASSED), null))
                .isEqualTo(PollObservation.RUNNING);
    }

    @Test
    void everyStatusOfTheHeadsPipelineReadsAsTheTargetsPolicySays() {
        var counts = HeadPipeline.Look.Counts.class;
        var waiting = HeadPipeline.Look.Waiting.class;
        var notRun = HeadPipeline.Look.NotRun.class;
        var failed = HeadPipeline.Look.Failed.class;
        var required = Map.of(PipelineStatus.PASSED, counts, PipelineStatus.RUNNING, waiting, PipelineStatus.UNKNOWN, waiting,
                PipelineStatus.MANUAL, notRun, PipelineStatus.SKIPPED, notRun, PipelineStatus.CANCELED, notRun,
                PipelineStatus.FAILED, failed);
        var manualCounts = Map.of(PipelineStatus.PASSED, counts, PipelineStatus.RUNNING, waiting, PipelineStatus.UNKNOWN, waiting,
                PipelineStatus.MANUAL, counts, PipelineStatus.SKIPPED, counts, PipelineStatus.CANCELED, notRun,
                PipelineStatus.FAILED, failed);
        for (var status : PipelineStatus.values()) {
            var pipeline = new Pipeline(7, HEAD, status);
            assertThat(HeadPipeline.of(pipeline, HEAD, PipelinePolicy.REQUIRED)).as("required, %s", status)
                    .isInstanceOf(required.get(status));
            assertThat(HeadPipeline.of(pipeline, HEAD, PipelinePolicy.MANUAL_COUNTS)).as("manual-counts, %s", status)
                    .isInstanceOf(manualCounts.get(status));
            assertThat(HeadPipeline.of(pipeline, HEAD, PipelinePolicy.NONE)).as("none, %s", status)
                    .isEqualTo(new HeadPipeline.Look.Counts(Optional.empty()));
            var earlier = new Pipeline(7, EARLIER, status);
            assertThat(HeadPipeline.of(earlier, HEAD, PipelinePolicy.MANUAL_COUNTS)).as("an earlier head's %s", status)
                    .isInstanceOf(waiting);
        }
        assertThat(HeadPipeline.withoutPipeline(PipelinePolicy.MANUAL_COUNTS)).as("a head without a pipeline yet")
                .isInstanceOf(waiting);
        assertThat(HeadPipeline.withoutPipeline(PipelinePolicy.NONE)).as("a target without CI")
                .isInstanceOf(counts);
    }
}
