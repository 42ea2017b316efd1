package io.changeflow.application.fake;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ProjectSetup;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link ProjectSetup} in memory: every project is set up well (author and approver Maintainers, merge commits) until changed. */
public final class FakeProjectSetup implements ProjectSetup {

    private final Map<String, ProjectSettings> settings = new ConcurrentHashMap<>();
    /** The hooks each project lists; a project without an entry has a hook to Changeflow; an empty Optional: refused. */
    private final Map<String, Optional<List<ProjectSetup.ProjectHook>>> hooks = new ConcurrentHashMap<>();

    /** The hook of a project set up as Changeflow needs it (issue 33). */
    public static ProjectSetup.ProjectHook goodHook() {
        return new ProjectSetup.ProjectHook("https://changeflow.example/callbacks/gitlab", true, true, "executable");
    }

    /** {@code project} lists {@code answer} as its hooks (empty: the bot may not list them). */
    public void setHooks(String project, Optional<List<ProjectSetup.ProjectHook>> answer) {
        hooks.put(project, answer);
    }

    @Override
    public Optional<List<ProjectSetup.ProjectHook>> hooks(String project) {
        return hooks.getOrDefault(project, Optional.of(List.of(goodHook())));
    }

    /** A project set up as Changeflow needs it. */
    public static ProjectSettings clean(String project) {
        return new ProjectSettings(project, "main", "merge", false, false, Optional.of(false), List.of(
                new BotRights("changeflow-bot", BotRole.AUTHOR, 40, true),
                new BotRights("approval-bot", BotRole.APPROVER, 30, false)));
    }

    /** {@code project} answers {@code answer} from now on. */
    public void set(ProjectSettings answer) {
        settings.put(answer.project(), answer);
    }

    @Override
    public ProjectSettings read(String project) {
        if (project.startsWith("missing/")) {
            throw new ExternalCallException("gitlab", ExternalCallException.Kind.HTTP_STATUS, 404, "404 Project Not Found", null);
        }
        return settings.getOrDefault(project, clean(project));
    }
}
