package io.changeflow.sandbox.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.sandbox.gitlab.MergeRequestPage.DiffLine;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MergeRequestPageTest {

    @Test
    void diffsLineByLineWithThreeLinesOfContextAndCountsWhatItSkips() {
        var before = IntStream.rangeClosed(1, 20).mapToObj(i -> "line " + i).toList();
        var after = new java.util.ArrayList<>(before);
        after.set(9, "line ten");
        after.add("line 21");

        var diff = MergeRequestPage.diff(before, after);

        assertThat(diff).containsExactly(
                new DiffLine('~', " 6 unchanged lines"),
                new DiffLine(' ', "line 7"), new DiffLine(' ', "line 8"), new DiffLine(' ', "line 9"),
                new DiffLine('-', "line 10"), new DiffLine('+', "line ten"),
                new DiffLine(' ', "line 11"), new DiffLine(' ', "line 12"), new DiffLine(' ', "line 13"),
                new DiffLine('~', " 4 unchanged lines"),
                new DiffLine(' ', "line 18"), new DiffLine(' ', "line 19"), new DiffLine(' ', "line 20"),
                new DiffLine('+', "line 21"));
    }

    @Test
    void aNewFileIsAllAddedADeletedOneAllRemovedAndNoChangeShowsNothing() {
        assertThat(MergeRequestPage.diff(List.of(), List.of("a", "b")))
                .containsExactly(new DiffLine('+', "a"), new DiffLine('+', "b"));
        assertThat(MergeRequestPage.diff(List.of("a"), List.of())).containsExactly(new DiffLine('-', "a"));
        assertThat(MergeRequestPage.diff(List.of("a", "b"), List.of("a", "b"))).isEmpty();
    }

    @Test
    void rendersEveryValueEscaped() {
        var view = new MergeRequestPage.View("team/<q>", 3, "T <b>", "d & \"e\"", "opened", "mergeable", "src'1", "main",
                "bot", Instant.parse("2026-01-01T00:00:00Z"), null, null, List.of("<bot>"), 2, 7L, "success", "<err>",
                List.of(new MergeRequestPage.FileChange("grants/<f>.txt", null, "x <y>\n")));

        var html = MergeRequestPage.render(view);

        assertThat(html).contains("team/&lt;q&gt;", "T &lt;b&gt;", "d &amp; &quot;e&quot;", "src&#39;1", "&lt;bot&gt;",
                "&lt;err&gt;", "grants/&lt;f&gt;.txt", "+ x &lt;y&gt;", "#7 success", "new file");
        assertThat(html).doesNotContain("<b>", "<q>", "<y>", "<f>", "<err>");
    }
}
