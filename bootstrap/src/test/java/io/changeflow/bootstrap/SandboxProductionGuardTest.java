package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

/** The sandbox profile refuses to start where production is configured (issue 37). */
class SandboxProductionGuardTest {

    private final SandboxProductionGuard guard = new SandboxProductionGuard();

    private static MockEnvironment sandbox() {
        var environment = new MockEnvironment();
        environment.setActiveProfiles("sandbox");
        return environment;
    }

    @Test
    void theSandboxProfileRefusesToStartInAnEnvironmentNamedProduction() {
        var environment = sandbox().withProperty("changeflow.environment", "production");

        assertThatThrownBy(() -> guard.postProcessEnvironment(environment, new SpringApplication()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Refusing to start: the sandbox profile")
                .hasMessageContaining("changeflow.environment=production");
    }

    @Test
    void aGitLabThatIsNotASandboxSimulatorIsAProductionMarker() {
        for (var url : new String[] {"https://gitlab.corp.example", "http://127.0.0.1:8080/api/v4",
                "http://gitlab.corp.example/sim/gitlab", "http://localhost.evil.example/sim/gitlab", "not a url"}) {
            assertThat(SandboxProductionGuard.productionMarkers(null, url)).as(url).hasSize(1);
        }
        for (var url : new String[] {"http://127.0.0.1:43210/sim/gitlab", "http://localhost:8080/sim/gitlab/",
                "http://[::1]:8080/sim/gitlab", ""}) {
            assertThat(SandboxProductionGuard.productionMarkers(null, url)).as(url).isEmpty();
        }
    }

    @Test
    void aRealDatabaseIsNoMarkerAndWithoutTheSandboxProfileNothingIsChecked() {
        var sandboxOnMariaDb = sandbox().withProperty("spring.datasource.url", "jdbc:mysql://db.corp.example:3306/changeflow");
        assertThatCode(() -> guard.postProcessEnvironment(sandboxOnMariaDb, new SpringApplication())).doesNotThrowAnyException();

        var production = new MockEnvironment().withProperty("changeflow.environment", "production")
                .withProperty("changeflow.gitlab.base-url", "https://gitlab.corp.example");
        assertThatCode(() -> guard.postProcessEnvironment(production, new SpringApplication())).doesNotThrowAnyException();
    }
}
