package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.sandbox.gitlab.GitLabSimulator.TrainCar;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 35, the adapter against the simulator's merge train on both profiles: on a project with merge trains the merge
 * is sent with {@code skip_merge_train=true} where the project allows skipping (the train's pipelines are left alone,
 * read back from the simulator's train), and not sent at all where it does not (a person's
 * {@link MergeResult#MERGE_TRAIN_NOT_SKIPPABLE}: a plain merge would restart the train); without trains, the plain merge.
 */
class GitLabMergeTrainTest extends AgainstProjectOfItsOwn {

    @Override
    String projectPath() {
        return "platform/trains";
    }


    @ParameterizedTest
    @EnumSource(Profile.class)
    void whereSkippingIsAllowedTheMergeSkipsTheTrainAndLeavesItsPipelinesAlone(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().setMergeTrains(project, true);
        server.gitlab().setMergeTrainsSkipTrainAllowed(project, true);
        server.gitlab().addToMergeTrain(project, open("persons-change"));
        var train = server.gitlab().mergeTrain(project);
        var iid = open("changeflow-change");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);

        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.MERGED);
        assertThat(server.gitlab().mergeTrain(project)).as("not restarted").isEqualTo(train)
                .extracting(TrainCar::restarts).containsExactly(0);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void whereSkippingIsNotAllowedNothingIsMergedAndTheTrainRunsOn(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        server.gitlab().setMergeTrains(project, true);
        server.gitlab().addToMergeTrain(project, open("persons-change"));
        var train = server.gitlab().mergeTrain(project);
        var iid = open("changeflow-change");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGE_TRAIN_NOT_SKIPPABLE);

        assertThat(gitlab.get(project, iid).state()).isEqualTo(MergeRequestState.OPENED);
        assertThat(server.gitlab().mergeTrain(project)).isEqualTo(train);

        server.gitlab().setMergeTrainsSkipTrainAllowed(project, true);
        assertThat(mergeAtHead(iid)).as("once a person allowed skipping").isEqualTo(MergeResult.MERGED);
        assertThat(server.gitlab().mergeTrain(project)).isEqualTo(train);
    }

    @ParameterizedTest
    @EnumSource(Profile.class)
    void withoutMergeTrainsThePlainMergeIsSent(Profile profile) {
        server.gitlab().setBehaviour(profile, false, Duration.ZERO);
        var iid = open("plain");

        assertThat(mergeAtHead(iid)).isEqualTo(MergeResult.MERGED);
    }

    private MergeResult mergeAtHead(long iid) {
        return gitlab.merge(project, iid, gitlab.get(project, iid).sha());
    }

    private long open(String branch) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + branch, List.of(new FileChange("grants/" + branch + ".txt", "bob\n")));
        return gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
    }
}
