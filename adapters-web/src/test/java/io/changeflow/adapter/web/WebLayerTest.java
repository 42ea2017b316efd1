package io.changeflow.adapter.web;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;

/**
 * The shared test context: the web adapter on a random port (MockMvc against the same context),
 * fakes for the ports, a 100 ms config poll, a short permission deadline. One context for all
 * classes that use it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = WebTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "changeflow.dynamic-config.file=target/web-test/dynamic.properties",
                "changeflow.dynamic-config.poll-interval=100ms",
                "changeflow.identity.embedded-defaults=false",
                "changeflow.identity.email-domains=corp.example",
                "changeflow.identity.headers=X-Forwarded-User, X-Forwarded-Email",
                "changeflow.identity.trusted-proxies=127.0.0.0/8, ::1, 10.9.0.0/16",
                "changeflow.permissions.timeout=300ms",
                "changeflow.directory.timeout=300ms",
                "changeflow.ratelimit.cluster-timeout=300ms",
                "changeflow.metrics.business-activities=POST /test/submit, GET /test/requests/{id}, GET /legacy/*",
                "changeflow.web.max-body-size=1KB",
                "changeflow.gitlab.webhooks.secret=" + GitLabHooksWebTest.SECRET,
                "changeflow.gitlab.webhooks.max-body-size=8KB",
                "workflow.approveFirst=true",
                "management.endpoints.web.exposure.include=health,metrics",
                "management.endpoint.health.show-details=when-authorized",
                "management.endpoint.health.show-components=when-authorized",
                "management.endpoint.health.probes.enabled=true",
                "spring.main.banner-mode=off"})
@AutoConfigureMockMvc
@interface WebLayerTest {
}
