package io.changeflow.domain.drift;

import static io.changeflow.domain.drift.DriftWorld.line;
import static io.changeflow.propertytesting.Generators.booleans;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.enums;
import static io.changeflow.propertytesting.Generators.lists;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DriftCheck} over random worlds: rows of every status and kind, files holding any mix of their lines,
 * lines of unknown operations, free text and comments.
 */
class DriftCheckProperties {

    /** One subject's records and which of its lines the file holds. */
    record Subject(BindingStatus status, boolean removal, StepOrder order, boolean lineOnMain, boolean recent) {}

    /** A world: its subjects, extra lines nobody wrote, and whether the baseline was taken. */
    record World(List<Subject> subjects, List<String> extraLines, boolean baselineTaken) {}

    private static final List<BindingStatus> GRANT_STATUSES = List.of(BindingStatus.APPROVAL_SENDING,
            BindingStatus.APPROVAL_SENT, BindingStatus.APPROVAL_FAILED, BindingStatus.MR_CREATING, BindingStatus.MR_CREATED,
            BindingStatus.MERGING, BindingStatus.BATCH_WAITING, BindingStatus.BATCHED, BindingStatus.MERGED,
            BindingStatus.VALIDATED, BindingStatus.CREATE_FAILED, BindingStatus.HANDLE_FAILED, BindingStatus.REJECTED,
            BindingStatus.CLOSED, BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.DEPLOY_FAILED);
    private static final List<BindingStatus> REMOVAL_STATUSES = List.of(BindingStatus.EXPIRING, BindingStatus.REVOKING,
            BindingStatus.APPROVAL_SENT, BindingStatus.BATCH_WAITING, BindingStatus.BATCHED, BindingStatus.MERGED,
            BindingStatus.HANDLE_FAILED, BindingStatus.DEPLOY_UNCONFIRMED, BindingStatus.REMOVAL_REJECTED,
            BindingStatus.EXPIRED, BindingStatus.REVOKED);

    private static Generator<World> worlds() {
        Generator<Subject> grant = s -> new Subject(elements(GRANT_STATUSES).generate(s), false,
                enums(StepOrder.class).generate(s), booleans().generate(s), booleans().generate(s));
        Generator<Subject> removal = s -> new Subject(elements(REMOVAL_STATUSES).generate(s), true, StepOrder.APPROVE_FIRST,
                booleans().generate(s), booleans().generate(s));
        Generator<Subject> subject = s -> booleans().generate(s) ? grant.generate(s) : removal.generate(s);
        var extra = elements("zed until=never op=00000000-0000-4000-8000-999999999999", "# a note", "free text",
                "zed until=soon op=x", "yan until=2027-01-01T00:00:00Z op=00000000-0000-4000-8000-888888888888");
        return s -> new World(lists(subject, 0, 8).generate(s), lists(extra, 0, 3).generate(s), booleans().generate(s));
    }

    /** The subjects' records in a fresh {@link DriftWorld}, and the file the world's lines make. */
    private static Built build(World world) {
        var records = new DriftWorld();
        var lines = new ArrayList<String>();
        var recent = new HashSet<String>();
        var i = 0;
        for (var subject : world.subjects()) {
            var name = "s" + i++;
            var op = subject.removal()
                    ? records.removal(records.replaced(name), ChangeKind.EXPIRY, subject.status())
                    : records.grant(name, subject.status(), subject.order());
            var lineOp = subject.removal() ? records.records().operations().get(op.removes().orElseThrow()) : op;
            if (subject.lineOnMain()) {
                lines.add(line(lineOp));
            }
            if (subject.recent()) {
                records.rewritten(op, DriftWorld.SETTLED);
                recent.add(name);
            }
        }
        lines.addAll(world.extraLines());
        var baseline = world.baselineTaken() ? DriftCheck.Baseline.taken(List.of()) : DriftCheck.Baseline.NOT_TAKEN;
        return new Built(records.check(DriftWorld.file(lines.toArray(String[]::new)), baseline), lines, recent);
    }

    record Built(List<Finding> findings, List<String> lines, java.util.Set<String> recent) {}

    @Test
    void everyFindingIsAboutALineOfTheFileOrAGrantInEffectAndEachLineIsFoundAtMostOnce() {
        Property.forAll(worlds()).tries(500).check(world -> {
            var built = build(world);
            var onMain = built.findings().stream().filter(f -> f.kind().onMain()).map(Finding::line).toList();
            assertThat(built.lines()).containsAll(onMain);
            assertThat(new HashSet<>(onMain)).hasSameSizeAs(onMain);
        });
    }

    @Test
    void nothingIsEverRemovedBeforeTheBaselineNorAboutASubjectWrittenAfterTheRead() {
        Property.forAll(worlds()).tries(500).check(world -> {
            var built = build(world);
            if (!world.baselineTaken()) {
                assertThat(built.findings()).noneMatch(f -> f.kind().removable());
            }
            assertThat(built.findings()).noneMatch(f -> f.subject().filter(s -> built.recent().contains(s.value())).isPresent());
        });
    }

    @Test
    void aLineOfAChangeUnderWayOrOfAGrantInEffectIsNeverRemovable() {
        Property.forAll(worlds()).tries(500).check(world -> {
            var built = build(world);
            for (var i = 0; i < world.subjects().size(); i++) {
                var subject = world.subjects().get(i);
                var name = "s" + i;
                var settled = subject.status() == BindingStatus.VALIDATED || subject.status() == BindingStatus.REMOVAL_REJECTED
                        || subject.status() == BindingStatus.EXPIRED || subject.status() == BindingStatus.REVOKED
                        || subject.status() == BindingStatus.REJECTED || subject.status() == BindingStatus.CLOSED
                        || (!subject.removal() && !approved(subject));
                if (!settled) {
                    assertThat(built.findings()).as(name + " " + subject)
                            .noneMatch(f -> f.subject().filter(s -> s.value().equals(name)).isPresent());
                }
            }
        });
    }

    private static boolean approved(Subject subject) {
        return switch (subject.status()) {
            case APPROVAL_SENDING, APPROVAL_SENT, APPROVAL_FAILED -> false;
            case MR_CREATING, MR_CREATED, CREATE_FAILED -> subject.order() == StepOrder.APPROVE_FIRST;
            default -> true;
        };
    }

    @Test
    void aFileOfExactlyTheGrantsInEffectHasNoDrift() {
        Property.forAll(lists(strings("abc", 1, 1), 0, 6)).tries(300).check(names -> {
            var records = new DriftWorld();
            var lines = new ArrayList<String>();
            var i = 0;
            for (var ignored : names) {
                lines.add(line(records.grant("v" + i++, BindingStatus.VALIDATED)));
            }
            assertThat(records.check(DriftWorld.file(lines.toArray(String[]::new)))).isEmpty();
        });
    }
}
