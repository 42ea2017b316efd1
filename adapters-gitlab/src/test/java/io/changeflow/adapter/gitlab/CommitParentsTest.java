package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitParentsTest {

    private final List<String> reads = new ArrayList<>();
    private final CommitParents parents = new CommitParents((project, sha) -> {
        reads.add(project + "@" + sha);
        return sha.startsWith("unknown") ? List.of() : List.of("target-" + sha, "head-" + sha);
    });

    @Test
    void aCommitLookedAtOnEveryPollIsReadOncePerProject() {
        for (var look = 0; look < 5; look++) {
            assertThat(parents.of("group/a").apply("c1")).containsExactly("target-c1", "head-c1");
        }
        parents.of("group/b").apply("c1");

        assertThat(reads).containsExactly("group/a@c1", "group/b@c1");
    }

    @Test
    void aCommitGitLabDoesNotKnowIsAskedAgain() {
        parents.of("group/a").apply("unknown-1");
        parents.of("group/a").apply("unknown-1");

        assertThat(reads).containsExactly("group/a@unknown-1", "group/a@unknown-1");
    }

    @Test
    void theLeastRecentlyUsedCommitIsForgottenPastTheBound() {
        parents.of("p").apply("first");
        for (var i = 0; i < CommitParents.REMEMBERED; i++) {
            parents.of("p").apply("c" + i);
        }
        parents.of("p").apply("first");

        assertThat(reads).hasSize(CommitParents.REMEMBERED + 2);
    }
}
