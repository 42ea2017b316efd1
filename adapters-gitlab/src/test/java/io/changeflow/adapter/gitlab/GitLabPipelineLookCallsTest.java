package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.application.workflow.HeadPipeline;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, the GitLab call budget: the read of a merge request ({@code GET .../merge_requests/:iid}) carries its
 * {@code head_pipeline} ({@link MergeRequests#getWithHeadPipeline}), so a look at the head's pipeline costs that read
 * alone while the pipeline runs, and the read plus the branch head when it decides; a refused merge is read from the
 * merge request, the project's merge method only when that does not explain it. Counted as the adapter reports its
 * calls (every try of every call).
 */
class GitLabPipelineLookCallsTest {

    private static final String BRANCH = "look";

    private SimulatorServer server;
    private AdapterContext adapter;
    private MergeRequests gitlab;
    private String project;
    private MergeRequestRef mr;

    @BeforeEach
    void openAMergeRequest() {
        server = SimulatorServer.get();
        server.faults().clear();
        server.gitlab().setTimings(Duration.ZERO, Duration.ZERO, Duration.ofMillis(100));
        adapter = AdapterContext.against(server);
        gitlab = adapter.mergeRequests();
        project = server.newProject("platform/looks", Map.of("grants/db.txt", "alice\n"));
        gitlab.createBranch(project, BRANCH, "main");
        gitlab.commit(project, BRANCH, "Change", List.of(new FileChange("grants/db.txt", "alice\nbob\n")));
        var opened = gitlab.open(project, BRANCH, "main", "Change", "operations: look");
        assertThat(opened.headPipelineRead()).as("a create answer is not read for its pipeline").isFalse();
        mr = new MergeRequestRef(project, opened.iid(), BRANCH, opened.webUrl());
    }

    @AfterEach
    void close() {
        adapter.close();
    }

    /** Every GitLab call the adapter reported so far. */
    private long calls() {
        return adapter.meters().find(AdapterContext.CALLS).timers().stream().mapToLong(timer -> timer.count()).sum();
    }

    /** The calls the adapter reported for {@code operation} so far. */
    private long calls(String operation) {
        return adapter.meters().find(AdapterContext.CALLS).tag("operation", operation).timers().stream()
                .mapToLong(timer -> timer.count()).sum();
    }

    @Test
    void aRefusedMergeIsReadFromTheMergeRequestAloneWhenItsStateExplainsTheRefusal() {
        gitlab.createBranch(project, "other", "main");
        gitlab.commit(project, "other", "Other", List.of(new FileChange("grants/db.txt", "alice\ncarol\n")));
        var other = gitlab.open(project, "other", "main", "Other", "operations: other").iid();
        assertThat(gitlab.merge(project, other, gitlab.get(project, other).sha())).isEqualTo(MergeResult.MERGED);
        var before = calls();

        assertThat(gitlab.merge(project, mr.iid(), gitlab.get(project, mr.iid()).sha())).isEqualTo(MergeResult.NOT_MERGEABLE);

        assertThat(calls() - before).as("the read, the project's merge train settings, the refused merge and the merge"
                + " request after it").isEqualTo(4);
        assertThat(calls("mergeMethod")).as("the project's merge method is not needed for a conflict").isZero();
    }

    @Test
    void theReadOfTheMergeRequestCarriesTheHeadPipelineItsOwnReadWouldAnswer() {
        server.gitlab().forcePipeline(project, mr.iid(), PipelineOutcome.RUNNING);

        var remote = gitlab.getWithHeadPipeline(project, mr.iid());

        assertThat(remote.headPipelineRead()).isTrue();
        assertThat(remote.headPipeline()).isEqualTo(gitlab.headPipeline(project, mr.iid()));
        assertThat(remote.headPipeline().orElseThrow().ranFor(remote.sha())).isTrue();
        assertThat(gitlab.get(project, mr.iid())).as("the same read without the pipeline").isEqualTo(
                new MergeRequests.RemoteMergeRequest(remote.project(), remote.iid(), remote.state(), remote.detailedMergeStatus(),
                        remote.sha(), remote.sourceBranch(), remote.webUrl(), remote.rebaseInProgress(), remote.mergeError(),
                        false, Optional.empty()));
        assertThat(gitlab.findBySourceBranch(project, BRANCH).orElseThrow().headPipelineRead())
                .as("a list answer carries no head_pipeline").isFalse();
    }

    @Test
    void aLookAtARunningPipelineIsOneCallAndALookThatDecidesIsTwo() {
        server.gitlab().forcePipeline(project, mr.iid(), PipelineOutcome.RUNNING);
        var before = calls();
        var running = HeadPipeline.look(gitlab, mr, gitlab.getWithHeadPipeline(project, mr.iid()), PipelinePolicy.REQUIRED);
        assertThat(running).isEqualTo(new HeadPipeline.Look.Waiting());
        assertThat(calls() - before).as("the merge request read").isEqualTo(1);

        server.gitlab().forcePipeline(project, mr.iid(), PipelineOutcome.SUCCESS);
        before = calls();
        var passed = HeadPipeline.look(gitlab, mr, gitlab.getWithHeadPipeline(project, mr.iid()), PipelinePolicy.REQUIRED);
        assertThat(passed).isInstanceOfSatisfying(HeadPipeline.Look.Counts.class,
                counts -> assertThat(counts.pipeline().orElseThrow().status()).isEqualTo(PipelineStatus.PASSED));
        assertThat(calls() - before).as("the merge request read and the branch head").isEqualTo(2);

        server.gitlab().forcePipeline(project, mr.iid(), PipelineOutcome.FAILED);
        before = calls();
        var failed = HeadPipeline.look(gitlab, mr, gitlab.getWithHeadPipeline(project, mr.iid()), PipelinePolicy.REQUIRED);
        assertThat(failed).isInstanceOf(HeadPipeline.Look.Failed.class);
        assertThat(calls() - before).as("a failure counts only for the branch's real head too").isEqualTo(2);
    }
}
