package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.sandbox.gitlab.GitLabProjectDefaults;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import io.changeflow.sandbox.gitlab.PipelineOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The adapter reads a refused merge by its reason on both GitLab profiles of the simulator (17/18.x and 19.x
 * answer the same reasons with different HTTP statuses), reads the head pipeline (merged-results pipelines
 * included) and every pipeline status explicitly, sees the branch head move before the merge request's head, and
 * reopens a closed merge request. The table of answers is in docs/external-systems-gitlab.md.
 */
class GitLabMergeAnswersTest extends AgainstProjectOfItsOwn {

    private static final Duration SETTLE = Duration.ofSeconds(10);

    @Override
    String projectPath() {
        return "platform/answers";
    }


    @ParameterizedTest
    @EnumSource(Profile.class)
    void aConflictIsReadAsRebaseFirstWhateverTheStatusCode(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var first = open("first", "alice\nbob\n");
        var second = open("second", "alice\ncarol\n");
        assertThat(gitlab.merge(project, first, gitlab.get(project, first).sha())).isEqualTo(MergeResult.MERGED);

        assertThat(gitlab.merge(project, second, gitlab.get(project, second).sha())).isEqualTo(MergeResult.NOT_MERGEABLE);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aDraftIsBlockedNotAConflict(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("draft", "alice\nbob\n");
        server.gitlab().forceDetailedMergeStatus(project, iid, "draft_status");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.BLOCKED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void missingApprovalsAreReadAsNotApproved(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().requireApprovals(project, true);
        var iid = open("unapproved", "alice\nbob\n");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.NOT_APPROVED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aPipelineThatMustPassIsReadAsSuch(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().requirePipelineSuccess(project, true);
        var iid = open("failing", "alice\nbob\n");
        server.gitlab().forcePipeline(project, iid, PipelineOutcome.FAILED);

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.PIPELINE_NOT_PASSED);
        server.gitlab().forcePipeline(project, iid, PipelineOutcome.RUNNING);
        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.PIPELINE_RUNNING);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aBotNotAllowedToMergeIntoTheProtectedTargetIsReadAsNotAllowed(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().protectBranch(project, "main", true);
        server.gitlab().allowedToMerge(project, "main", java.util.Set.of("maintainer"));
        var iid = open("not-allowed", "alice\nbob\n");

        assertThat(mergeAtHead(iid)).as("401, not a reason to wait").isEqualTo(MergeResult.NOT_ALLOWED);
        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.OPENED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aMergeErrorAfterEveryCheckPassedIsReadAsRefusedNotAsAConflict(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("push-rule", "alice\nbob\n");
        server.gitlab().refuseMerges(project, 1, "Commit message does not follow the pattern");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.REFUSED_AFTER_CHECKS);
        assertThat(gitlab.get(project, iid).mergeError()).contains("Commit message does not follow the pattern");
        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void checkingIsReadAsNotYetAndAStaleShaAsMoved(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().setTimings(Duration.ofSeconds(30), Duration.ZERO, Duration.ofMillis(100));
        var iid = open("checking", "alice\nbob\n");
        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.CANNOT_BE_MERGED_YET);

        server.gitlab().setTimings(Duration.ZERO, Duration.ZERO, Duration.ofMillis(100));
        assertThat(gitlab.merge(project, iid, "0".repeat(40))).isEqualTo(MergeResult.SHA_MISMATCH_OR_LOCKED);
        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void aFastForwardProjectWhoseTargetMovedOnIsReadAsRebaseFirstAndMergesOnceRebased(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().setMergeMethod(project, GitLabProjectDefaults.MergeMethod.FF);
        var first = open("ff-first", "alice\nbob\n");
        var second = openOn("ff-second", "grants/other.txt", "carol\n");
        assertThat(gitlab.merge(project, first, gitlab.get(project, first).sha())).isEqualTo(MergeResult.MERGED);
        await().atMost(SETTLE).until(() -> "need_rebase".equals(gitlab.get(project, second).detailedMergeStatus()));

        assertThat(MergeResult.expectedFor(gitlab.get(project, second).detailedMergeStatus())).contains(MergeResult.NOT_MERGEABLE);
        assertThat(gitlab.merge(project, second, gitlab.get(project, second).sha())).as("422 on 17/18.x, 405 on 19.x")
                .isEqualTo(MergeResult.NOT_MERGEABLE);
        gitlab.rebase(project, second);
        await().atMost(SETTLE).until(() -> "mergeable".equals(gitlab.get(project, second).detailedMergeStatus()));
        var rebased = gitlab.get(project, second).sha();

        assertThat(gitlab.merge(project, second, rebased)).isEqualTo(MergeResult.MERGED);
        assertThat(gitlab.branchHead(project, "main")).as("fast-forward: main is the rebased head").contains(rebased);
    }

    @Test
    void aProjectWithoutCiHasNoHeadPipeline() {
        server.gitlab().setCi(project, false);
        var iid = open("no-ci", "alice\nbob\n");

        assertThat(gitlab.headPipeline(project, iid)).isEmpty();
        assertThat(gitlab.latestPipeline(project, iid)).isEmpty();
        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    @Test
    void aMergedResultsPipelineIsTheHeadsPipelineAlthoughItRanForTheMergeCommit() {
        server.gitlab().setBehaviour(Profile.GITLAB_17, true, Duration.ZERO);
        var iid = open("merged-results", "alice\nbob\n");
        server.gitlab().push(project, "merged-results", Map.of("grants/db.txt", "alice\nbob\nfrank\n"), "More");
        var head = gitlab.get(project, iid).sha();

        assertThat(gitlab.latestPipeline(project, iid).orElseThrow().ranFor(head)).as("its own sha is the merge commit's").isFalse();
        var pipeline = gitlab.headPipeline(project, iid).orElseThrow();
        assertThat(pipeline.ranFor(head)).isTrue();
        assertThat(pipeline.status()).isEqualTo(PipelineStatus.PASSED);
    }

    @Test
    void everyPipelineStatusIsReadExplicitly() {
        var iid = open("statuses", "alice\nbob\n");
        var expected = Map.ofEntries(
                Map.entry(PipelineOutcome.SUCCESS, PipelineStatus.PASSED),
                Map.entry(PipelineOutcome.FAILED, PipelineStatus.FAILED),
                Map.entry(PipelineOutcome.MANUAL, PipelineStatus.MANUAL),
                Map.entry(PipelineOutcome.SKIPPED, PipelineStatus.SKIPPED),
                Map.entry(PipelineOutcome.CANCELED, PipelineStatus.CANCELED),
                Map.entry(PipelineOutcome.CANCELING, PipelineStatus.CANCELED),
                Map.entry(PipelineOutcome.CREATED, PipelineStatus.RUNNING),
                Map.entry(PipelineOutcome.SCHEDULED, PipelineStatus.RUNNING),
                Map.entry(PipelineOutcome.PREPARING, PipelineStatus.RUNNING),
                Map.entry(PipelineOutcome.WAITING_FOR_RESOURCE, PipelineStatus.RUNNING),
                Map.entry(PipelineOutcome.PENDING, PipelineStatus.RUNNING),
                Map.entry(PipelineOutcome.RUNNING, PipelineStatus.RUNNING),
                Map.entry(PipelineOutcome.WAITING_FOR_CALLBACK, PipelineStatus.UNKNOWN));
        expected.forEach((outcome, status) -> {
            server.gitlab().forcePipeline(project, iid, outcome);
            assertThat(gitlab.headPipeline(project, iid).orElseThrow().status()).as("%s", outcome).isEqualTo(status);
        });
    }

    @Test
    void afterAPushTheBranchHeadMovesBeforeTheMergeRequestsHead() {
        server.gitlab().setBehaviour(Profile.GITLAB_17, false, Duration.ofSeconds(2));
        var iid = open("lagging", "alice\nbob\n");
        var before = gitlab.get(project, iid).sha();

        gitlab.rewriteBranch(project, "lagging", "main", "Again", List.of(new FileChange("grants/db.txt", "alice\nbob\nerin\n")));

        var pushed = gitlab.branchHead(project, "lagging").orElseThrow();
        assertThat(pushed).isNotEqualTo(before);
        assertThat(gitlab.get(project, iid).sha()).as("GitLab has not refreshed the merge request yet").isEqualTo(before);
        assertThat(gitlab.headPipeline(project, iid).orElseThrow().ranFor(pushed)).isFalse();
        await().atMost(SETTLE).until(() -> gitlab.get(project, iid).sha().equals(pushed));
        assertThat(gitlab.branchHead(project, "no-such-branch")).isEmpty();
    }

    @Test
    void aClosedMergeRequestIsReopened() {
        var iid = open("reopened", "alice\nbob\n");
        gitlab.close(project, iid);
        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.CLOSED);

        gitlab.reopen(project, iid);
        gitlab.reopen(project, iid);

        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.OPENED);
        assertThat(gitlab.findBySourceBranch(project, "reopened")).hasValueSatisfying(mr -> assertThat(mr.iid()).isEqualTo(iid));
    }

    /** Asks GitLab to merge the merge request at the head it has now. */
    private MergeResult mergeAtHead(long iid) {
        return gitlab.merge(project, iid, gitlab.get(project, iid).sha());
    }

    private long open(String branch, String content) {
        return openOn(branch, "grants/db.txt", content);
    }

    private long openOn(String branch, String path, String content) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + branch, List.of(new FileChange(path, content)));
        return gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
    }
}
