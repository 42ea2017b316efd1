package io.changeflow.domain.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.mr.MergeRequestState;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class SettlementTest {

    @Test
    void closesOnlyAMergeRequestThatIsStillOpenOrLocked() {
        for (var state : MergeRequestState.values()) {
            var open = EnumSet.of(MergeRequestState.OPENED, MergeRequestState.LOCKED).contains(state);
            assertThat(Settlement.needsClose(state)).as(state.name()).isEqualTo(open);
        }
    }

    @Test
    void mergedWinsOverTheFailure() {
        assertThat(Settlement.afterReread(MergeRequestState.MERGED)).isEqualTo(Settlement.Outcome.MERGED_WINS);
    }

    @Test
    void closedOrAbsentMergeRequestFailsTheBatch() {
        assertThat(Settlement.afterReread(MergeRequestState.CLOSED)).isEqualTo(Settlement.Outcome.FAILED);
        assertThat(Settlement.afterReread(MergeRequestState.ABSENT)).isEqualTo(Settlement.Outcome.FAILED);
    }

    @Test
    void stillOpenOrLockedAfterTheCloseIsSettledLater() {
        assertThat(Settlement.afterReread(MergeRequestState.OPENED)).isEqualTo(Settlement.Outcome.RETRY_LATER);
        assertThat(Settlement.afterReread(MergeRequestState.LOCKED)).isEqualTo(Settlement.Outcome.RETRY_LATER);
    }

    @Test
    void aMergeThatRacesTheCloseIsNeverLost() {
        // the batch failed while its MR was open; the close and a merge race; the re-read decides
        var before = MergeRequestState.OPENED;
        assertThat(Settlement.needsClose(before)).isTrue();
        var reread = MergeRequestState.MERGED;
        assertThat(Settlement.afterReread(reread)).isEqualTo(Settlement.Outcome.MERGED_WINS);
    }
}
