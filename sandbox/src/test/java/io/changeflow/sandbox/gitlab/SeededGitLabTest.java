package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.MergeListener;
import java.util.Map;

/**
 * The base of the simulator's state-machine tests: a hand-moved clock, and a simulator whose project holds one grant
 * file on {@code main}, with the author bot and two approval bots signed in.
 */
abstract class SeededGitLabTest {

    static final String PROJECT = "platform/access-config";

    final MutableClock clock = new MutableClock();
    GitLabSimulator gitlab;
    GitLabSimulator.User author;
    GitLabSimulator.User bot1;
    GitLabSimulator.User bot2;

    /** Starts the simulator on {@code properties}, telling {@code listener} (may be null) of every merge. */
    void seed(GitLabSimulatorProperties properties, MergeListener listener) {
        gitlab = new GitLabSimulator(properties, clock, listener);
        gitlab.push(PROJECT, "main", Map.of("grants/db.txt", "alice\n"), "Seed");
        author = gitlab.authenticate("author-bot-token");
        bot1 = gitlab.authenticate("approval-bot-1-token");
        bot2 = gitlab.authenticate("approval-bot-2-token");
    }

    /** Merges as the author bot pinned to {@code sha} (may be null): 200, or the status GitLab refused it with. */
    int merge(long iid, String sha) {
        try {
            gitlab.merge(PROJECT, iid, sha, author);
            return 200;
        } catch (GitLabError e) {
            return e.status();
        }
    }
}
