package io.changeflow.adapter.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.adapter.web.identity.CallerIdentity;
import jakarta.servlet.http.Cookie;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;

/**
 * Without the sandbox profile the demo sign-in does not exist, even with {@code changeflow.sandbox.demo-login=true}
 * set by mistake: no sign-in endpoint, and the demo cookie of a demo person identifies nobody (issue 37).
 */
@SpringBootTest(classes = SandboxTestApplication.class, properties = {
        "changeflow.sandbox.demo-login=true",
        "changeflow.dynamic-config.file=target/web-test/production-demo-login/dynamic.properties",
        "changeflow.permissions.grants.otto=ops.operator",
        "spring.main.banner-mode=off"})
@AutoConfigureMockMvc
class ProductionDemoLoginTest {

    @Autowired
    MockMvc mvc;

    @Test
    void theDemoLoginPropertyAloneOpensNoDemoSignIn() throws Exception {
        mvc.perform(post("/sandbox/login").contentType(MediaType.APPLICATION_JSON).content("{\"user\":\"otto\"}"))
                .andExpect(status().isNotFound());
        mvc.perform(get("/api/me").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "otto")))
                .andExpect(status().isUnauthorized()).andExpect(jsonPath("$.code").value("UNAUTHENTICATED"));
        mvc.perform(get("/ops/config").cookie(new Cookie(CallerIdentity.DEMO_COOKIE, "otto")))
                .andExpect(status().isUnauthorized());
        // the control: the gateway's header still identifies the operator
        mvc.perform(get("/ops/config").header(CallerIdentity.USER_HEADER, "otto")).andExpect(status().isOk());
    }
}
