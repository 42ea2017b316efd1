package io.changeflow.sandbox.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/** The simulators on a random port with short delays; every test class using it shares one context. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = SimulatorTestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "sandbox.webhook.approval-secret=" + TestSecrets.APPROVAL,
                "sandbox.webhook.deploy-secret=" + TestSecrets.DEPLOY,
                "sandbox.webhook.max-attempts=3",
                "sandbox.webhook.retry-backoff=100ms",
                "sandbox.approval.mode=manual",
                "sandbox.approval.auto-delay=200ms",
                "sandbox.deploy.delay=50ms",
                "sandbox.deploy.lost-share=0",
                "sandbox.deploy.include-operation-ids=true"
        })
public @interface SimulatorTest {
}
