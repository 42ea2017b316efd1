package io.changeflow.application.handle;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.callback.HandleApprovalCallback.Decision;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.fake.InMemoryChangeflow;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.workflow.MergeRequestTexts;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Issue 36, item 6: our merges queue, they do not collide. A rebase conflict that only Changeflow's own merges caused
 * (every commit that changed the grant file on main since the branch left it carries a Changeflow-Operation line) does
 * not count against the conflict limit ({@code max-regenerations}, 3); a person's edit does; and the free regenerations
 * end at the transient deadline after the step's first one, so no request regenerates forever.
 */
class OwnMergesConflictTest {

    private static final String GRANT_FILE = "grants/" + FakeTargets.SINGLE.value() + ".txt";
    private static final int REQUESTS = 20;

    private final InMemoryChangeflow app = InMemoryChangeflow.approvingFirst();

    /**
     * The acceptance of item 6: twenty requests for one (non-batchable) target, approved at the same instant, are handled
     * by workers that take due steps in any order (seeded). Every merge makes the others conflict; all twenty are
     * VALIDATED with no operator action, every line is on main once, and the regenerations are bounded (printed).
     */
    @Test
    void twentyRequestsForOneFileApprovedTogetherAllTakeEffectWithoutAnOperator() {
        app.gitlab.conflictsOnChangedFiles().checkingAfterMerge(2);
        var ids = new ArrayList<OperationId>();
        for (int i = 1; i <= REQUESTS; i++) {
            ids.add(app.submitAccepted(FakeTargets.SINGLE, String.format("svc-queue-%02d", i)));
        }
        app.queue.runUntilIdle();
        ids.forEach(id -> app.decide(id, Decision.APPROVED));

        var random = new SplittableRandom(36L);
        var runs = 0;
        while (!app.queue.pending().isEmpty()) {
            if (!app.queue.runDue(random.nextInt(1_000))) {
                app.queue.runNext();
            }
            assertThat(++runs).as("the queue settles").isLessThan(20_000);
        }
        ids.forEach(app::deployed);

        var regenerations = new TreeMap<String, Integer>();
        var counted = 0;
        for (var id : ids) {
            var details = app.operations.history(id).stream().map(h -> h.detail()).toList();
            regenerations.put(app.op(id).subject().value(),
                    (int) details.stream().filter(d -> d.contains("generating its change again")).count());
            counted += (int) details.stream().filter(d -> d.contains("generating its change again")
                    && !d.contains("not counted against the conflict limit")).count();
        }
        var total = regenerations.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("issue 36, item 6: " + REQUESTS + " requests on one file approved together: " + total
                + " regenerations in all (" + counted + " counted against the limit), per request " + regenerations
                + ", merges " + app.gitlab.merges() + ", rewrites " + app.gitlab.rewrites());

        assertThat(ids).allSatisfy(id -> assertThat(app.op(id).binding()).as(app.op(id).detail()).contains(BindingStatus.VALIDATED));
        assertThat(counted).as("only a person's edit counts; nobody edited the file").isZero();
        assertThat(regenerations.values()).allSatisfy(n -> assertThat(n).isLessThan(REQUESTS));
        assertThat(total).as("each merge makes at most every request still waiting regenerate once")
                .isLessThanOrEqualTo(REQUESTS * (REQUESTS - 1) / 2);
        assertThat(app.gitlab.merges()).isEqualTo(REQUESTS);
        var file = app.gitlab.fileOn(FakeTargets.PROJECT, "main", GRANT_FILE).orElseThrow();
        for (var id : ids) {
            assertThat(file.lines().filter(line -> line.contains("op=" + id.value()))).as("the line of " + id).hasSize(1);
        }
    }

    /** More conflicts than the limit, each with a commit of Changeflow's own on main: not counted, merged. */
    @Test
    void conflictsWithOurOwnMergesDoNotCountAgainstTheLimit() {
        app.gitlab.conflictsOnChangedFiles();
        var id = app.approvedUntilHandleIsNext("anna");
        for (int i = 0; i < 5; i++) {
            conflictingCommitBeforeNextMerge("Grant db-prod-readonly to svc-" + i + "\n\n" + MergeRequestTexts.OPERATION_TRAILER
                    + "0b0b0000-0000-4000-8000-00000000000" + i + "\n", "svc-" + i);
        }

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        assertThat(app.gitlab.rewrites()).isEqualTo(5);
        assertThat(app.operations.history(id)).extracting(h -> h.detail())
                .filteredOn(d -> d.contains("by Changeflow (not counted against the conflict limit)")).hasSize(5);
    }

    /** A person's edits count: the fourth conflict with one is the deterministic rebase conflict, as before. */
    @Test
    void conflictsWithAPersonsEditsCountAgainstTheLimit() {
        app.gitlab.conflictsOnChangedFiles();
        var id = app.approvedUntilHandleIsNext("bert");
        for (int i = 0; i < 4; i++) {
            conflictingCommitBeforeNextMerge("a hand edit " + i, "hand-" + i);
        }

        app.queue.runUntilIdle();

        var op = app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_REBASE_CONFLICT, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("3 time(s)").contains("not made by Changeflow");
        assertThat(app.gitlab.rewrites()).isEqualTo(3);
    }

    /** One person's commit among ours makes that conflict count; the ones with ours only stay free. */
    @Test
    void aConflictCountsWhenAnyCommitSinceTheBranchPointIsAPersons() {
        app.gitlab.conflictsOnChangedFiles();
        var id = app.approvedUntilHandleIsNext("carl");
        app.gitlab.beforeNext("merge", () -> {
            commitToMain("Grant it\n\n" + MergeRequestTexts.OPERATION_TRAILER + "0b0b0000-0000-4000-8000-000000000009\n", "ours");
            commitToMain("tidy up by hand", "theirs");
        });
        conflictingCommitBeforeNextMerge("Grant it\n\n" + MergeRequestTexts.OPERATION_TRAILER
                + "0b0b0000-0000-4000-8000-000000000008\n", "ours-again");

        app.queue.runUntilIdle();

        assertThat(app.op(id).binding()).contains(BindingStatus.MERGED);
        var details = app.operations.history(id).stream().map(h -> h.detail())
                .filter(d -> d.contains("generating its change again")).toList();
        assertThat(details).hasSize(2);
        assertThat(details.get(0)).doesNotContain("not counted");
        assertThat(details.get(1)).contains("not counted against the conflict limit");
    }

    /**
     * Liveness: regenerations after our own merges are free only until the transient deadline after the step's first
     * regeneration; then they count, and the request ends with a reason instead of regenerating forever.
     */
    @Test
    void ourOwnMergesStopBeingFreeAtTheTransientDeadline() {
        app.gitlab.conflictsOnChangedFiles();
        var id = app.approvedUntilHandleIsNext("dora");
        var ours = "Grant it\n\n" + MergeRequestTexts.OPERATION_TRAILER + "0b0b0000-0000-4000-8000-000000000007\n";
        conflictingCommitBeforeNextMerge(ours, "ours-0");
        app.gitlab.beforeNext("merge", () -> {
            app.clock.advance(app.policy.transientDeadline());
            commitToMain(ours, "ours-1");
        });
        for (int i = 2; i < 6; i++) {
            conflictingCommitBeforeNextMerge(ours, "ours-" + i);
        }

        app.queue.runUntilIdle();

        var op = app.assertState(id, BindingStatus.HANDLE_FAILED, StepStatus.HANDLE_REBASE_CONFLICT, Hint.CONTACT_MAINTAINERS);
        assertThat(op.detail()).contains("(and 1 more time(s) after Changeflow's own merges, which do not count)")
                .contains("it kept conflicting past ").contains("the transient deadline after its first regeneration");
        assertThat(app.gitlab.rewrites()).as("one free, then three counted").isEqualTo(4);
    }

    /** Before the next merge attempt, {@code message}'s commit adds a line to the grant file on main. */
    private void conflictingCommitBeforeNextMerge(String message, String subject) {
        app.gitlab.beforeNext("merge", () -> commitToMain(message, subject));
    }

    private void commitToMain(String message, String subject) {
        var onMain = app.gitlab.fileOn(FakeTargets.PROJECT, "main", GRANT_FILE).orElse("");
        app.gitlab.commit(FakeTargets.PROJECT, "main", message,
                List.of(new FileChange(GRANT_FILE, onMain + subject + " until=never op=0c0c0000-0000-4000-8000-000000000001\n")));
    }
}
