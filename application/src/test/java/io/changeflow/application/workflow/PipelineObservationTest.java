package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.MergeRequests.Pipeline;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.polling.PollObservation;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How the latest pipeline reads for the merge request's head: only the head's own pipeline decides. */
class PipelineObservationTest {

    private static final String HEAD = "b".repeat(40);
    private static final String EARLIER = "a".repeat(40);

    @Test
    void noPipelineYetReadsAsRunning() {
        assertThat(PipelineWatch.observation(Optional.empty(), HEAD)).isEqualTo(PollObservation.RUNNING);
    }

    @Test
    void theHeadsOwnPipelineReadsAsItsStatus() {
        var expected = Map.of(PipelineStatus.RUNNING, PollObservation.RUNNING, PipelineStatus.PASSED, PollObservation.PASSED,
                PipelineStatus.FAILED, PollObservation.FAILED);
        for (var status : PipelineStatus.values()) {
            assertThat(PipelineWatch.observation(Optional.of(new Pipeline(7, HEAD, status)), HEAD))
                    .as("%s", status).isEqualTo(expected.get(status));
        }
    }

    @Test
    void aPipelineOfAnEarlierHeadReadsAsRunningWhateverItsStatus() {
        for (var status : PipelineStatus.values()) {
            assertThat(PipelineWatch.observation(Optional.of(new Pipeline(7, EARLIER, status)), HEAD))
                    .as("%s of the earlier head", status).isEqualTo(PollObservation.RUNNING);
        }
    }

    @Test
    void aPipelineWithoutAShaOrAMergeRequestWithoutAHeadNeverPasses() {
        assertThat(PipelineWatch.observation(Optional.of(new Pipeline(7, null, PipelineStatus.PASSED)), HEAD))
                .isEqualTo(PollObservation.RUNNING);
        assertThat(PipelineWatch.observation(Optional.of(new Pipeline(7, "", PipelineStatus.PASSED)), ""))
                .isEqualTo(PollObservation.RUNNING);
        assertThat(PipelineWatch.observation(Optional.of(new Pipeline(7, HEAD, PipelineStatus.PASSED)), null))
                .isEqualTo(PollObservation.RUNNING);
    }
}
