package io.changeflow.application.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.state.BindingStatus;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShowStatsTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();
    private final ShowStats stats = new ShowStats(app.operations);

    @Test
    void anEmptyServiceCountsZeroInEveryStatus() {
        var shown = stats.show(new ShowStats.Command());
        assertThat(shown.byStatus()).hasSize(BindingStatus.values().length).allSatisfy((status, count) -> assertThat(count).isZero());
        assertThat(shown.total()).isZero();
    }

    @Test
    void countsEachRelationshipOnceInItsCurrentOwnersStatus() {
        var rejected = app.rejected("alice");
        app.submitAccepted(FakeTargets.SINGLE, "alice");
        app.submitAccepted(FakeTargets.BATCHABLE, "bob");

        var shown = stats.show(new ShowStats.Command());

        assertThat(shown.total()).as("alice's re-application reuses her row").isEqualTo(2);
        assertThat(shown.inProgress()).isEqualTo(2);
        assertThat(shown.count(BindingStatus.REJECTED)).isZero();
        assertThat(shown.failed()).isZero();
    }

    @Test
    void statusesTheStoreLeavesOutReadAsZeroAndNegativeCountsAsZero() {
        var shown = new ShowStats.Stats(Map.of(BindingStatus.VALIDATED, 3L, BindingStatus.HANDLE_FAILED, -2L,
                BindingStatus.CREATE_FAILED, 1L, BindingStatus.MERGING, 4L));
        assertThat(shown.count(BindingStatus.VALIDATED)).isEqualTo(3);
        assertThat(shown.failed()).isEqualTo(1);
        assertThat(shown.inProgress()).isEqualTo(4);
        assertThat(shown.total()).isEqualTo(8);
    }
}
