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
