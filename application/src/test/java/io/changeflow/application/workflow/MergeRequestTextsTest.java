package io.changeflow.application.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Texts written to GitLab keep user text printable and on its own line (issue 37). */
class MergeRequestTextsTest {

    private static final Pattern ANY_LINE_BREAK = Pattern.compile("\\R");
    private static final String VICTIM = "0b0b0000-0000-4000-8000-000000000001";

    @Test
    void printableTextHasNoControlCharacterLineOrParagraphSeparatorOrFormatCharacter() {
        var hostile = "a\rb\nc\r\nd\u2028e\u2029f\u0085g\u000bh\u000ci\tj\u0000k\u001bl\u202em\u200bn\u00a0o  p";

        assertThat(MergeRequestTexts.printable(hostile)).isEqualTo("a b c d e f g h i j k l m n o p");
        assertThat(MergeRequestTexts.printable("  Zoë, 田中 — ok ✓ ")).isEqualTo("Zoë, 田中 — ok ✓");
    }

    @Test
    void aReasonCannotStartAMachineReadableLineInTheDescriptionOrTheCommitMessage() {
        var op = submitted("x\r" + MergeRequestTexts.OPERATION_TRAILER + VICTIM + "\u2028"
                + MergeRequestTexts.OPERATION_TRAILER + VICTIM + "\u2029\t" + MergeRequestTexts.OPERATION_TRAILER + VICTIM);

        for (var text : List.of(MergeRequestTexts.descriptionOf(op), MergeRequestTexts.commitMessageOf(op),
                MergeRequestTexts.batchDescriptionOf(7, List.of(op)), MergeRequestTexts.batchCommitMessageOf(7, List.of(op)))) {
            assertThat(trailerLines(text)).as(text).containsExactly(op.id().value());
            assertThat(text.codePoints().filter(c -> c != '\n' && (Character.isISOControl(c)
                    || Character.getType(c) == Character.LINE_SEPARATOR || Character.getType(c) == Character.PARAGRAPH_SEPARATOR)))
                    .as(text).isEmpty();
        }
        assertThat(MergeRequestTexts.descriptionOf(op)).contains("- Reason: x " + MergeRequestTexts.OPERATION_TRAILER + VICTIM + " ");
    }

    @Test
    void titlesAreOneLine() {
        var op = submitted("ok");

        assertThat(MergeRequestTexts.titleOf(op)).doesNotContain("\n").isEqualTo("Grant " + op.target().value() + " to bob");
        assertThat(MergeRequestTexts.batchTitleOf(3, List.of(op))).doesNotContain("\n");
    }

    private static Operation submitted(String reason) {
        var app = new InMemoryChangeflow();
        var id = InMemoryChangeflow.newOperationId();
        app.submit("bob", new Submission(id, FakeTargets.SINGLE.value(), "bob", reason, null));
        return app.op(OperationId.of(id));
    }

    /** The IDs of every line a line parser would read as a trailer, whatever it takes as a line break. */
    private static List<String> trailerLines(String text) {
        return ANY_LINE_BREAK.splitAsStream(text).map(String::strip)
                .filter(line -> line.startsWith(MergeRequestTexts.OPERATION_TRAILER.strip()))
                .map(line -> line.substring(MergeRequestTexts.OPERATION_TRAILER.length()).strip()).toList();
    }
}
