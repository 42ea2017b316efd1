package io.changeflow.adapter.gitlab;

import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Profile;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * {@link AgainstSimulator} with a fresh project ({@link #projectPath()}, one grant file) before each test, no faults,
 * quick merge checks, and the simulator's default behaviour (the 17.x profile) back after it.
 */
abstract class AgainstProjectOfItsOwn extends AgainstSimulator {

    /** The path of the project each test gets, e.g. {@code platform/checks}. */
    abstract String projectPath();

    @BeforeEach
    void newProject() {
        server.faults().clear();
        server.gitlab().setTimings(Duration.ZERO, Duration.ZERO, Duration.ofMillis(100));
        project = server.newProject(projectPath(), Map.of("grants/db.txt", "alice\n"));
    }

    @AfterEach
    void defaultBehaviour() {
        server.gitlab().setBehaviour(Profile.GITLAB_17, false, Duration.ZERO);
    }
}
