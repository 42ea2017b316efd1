package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: GitLab's "merge after" (17.5+, {@code merge_after}; {@code detailed_merge_status} {@code merge_time} and a
 * 405 until then, MergeRequests::Mergeability::CheckMergeTimeService) is a time, not a person's job: the merge step comes
 * back at that time and merges, without a refused merge attempt and without stopping for a person; a time already
 * passed changes nothing.
 */
class MergeAfterTest {

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    @Test
    void aMergeAfterTimeAheadIsWaitedForAndTheRequestMergedThenWithoutAPersonOrARefusedMerge() {
        var id = app.approvedUntilHandleIsNext("mara");
        var mr = app.mr(id);
        var at = app.clock.instant().plus(Duration.ofHours(3));
        app.gitlab.setMergeAfter(mr.project(), mr.iid(), at, app.clock);

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.clock.instant()).as("merged once the time came").isAfterOrEqualTo(at);
        assertThat(app.gitlab.mergeCalls()).as("no merge sent before the time").isEqualTo(1);
        assertThat(app.operations.history(id)).noneSatisfy(entry ->
                assertThat(entry.toString()).contains(StepStatus.HANDLE_MERGE_BLOCKED.name()));
    }

    @Test
    void aMergeAfterTimeAlreadyPassedMergesAtOnce() {
        var id = app.approvedUntilHandleIsNext("mika");
        var mr = app.mr(id);
        var start = app.clock.instant();
        app.gitlab.setMergeAfter(mr.project(), mr.iid(), start.minus(Duration.ofMinutes(1)), app.clock);

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(Duration.between(start, app.clock.instant())).isLessThan(Duration.ofHours(1));
    }
}
