package io.changeflow.adapter.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeInstances;
import io.changeflow.application.port.out.Instances.Identity;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** {@code GET /ops/instances}: every instance's version and commit during a rolling upgrade (issue 31), for operators only. */
class InstancesWebTest extends WebTestSupport {

    @Autowired
    FakeInstances instances;

    @BeforeEach
    void anOperatorAndAnEmptyRoster() {
        permissions.grant("otto", "ops.operator");
        instances.roster().instances().forEach(instance -> instances.forget(instance.identity().name()));
    }

    @Test
    void anOperatorSeesEachInstancesVersionAndCommitAndThatTheClusterRunsTwoVersions() throws Exception {
        instances.started(new Identity("app-1", "0.4.0", "aaaa111"));
        instances.started(new Identity("app-2", "0.4.0", "aaaa111"));
        app.clock.advance(Duration.ofSeconds(30));
        instances.started(new Identity("app-3", "0.5.0", "bbbb222"));
        instances.stopped("app-1");

        mvc.perform(as(get("/ops/instances"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.mixed").value(true))
                .andExpect(jsonPath("$.data.versions[0]").value("0.4.0"))
                .andExpect(jsonPath("$.data.versions[1]").value("0.5.0"))
                .andExpect(jsonPath("$.data.instances.length()").value(3))
                .andExpect(jsonPath("$.data.instances[0].name").value("app-3"))
                .andExpect(jsonPath("$.data.instances[0].version").value("0.5.0"))
                .andExpect(jsonPath("$.data.instances[0].commit").value("bbbb222"))
                .andExpect(jsonPath("$.data.instances[0].state").value("RUNNING"))
                .andExpect(jsonPath("$.data.instances[0].stoppedAt").value(org.hamcrest.Matchers.nullValue()))
                .andExpect(jsonPath("$.data.instances[1].name").value("app-2"))
                .andExpect(jsonPath("$.data.instances[1].secondsSinceSeen").value(30))
                .andExpect(jsonPath("$.data.instances[2].name").value("app-1"))
                .andExpect(jsonPath("$.data.instances[2].state").value("STOPPED"))
                .andExpect(jsonPath("$.data.instances[2].stoppedAt").isString());
    }

    @Test
    void anInstanceWithoutHeartbeatsPastTheStaleBoundIsSilentAndLeavesTheVersions() throws Exception {
        instances.started(new Identity("app-1", "0.4.0", "aaaa111"));
        instances.started(new Identity("app-2", "0.5.0", "bbbb222"));
        app.clock.advance(Duration.ofSeconds(61));
        instances.seen("app-2");

        mvc.perform(as(get("/ops/instances"), "otto")).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.mixed").value(false))
                .andExpect(jsonPath("$.data.versions.length()").value(1))
                .andExpect(jsonPath("$.data.instances[1].name").value("app-1"))
                .andExpect(jsonPath("$.data.instances[1].state").value("SILENT"))
                .andExpect(jsonPath("$.data.instances[1].secondsSinceSeen").value(61));
    }

    @Test
    void itIsForOperatorsOnly() throws Exception {
        mvc.perform(get("/ops/instances")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/instances"), "alice")).andExpect(status().isForbidden());
    }
}
