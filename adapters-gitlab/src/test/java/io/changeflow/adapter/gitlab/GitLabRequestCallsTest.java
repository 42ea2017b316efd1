package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.FileRead;
import io.changeflow.application.port.out.MergeRequests.MergeResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 33 item 3, GitLab calls per request, against the simulator over HTTP and counted as the adapter reports its
 * calls: the create step's commit uses its own read of the grant file (one read, not two), an approval answers GitLab's
 * approval state (no read after the approvals), and the default branch is served from a short per-project cache while
 * the read before a merge (merge trains) is always made.
 */
class GitLabRequestCallsTest {

    private static final String FILE = "grants/db.txt";

    private SimulatorServer server;
    private AdapterContext adapter;
    private MergeRequests gitlab;
    private String project;

    @BeforeEach
    void aProject() {
        server = SimulatorServer.get();
        server.faults().clear();
        server.gitlab().setTimings(Duration.ZERO, Duration.ZERO, Duration.ofMillis(100));
        adapter = AdapterContext.start(server.baseUrl(), Map.of("project-cache-ttl", "1m")); // production's default
        gitlab = adapter.mergeRequests();
        project = server.newProject("platform/request-calls", Map.of("grants/other.txt", "alice\n"));
    }

    @AfterEach
    void close() {
        adapter.close();
    }

    /** The calls {@code adapter} reported for {@code operation} so far. */
    private static long calls(AdapterContext adapter, String operation) {
        return adapter.meters().find(AdapterContext.CALLS).tag("operation", operation).timers().stream()
                .mapToLong(timer -> timer.count()).sum();
    }

    private long calls(String operation) {
        return calls(adapter, operation);
    }

    @Test
    void aCommitOnTheCallersReadOfTheFileMakesTheCommitAloneAndCreatesOrUpdatesAsThatReadSays() {
        gitlab.createBranch(project, "create", "main");
        var missing = new FileRead(FILE, gitlab.readFile(project, "create", FILE));
        var reads = calls("readFile");

        gitlab.commit(project, "create", "Grant bob", new FileChange(FILE, "bob\n"), missing);
        var present = new FileRead(FILE, gitlab.readFile(project, "create", FILE));
        gitlab.commit(project, "create", "Grant carol", new FileChange(FILE, "bob\ncarol\n"), present);

        assertThat(missing.content()).isEmpty();
        assertThat(present.content()).contains("bob\n");
        assertThat(calls("readFile") - reads).as("only the caller's own read of the second commit").isEqualTo(1);
        assertThat(calls("commit")).isEqualTo(2);
        assertThat(gitlab.readFile(project, "create", FILE)).contains("bob\ncarol\n");
    }

    @Test
    void aReadGoneStaleCostsACommitGitLabRefusesNeverAWrongOne() {
        gitlab.createBranch(project, "stale", "main");
        var missing = new FileRead(FILE, gitlab.readFile(project, "stale", FILE));
        gitlab.commit(project, "stale", "Someone else's", List.of(new FileChange(FILE, "mallory\n")));

        assertThatThrownBy(() -> gitlab.commit(project, "stale", "Grant bob", new FileChange(FILE, "bob\n"), missing))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(400));

        assertThat(gitlab.readFile(project, "stale", FILE)).as("nothing overwritten").contains("mallory\n");
    }

    @Test
    void anApprovalAnswersGitLabsApprovalStateSoNoReadOfTheApprovalsFollows() {
        var iid = open("approve");
        var head = gitlab.get(project, iid).sha();
        var bots = gitlab.approvalAccounts();

        var first = gitlab.approveWithState(project, iid, bots.get(0), head);
        var last = gitlab.approveWithState(project, iid, bots.get(1), head);

        assertThat(calls("approvedBy")).as("no read of the approvals").isZero();
        assertThat(first).hasValueSatisfying(state -> assertThat(state.approvedBy()).containsExactly(bots.get(0)));
        assertThat(last).as("the answer is the read's entity").contains(gitlab.approvalState(project, iid));
        assertThat(last.orElseThrow().approvedBy()).containsExactlyElementsOf(bots);
    }

    @Test
    void theDefaultBranchIsReadOnceWithinTheCacheTimeAndTheMergeAlwaysReadsTheProject() {
        assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
        assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
        assertThat(calls("defaultBranch")).as("served from the first read").isEqualTo(1);

        // merge trains turned on meanwhile: the merge's own read sees it, whatever the cache holds
        var iid = open("train");
        server.gitlab().setMergeTrains(project, true);
        assertThat(gitlab.merge(project, iid, gitlab.get(project, iid).sha())).isEqualTo(MergeResult.MERGE_TRAIN_NOT_SKIPPABLE);
        assertThat(calls("mergeTrains")).isEqualTo(1);
        assertThat(gitlab.defaultBranch(project)).isEqualTo("main");
        assertThat(calls("defaultBranch")).as("the merge's read refreshed the cache").isEqualTo(1);
    }

    @Test
    void aCacheTimeOfZeroReadsTheDefaultBranchEveryTime() {
        try (var uncached = AdapterContext.start(server.baseUrl(), Map.of("project-cache-ttl", "0s"))) {
            var reads = uncached.mergeRequests();
            reads.defaultBranch(project);
            reads.defaultBranch(project);

            assertThat(calls(uncached, "defaultBranch")).isEqualTo(2);
        }
    }

    private long open(String branch) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Change " + branch, List.of(new FileChange("grants/" + branch + ".txt", "bob\n")));
        return gitlab.open(project, branch, "main", "Change " + branch, "operations: " + branch).iid();
    }
}
