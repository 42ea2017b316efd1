package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.settings.Settings;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The approval funnel against the simulator: both implementations, chosen by {@code approver.mode} on
 * every call, the check items from the upstream configuration API and the 422 self-heal.
 */
class GitLabApprovalTest {

    private static SimulatorServer server;
    private static AdapterContext adapter;
    private static MergeRequests gitlab;

    private String project;

    @BeforeAll
    static void start() {
        server = SimulatorServer.get();
        adapter = AdapterContext.against(server);
        gitlab = adapter.mergeRequests();
    }

    @AfterAll
    static void stop() {
        adapter.close();
    }

    @BeforeEach
    void newProject() {
        server.faults().clear();
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, null);
        project = "platform/approvals-" + UUID.randomUUID().toString().substring(0, 8);
        server.gitlab().ensureProject(project, Map.of("grants/db.txt", "alice\n"));
    }

    @Test
    void approvesWithTheCheckItemsOfTheConfigurationApiInDirectHttpMode() {
        server.gitlab().setCheckItems(project, List.of("ticket-linked", "owner-informed"), true);
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "direct-http");
        var iid = openMergeRequest("changeflow/direct");

        gitlab.approve(project, iid, "approval-bot-1");

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void rebuildsTheRequestFromThe422BodyWhenTheCachedCheckItemsAreStale() {
        server.gitlab().setCheckItems(project, List.of("ticket-linked"), true);
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        var first = openMergeRequest("changeflow/cache-warm");
        gitlab.approve(project, first, "approval-bot-1");

        server.gitlab().setCheckItems(project, List.of("ticket-linked", "security-reviewed"), true);
        var second = openMergeRequest("changeflow/cache-stale");
        gitlab.approve(project, second, "approval-bot-1");
        gitlab.approve(project, second, "approval-bot-2");

        assertThat(gitlab.approvedBy(project, second)).containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void switchesBetweenClientLibraryAndDirectHttpAtRuntimeWithoutRestart() {
        server.gitlab().setCheckItems(project, List.of("ticket-linked"), true);
        var iid = openMergeRequest("changeflow/switch");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.HTTP_STATUS);
                    assertThat(e.status()).isEqualTo(422);
                });

        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        gitlab.approve(project, iid, "approval-bot-1");

        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "nonsense");
        server.gitlab().setCheckItems(project, List.of("ticket-linked"), false);
        gitlab.approve(project, iid, "approval-bot-2");

        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void keepsTheRealUnauthorizedStatusInBothModes() {
        var iid = openMergeRequest("changeflow/twice");
        gitlab.approve(project, iid, "approval-bot-1");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> assertThat(e.status()).isEqualTo(401));
        adapter.dynamicConfig().set(Settings.APPROVER_MODE, "DIRECT_HTTP");
        assertThatThrownBy(() -> gitlab.approve(project, iid, "approval-bot-1"))
                .isInstanceOfSatisfying(ExternalCallException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.HTTP_STATUS);
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.isTransient()).isFalse();
                });
        assertThat(gitlab.approvedBy(project, iid)).containsExactly("approval-bot-1");
    }

    @Test
    void refusesAnAccountThatIsNotAConfiguredApprovalBot() {
        var iid = openMergeRequest("changeflow/unknown");

        assertThatThrownBy(() -> gitlab.approve(project, iid, "somebody-else"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("somebody-else");
    }

    private long openMergeRequest(String branch) {
        gitlab.createBranch(project, branch, "main");
        gitlab.commit(project, branch, "Grant", List.of(new FileChange("grants/db.txt", "alice\n" + branch + "\n")));
        return gitlab.open(project, branch, "main", "Grant " + branch, "operations: " + branch).iid();
    }
}
