package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Drift's evidence: the simulator's file blame read through the adapter (issue 36). */
class GitLabLineOriginsTest extends AgainstSimulator {

    private static final String HEADER = "# Access grants for target a, managed by Changeflow.\n";
    private static final String MALLORY = "mallory until=never op=00000000-0000-4000-8000-00000000bad1";

    @Test
    void eachLineNamesTheCommitThatLastChangedItItsAuthorAndWhen() {
        project = server.newProject("blame", Map.of("grants/a.txt", HEADER));
        var initial = gitlab.branchHead(project, "main").orElseThrow();
        var pushed = server.gitlab().push(project, "main", Map.of("grants/a.txt", HEADER + MALLORY + "\n"), "a hand edit");

        var origins = adapter.lineOrigins().of(project, pushed, "grants/a.txt");

        assertThat(origins).containsOnlyKeys(HEADER.strip(), MALLORY);
        assertThat(origins.get(MALLORY).commitSha()).contains(pushed);
        assertThat(origins.get(MALLORY).author()).isPresent();
        assertThat(origins.get(MALLORY).committedAt()).isPresent();
        assertThat(origins.get(HEADER.strip()).commitSha()).contains(initial);
    }

    @Test
    void aFileThatIsNotThereHasNoOrigins() {
        project = server.newProject("blame-none", Map.of("grants/a.txt", HEADER));

        assertThat(adapter.lineOrigins().of(project, "main", "grants/missing.txt")).isEmpty();
    }
}
