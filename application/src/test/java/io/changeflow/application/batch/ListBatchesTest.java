package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.claimed;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.query.RequestView;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** GET /ops/batches: the newest batches with their members as they are now. */
class ListBatchesTest {

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    @Test
    void listsTheNewestBatchesFirstWithTheirMembersInClaimOrder() {
        var first = waiting(app, "anna", "ben");
        claimed(app);
        app.queue.runUntilIdle();
        var second = waiting(app, "cleo");
        claimed(app);

        var views = app.listBatches.list(new ListBatches.Command(10));

        assertThat(views).hasSize(2);
        assertThat(views.get(0).batch().status()).isEqualTo(BatchStatus.RUNNING);
        assertThat(views.get(0).members()).extracting(RequestView::operationId).containsExactly(second);
        assertThat(views.get(1).batch().status()).isEqualTo(BatchStatus.SUCCEEDED);
        assertThat(views.get(1).members()).extracting(RequestView::operationId).containsExactlyElementsOf(first);
        assertThat(views.get(1).members()).allSatisfy(m -> {
            assertThat(m.status()).contains(BindingStatus.MERGED);
            assertThat(m.mergeRequest()).isEqualTo(views.get(1).batch().mergeRequest());
        });
        assertThat(app.listBatches.list(new ListBatches.Command(1))).hasSize(1);
    }

    @Test
    void filtersByStatusAndPartitionBeforeTheLimitSoNoOlderMatchIsHidden() {
        var first = waiting(app, "anna");
        claimed(app);
        app.queue.runUntilIdle();
        var second = waiting(app, "ben");
        claimed(app);

        var running = new Batches.Filter(Optional.of(BatchStatus.RUNNING), Optional.empty());
        var succeeded = new Batches.Filter(Optional.of(BatchStatus.SUCCEEDED), Optional.empty());
        assertThat(app.listBatches.list(new ListBatches.Command(10, running))).singleElement()
                .satisfies(v -> assertThat(v.members()).extracting(RequestView::operationId).containsExactly(second));
        // the older batch is found although a newer one (not matching) would fill a limit of 1
        assertThat(app.listBatches.list(new ListBatches.Command(1, succeeded))).singleElement()
                .satisfies(v -> assertThat(v.members()).extracting(RequestView::operationId).containsExactly(first));
        var global = app.listBatches.list(new ListBatches.Command(10,
                new Batches.Filter(Optional.empty(), Optional.of("global"))));
        assertThat(global).hasSize(2);
        assertThat(app.listBatches.list(new ListBatches.Command(10,
                new Batches.Filter(Optional.of(BatchStatus.RUNNING), Optional.of("elsewhere"))))).isEmpty();
    }
}
