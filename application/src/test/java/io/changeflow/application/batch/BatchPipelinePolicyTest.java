package io.changeflow.application.batch;

import static io.changeflow.application.batch.Batching.assertSucceeded;
import static io.changeflow.application.batch.Batching.batch;
import static io.changeflow.application.batch.Batching.claimedAndRun;
import static io.changeflow.application.batch.Batching.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.AskPolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 21 item 2 for batches: a batch merge request spans one partition; its pipeline is read under the strictest
 * pipeline policy of its members' targets, before the merge and after a rebase.
 */
class BatchPipelinePolicyTest {

    private static final TargetKey NO_CI = TargetKey.of("wiki-readers");

    private final InMemoryChangeflow app = new InMemoryChangeflow();

    {
        app.gitlab.pipelinesNeedNotPass();
        app.targets.add(new Target(NO_CI, "Wiki readers", "Read the team wiki", FakeTargets.PROJECT,
                "grants/wiki-readers.txt", true, null, PipelinePolicy.NONE).withAskFor(AskPolicy.ANYONE));
    }

    @Test
    void aBatchOfTargetsWithoutCiIsMergedWithoutAPipelineAlsoAfterARebase() {
        app.targets.withPipeline(FakeTargets.BATCHABLE, PipelinePolicy.NONE);
        app.gitlab.noPipelines().nextNeedRebase(false);
        var ids = List.of(waiting(app, "anna"), waiting(app, NO_CI, "ben"));
        var batch = claimedAndRun(app);

        assertSucceeded(app, batch, ids);
        assertThat(app.gitlab.rebases()).isEqualTo(1);
    }

    @Test
    void theStrictestPolicyOfTheBatchsTargetsApplies() {
        // wiki-editors requires a passed pipeline; wiki-readers has none: a manual pipeline does not count for the batch
        app.gitlab.nextPipeline(PipelineStatus.MANUAL);
        var ids = List.of(waiting(app, "cleo"), waiting(app, NO_CI, "dora"));
        var batch = claimedAndRun(app);

        assertThat(app.gitlab.merges()).isZero();
        assertThat(batch(app, batch.id()).status()).isEqualTo(BatchStatus.FAILED);
        assertThat(ids).allSatisfy(id -> assertThat(app.op(id).binding()).isNotEqualTo(java.util.Optional.of(BindingStatus.MERGED)));
    }

    @Test
    void aManualPipelineCountsForABatchWhoseTargetsAllSaySo() {
        app.targets.withPipeline(FakeTargets.BATCHABLE, PipelinePolicy.MANUAL_COUNTS);
        app.gitlab.nextPipeline(PipelineStatus.RUNNING, PipelineStatus.MANUAL);
        var ids = List.of(waiting(app, "emil"), waiting(app, NO_CI, "fred"));
        var batch = claimedAndRun(app);

        assertSucceeded(app, batch, ids);
    }
}
