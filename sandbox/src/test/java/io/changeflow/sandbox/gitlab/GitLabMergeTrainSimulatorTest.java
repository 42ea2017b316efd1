package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.GitLabSimulator.TrainCar;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: a merge from outside a project's merge train as GitLab's merge service does it
 * (ee/app/services/ee/merge_requests/merge_service.rb {@code skipping_active_merge_train?}, see {@link GitLabMergeTrain}):
 * it merges at once either way; the train's pipelines are recreated unless the merge was sent with
 * {@code skip_merge_train} and the project allows skipping.
 */
class GitLabMergeTrainSimulatorTest extends SeededGitLabTest {

    private static final Duration CHECKING = Duration.ofSeconds(2);
    private static final Duration PIPELINE = Duration.ofSeconds(10);

    @BeforeEach
    void start() {
        seed(GitLabSimulatorProperties.defaults().withTimings(CHECKING, PIPELINE, Duration.ofSeconds(1)), null);
        gitlab.setMergeTrains(PROJECT, true);
    }

    @Test
    void aPlainMergeOnATrainProjectMergesAtOnceAndRestartsEveryCarsPipelineOnBothProfiles() {
        for (var profile : Profile.values()) {
            gitlab.setBehaviour(profile, false, Duration.ZERO);
            var car = ready("car-" + profile.settingName());
            gitlab.addToMergeTrain(PROJECT, car);
            var before = gitlab.mergeTrain(PROJECT).getFirst();
            var iid = ready("plain-" + profile.settingName());

            assertThat(merge(iid, false)).as("%s", profile).isEqualTo(200);

            assertThat(gitlab.mergeRequestState(PROJECT, iid)).isEqualTo("merged");
            var after = gitlab.mergeTrain(PROJECT).getFirst();
            assertThat(after.iid()).isEqualTo(car);
            assertThat(after.pipelineId()).as("a new train pipeline").isNotEqualTo(before.pipelineId());
            assertThat(after.restarts()).isEqualTo(1);
            mergeOffTheTrain(car);
        }
    }

    @Test
    void skipMergeTrainLeavesTheTrainAloneOnlyWhereTheProjectAllowsSkipping() {
        var car = ready("car");
        gitlab.addToMergeTrain(PROJECT, car);
        var start = gitlab.mergeTrain(PROJECT);
        assertThat(gitlab.projectJson(PROJECT)).containsEntry("merge_trains_enabled", true)
                .containsEntry("merge_trains_skip_train_allowed", false);

        var notAllowed = ready("skip-not-allowed");
        assertThat(merge(notAllowed, true)).as("no error: the parameter is ignored").isEqualTo(200);
        var restarted = gitlab.mergeTrain(PROJECT);
        assertThat(restarted).extracting(TrainCar::restarts).containsExactly(1);

        gitlab.setMergeTrainsSkipTrainAllowed(PROJECT, true);
        assertThat(gitlab.projectJson(PROJECT)).containsEntry("merge_trains_skip_train_allowed", true);
        var skipped = ready("skipped");
        assertThat(merge(skipped, true)).isEqualTo(200);
        assertThat(gitlab.mergeRequestState(PROJECT, skipped)).isEqualTo("merged");
        assertThat(gitlab.mergeTrain(PROJECT)).as("the same pipeline, not restarted").isEqualTo(restarted);
        assertThat(gitlab.mergeTrainJson(PROJECT)).singleElement().satisfies(json -> {
            assertThat(json).containsEntry("target_branch", "main");
            assertThat(((Map<?, ?>) json.get("pipeline")).get("id")).isEqualTo(restarted.getFirst().pipelineId());
            assertThat(((Map<?, ?>) json.get("merge_request")).get("iid")).isEqualTo(car);
        });
        assertThat(start.getFirst().pipelineId()).isNotEqualTo(restarted.getFirst().pipelineId());
    }

    /** A plain merge of a car takes it off the train. */
    private void mergeOffTheTrain(long car) {
        clock.advance(CHECKING); // checked again against the moved target
        assertThat(merge(car, false)).isEqualTo(200);
        assertThat(gitlab.mergeTrain(PROJECT)).isEmpty();
    }

    private int merge(long iid, boolean skipMergeTrain) {
        try {
            gitlab.merge(PROJECT, iid, gitlab.mergeRequestSha(PROJECT, iid), skipMergeTrain, author);
            return 200;
        } catch (GitLabError e) {
            return e.status();
        }
    }

    /** A merge request whose checking and pipeline are done. */
    private long ready(String branch) {
        gitlab.createBranch(PROJECT, branch, "main", author);
        gitlab.commit(PROJECT, branch, "Change", null, false,
                List.of(Map.of("action", "create", "file_path", "grants/" + branch + ".txt", "content", "bob\n")), author);
        var iid = (Long) gitlab.createMergeRequest(PROJECT, branch, "main", "Change " + branch, "ops", author).get("iid");
        clock.advance(CHECKING);
        clock.advance(PIPELINE);
        return iid;
    }
}
