package io.changeflow.application.setup;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.fake.FakeProjectSetup;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.ProjectSetup.ProjectHook;
import io.changeflow.application.setup.SetupFinding.Severity;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The setup check reports a missing, wrong or unreadable GitLab webhook while webhooks are on (issue 33 item 3). */
class HookFindingsTest {

    private final FakeTargets targets = FakeTargets.standard();
    private final FakeProjectSetup setup = new FakeProjectSetup();
    private final CheckGitLabSetup check = new CheckGitLabSetup(targets, setup, true);

    private List<String> findings() {
        return check.check().stream().map(SetupFinding::what).toList();
    }

    @Test
    void aProjectWithAWorkingHookToChangeflowHasNoFinding() {
        setup.setHooks(FakeTargets.PROJECT, Optional.of(List.of(
                new ProjectHook("https://ci.example/other", true, true, "executable"),
                new ProjectHook("https://changeflow.example/callbacks/gitlab/", true, true, "executable"))));

        assertThat(check.check()).isEmpty();
    }

    @Test
    void noHookToChangeflowWarnsThatThePipelineWaitsFallBackToPolling() {
        setup.setHooks(FakeTargets.PROJECT, Optional.of(List.of(new ProjectHook("https://ci.example/hook", true, true,
                "executable"))));

        assertThat(check.check()).singleElement().satisfies(finding -> {
            assertThat(finding.what()).isEqualTo("HOOK_MISSING");
            assertThat(finding.severity()).isEqualTo(Severity.WARNS);
            assertThat(finding.why()).contains("/callbacks/gitlab", "slower polling");
            assertThat(finding.action()).contains("Pipeline events", "Merge request events");
        });
    }

    @Test
    void aHookWithoutPipelineEventsOrDisabledByGitLabIsWrong() {
        setup.setHooks(FakeTargets.PROJECT, Optional.of(List.of(new ProjectHook(
                "https://changeflow.example/callbacks/gitlab", false, true, "executable"))));
        assertThat(check.check()).singleElement().satisfies(finding -> {
            assertThat(finding.what()).isEqualTo("HOOK_WRONG");
            assertThat(finding.why()).contains("does not send pipeline events");
        });

        setup.setHooks(FakeTargets.PROJECT, Optional.of(List.of(new ProjectHook(
                "https://changeflow.example/callbacks/gitlab", true, true, "temporarily_disabled"))));
        assertThat(check.check()).singleElement().satisfies(finding -> {
            assertThat(finding.what()).isEqualTo("HOOK_WRONG");
            assertThat(finding.why()).contains("temporarily disabled");
        });
    }

    @Test
    void aBotThatMayNotListTheHooksIsAWarningThatSaysSo() {
        setup.setHooks(FakeTargets.PROJECT, Optional.empty());

        assertThat(check.check()).singleElement().satisfies(finding -> {
            assertThat(finding.what()).isEqualTo("HOOK_UNREADABLE");
            assertThat(finding.severity()).isEqualTo(Severity.WARNS);
            assertThat(finding.why()).contains("only Maintainers");
        });
    }

    @Test
    void withWebhooksOffNoHookIsLookedFor() {
        setup.setHooks(FakeTargets.PROJECT, Optional.empty());

        assertThat(new CheckGitLabSetup(targets, setup).check()).isEmpty();
        assertThat(findings()).containsExactly("HOOK_UNREADABLE");
    }
}
