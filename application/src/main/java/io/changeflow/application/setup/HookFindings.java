package io.changeflow.application.setup;

import io.changeflow.application.port.out.ProjectSetup.ProjectHook;
import io.changeflow.application.setup.SetupFinding.Severity;
import java.util.List;
import java.util.Optional;

/**
 * Issue 33 item 3: whether GitLab tells Changeflow of a project's pipelines and merge requests. While webhooks are on
 * here, each project needs a hook to Changeflow's {@code /callbacks/gitlab} with pipeline and merge request events that
 * GitLab has not disabled; without one every pipeline wait falls back to the slower polling. Warnings only: polling
 * still converges.
 */
final class HookFindings {

    /** The path of Changeflow's webhook endpoint, which a hook's URL must end with. */
    static final String ENDPOINT = "/callbacks/gitlab";

    private HookFindings() {
    }

    /** @param hooks the project's hooks, empty when the author bot may not list them */
    static List<SetupFinding> of(String project, Optional<List<ProjectHook>> hooks) {
        if (hooks.isEmpty()) {
            return List.of(new SetupFinding(project, "HOOK_UNREADABLE", Severity.WARNS,
                    "the author bot may not list the project's webhooks (GitLab lets only Maintainers), so whether GitLab"
                            + " tells Changeflow of pipelines and merge requests is unknown; without a hook every pipeline"
                            + " wait falls back to the slower polling",
                    "have a Maintainer check Settings > Webhooks: a hook to Changeflow's " + ENDPOINT + " with the secret"
                            + " token, 'Pipeline events' and 'Merge request events' (docs/external-systems-gitlab.md)"));
        }
        var ours = hooks.get().stream().filter(hook -> pathOf(hook.url()).endsWith(ENDPOINT)).toList();
        if (ours.isEmpty()) {
            return List.of(new SetupFinding(project, "HOOK_MISSING", Severity.WARNS,
                    "no webhook of the project calls Changeflow's " + ENDPOINT + ": every pipeline wait falls back to the"
                            + " slower polling (changeflow.gitlab.webhooks.fallback-poll-interval)",
                    "add a project webhook (Settings > Webhooks) to Changeflow's " + ENDPOINT + " with the secret token,"
                            + " 'Pipeline events' and 'Merge request events'"));
        }
        var working = ours.stream().filter(hook -> hook.pipelineEvents() && hook.mergeRequestsEvents()
                && "executable".equals(hook.alertStatus())).findAny();
        if (working.isPresent()) {
            return List.of();
        }
        var hook = ours.getFirst();
        var why = !"executable".equals(hook.alertStatus())
                ? "GitLab has " + hook.alertStatus().replace('_', ' ') + " the webhook to Changeflow after failed deliveries"
                : "the webhook to Changeflow does not send " + (hook.pipelineEvents() ? "merge request events"
                : hook.mergeRequestsEvents() ? "pipeline events" : "pipeline or merge request events");
        return List.of(new SetupFinding(project, "HOOK_WRONG", Severity.WARNS,
                why + ": those waits fall back to the slower polling",
                "edit the hook (Settings > Webhooks): tick 'Pipeline events' and 'Merge request events', check the secret"
                        + " token, send a test event and re-enable it if GitLab disabled it"));
    }

    private static String pathOf(String url) {
        var query = url.indexOf('?');
        var bare = query < 0 ? url : url.substring(0, query);
        return bare.endsWith("/") ? bare.substring(0, bare.length() - 1) : bare;
    }
}
