package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GrantFileTest {

    private static final TargetKey TARGET = TargetKey.of("db-prod-readonly");
    private static final OperationId OP1 = OperationId.of("00000000-0000-4000-8000-000000000001");
    private static final OperationId OP2 = OperationId.of("00000000-0000-4000-8000-000000000002");
    private static final OperationId OP3 = OperationId.of("00000000-0000-4000-8000-000000000003");
    private static final String HEADER = """
            # Access grants for target db-prod-readonly, managed by Changeflow.
            # One line per subject: <subject> until=<ISO instant|never> op=<operationId>
            """;

    private static Grant grant(String subject, String until, OperationId op) {
        return new Grant(SubjectId.of(subject), Optional.ofNullable(until).map(Instant::parse), op);
    }

    @Test
    void writesAGrantLine() {
        assertThat(grant("alice", "2026-12-05T00:00:00Z", OP1).line())
                .isEqualTo("alice until=2026-12-05T00:00:00Z op=00000000-0000-4000-8000-000000000001");
        assertThat(grant("svc-report", null, OP2).line())
                .isEqualTo("svc-report until=never op=00000000-0000-4000-8000-000000000002");
    }

    @Test
    void grantOfARequestCarriesItsSubjectExpiryAndId() {
        var request = new ChangeRequest(OP1, "alice", TARGET, SubjectId.of("bob"), "why",
                Optional.of(Instant.parse("2026-01-01T00:00:00Z")));
        assertThat(Grant.of(request)).isEqualTo(grant("bob", "2026-01-01T00:00:00Z", OP1));
    }

    @Test
    void missingOrEmptyFileHasTheDefaultHeader() {
        assertThat(GrantFile.missing(TARGET).render()).isEqualTo(HEADER);
        assertThat(GrantFile.parse(TARGET, "").render()).isEqualTo(HEADER);
        assertThat(GrantFile.parse(TARGET, "\n\n  \n").render()).isEqualTo(HEADER);
    }

    @Test
    void rendersGrantsSortedBySubjectAfterTheHeader() {
        var file = GrantFile.parse(TARGET, "")
                .with(grant("zoe", null, OP1))
                .with(grant("alice", "2026-12-05T00:00:00Z", OP2))
                .with(grant("mallory", null, OP3));
        assertThat(file.render()).isEqualTo(HEADER + """
                alice until=2026-12-05T00:00:00Z op=00000000-0000-4000-8000-000000000002
                mallory until=never op=00000000-0000-4000-8000-000000000003
                zoe until=never op=00000000-0000-4000-8000-000000000001
                """);
    }

    @Test
    void parseAndRenderRoundTrip() {
        var content = """
                # Grants for db-prod-readonly.
                alice until=2026-12-05T00:00:00Z op=00000000-0000-4000-8000-000000000001
                svc-report until=never op=00000000-0000-4000-8000-000000000002
                """;
        var file = GrantFile.parse(TARGET, content);
        assertThat(file.render()).isEqualTo(content);
        assertThat(GrantFile.parse(TARGET, file.render()).render()).isEqualTo(content);
        assertThat(file.grantOf(SubjectId.of("alice"))).contains(grant("alice", "2026-12-05T00:00:00Z", OP1));
        assertThat(file.grantOf(SubjectId.of("svc-report"))).contains(grant("svc-report", null, OP2));
        assertThat(file.grantOf(SubjectId.of("nobody"))).isEmpty();
    }

    @Test
    void replacesTheSubjectsEarlierLine() {
        var file = GrantFile.parse(TARGET, HEADER + "alice until=2025-01-01T00:00:00Z op=" + OP1 + "\n")
                .with(grant("alice", "2026-01-01T00:00:00Z", OP2));
        assertThat(file.render()).isEqualTo(HEADER + "alice until=2026-01-01T00:00:00Z op=" + OP2 + "\n");
        assertThat(file.grantOf(SubjectId.of("alice")).orElseThrow().operationId()).isEqualTo(OP2);
    }

    @Test
    void keepsCommentsAtTheTopAndUnparsableLinesAfterTheGrants() {
        var content = """
                # first comment
                zoe until=never op=00000000-0000-4000-8000-000000000001
                this line was edited by hand
                # second comment
                bob until=tomorrow op=00000000-0000-4000-8000-000000000002

                alice until=never op=not-a-uuid
                """;
        var rendered = GrantFile.parse(TARGET, content).with(grant("alice", null, OP3)).render();
        assertThat(rendered).isEqualTo("""
                # first comment
                # second comment
                alice until=never op=00000000-0000-4000-8000-000000000003
                zoe until=never op=00000000-0000-4000-8000-000000000001
                this line was edited by hand
                bob until=tomorrow op=00000000-0000-4000-8000-000000000002
                alice until=never op=not-a-uuid
                """);
    }

    @Test
    void readsWindowsLineEndingsAndCanonicalisesSubjects() {
        var content = "# header\r\nAlice   until=never\top=00000000-0000-4000-8000-000000000001\r\n";
        var file = GrantFile.parse(TARGET, content);
        assertThat(file.grantOf(SubjectId.of("alice"))).contains(grant("alice", null, OP1));
        assertThat(file.render()).isEqualTo("# header\nalice until=never op=00000000-0000-4000-8000-000000000001\n");
    }

    @Test
    void combinesTheGrantsOfABatchIntoOneSortedFile() {
        var base = GrantFile.parse(TARGET, HEADER + "carol until=never op=" + OP1 + "\n");
        var batch = List.of(grant("dave", null, OP2), grant("bob", null, OP3), grant("carol", "2026-01-01T00:00:00Z", OP2));
        var combined = base.with(batch).render();
        assertThat(combined).isEqualTo(HEADER
                + "bob until=never op=" + OP3 + "\n"
                + "carol until=2026-01-01T00:00:00Z op=" + OP2 + "\n"
                + "dave until=never op=" + OP2 + "\n");
        assertThat(base.with(List.of(batch.get(2), batch.get(0), batch.get(1))).render()).isEqualTo(combined);
        assertThat(base.with(batch.get(0)).with(batch.get(1)).with(batch.get(2)).render()).isEqualTo(combined);
    }

    @Test
    void withLeavesTheOriginalFileUnchanged() {
        var original = GrantFile.parse(TARGET, "");
        original.with(grant("alice", null, OP1));
        assertThat(original.render()).isEqualTo(HEADER);
    }

    @Test
    void previewShowsTheReplacedAndTheAddedLine() {
        var target = new Target(TARGET, "DB prod (read)", "read-only access", "platform/access-config",
                "grants/db-prod-readonly.txt", false, null);
        var current = HEADER + "alice until=2025-01-01T00:00:00Z op=" + OP1 + "\n";
        var preview = ChangePreview.of(target, current, grant("alice", "2026-01-01T00:00:00Z", OP2));
        assertThat(preview.project()).isEqualTo("platform/access-config");
        assertThat(preview.filePath()).isEqualTo("grants/db-prod-readonly.txt");
        assertThat(preview.removedLine()).contains("alice until=2025-01-01T00:00:00Z op=" + OP1);
        assertThat(preview.addedLine()).isEqualTo("alice until=2026-01-01T00:00:00Z op=" + OP2);
    }

    @Test
    void previewOfANewSubjectRemovesNothing() {
        var target = new Target(TARGET, "DB", "d", "platform/access-config", "grants/db.txt", false, null);
        var preview = ChangePreview.of(target, HEADER + "alice until=never op=" + OP1 + "\n", grant("bob", null, OP2));
        assertThat(preview.removedLine()).isEmpty();
        assertThat(preview.addedLine()).isEqualTo("bob until=never op=" + OP2);
        assertThat(ChangePreview.of(target, grant("bob", null, OP2)).removedLine()).isEmpty();
    }

    @Test
    void withoutRemovesExactlyTheGrantsLineAndKeepsEverythingElse() {
        var content = HEADER + """
                alice until=2026-12-05T00:00:00Z op=00000000-0000-4000-8000-000000000001
                bob until=2026-12-06T00:00:00Z op=00000000-0000-4000-8000-000000000002
                carol until=2026-12-07T00:00:00Z op=00000000-0000-4000-8000-000000000003
                this line was written by a person
                """;
        var file = GrantFile.parse(TARGET, content);
        var alice = grant("alice", "2026-12-05T00:00:00Z", OP1);
        assertThat(file.holds(alice)).isTrue();
        var removed = file.without(List.of(alice));
        assertThat(removed.render()).isEqualTo(HEADER + """
                bob until=2026-12-06T00:00:00Z op=00000000-0000-4000-8000-000000000002
                carol until=2026-12-07T00:00:00Z op=00000000-0000-4000-8000-000000000003
                this line was written by a person
                """);
        assertThat(removed.holds(alice)).isFalse();
    }

    @Test
    void withoutLeavesALineEditedByHandInPlace() {
        var content = HEADER + """
                alice until=2027-01-31T00:00:00Z op=00000000-0000-4000-8000-000000000001
                bob until=2026-12-06T00:00:00Z op=00000000-0000-4000-8000-000000000003
                """;
        var file = GrantFile.parse(TARGET, content);
        // alice's until and bob's operation were changed by hand: neither is the grant a removal names
        var removed = file.without(List.of(grant("alice", "2026-12-05T00:00:00Z", OP1),
                grant("bob", "2026-12-06T00:00:00Z", OP2), grant("dave", null, OP3)));
        assertThat(removed.render()).isEqualTo(file.render());
        assertThat(file.holds(grant("alice", "2026-12-05T00:00:00Z", OP1))).isFalse();
    }

    @Test
    void withThenWithoutTheSameGrantGivesTheFileBack() {
        var file = GrantFile.parse(TARGET, HEADER + "bob until=never op=00000000-0000-4000-8000-000000000002\n");
        var alice = grant("alice", "2026-12-05T00:00:00Z", OP1);
        assertThat(file.with(alice).without(List.of(alice)).render()).isEqualTo(file.render());
    }

    /** Issue 36: what a removal must neither take out nor claim removed. */
    @Test
    void editedLineOfNamesTheSubjectsLineOnlyWhenItIsNotTheGrants() {
        var content = HEADER + """
                alice until=2027-01-31T00:00:00Z op=00000000-0000-4000-8000-000000000001
                bob until=2026-12-06T00:00:00Z op=00000000-0000-4000-8000-000000000002
                Carol until=2026-12-06T00:00:00Z op=set-by-hand
                """;
        var file = GrantFile.parse(TARGET, content);
        assertThat(file.editedLineOf(grant("alice", "2026-12-05T00:00:00Z", OP1)))
                .contains("alice until=2027-01-31T00:00:00Z op=00000000-0000-4000-8000-000000000001");
        assertThat(file.editedLineOf(grant("bob", "2026-12-06T00:00:00Z", OP2))).as("the grant's own line").isEmpty();
        assertThat(file.editedLineOf(grant("carol", "2026-12-06T00:00:00Z", OP3))).as("a line the format cannot parse")
                .contains("Carol until=2026-12-06T00:00:00Z op=set-by-hand");
        assertThat(file.editedLineOf(grant("dave", null, OP3))).as("no line of the subject").isEmpty();
    }
}
