package io.changeflow.adapter.approval;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;

/** The approval system simulator and this adapter on one random port; test classes using it share a context. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = ApprovalTestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "sandbox.webhook.approval-secret=" + ApprovalTestApp.APPROVAL_SECRET,
                "sandbox.webhook.deploy-secret=" + ApprovalTestApp.DEPLOY_SECRET,
                "sandbox.webhook.retry-backoff=100ms",
                "sandbox.approval.mode=manual",
                "sandbox.approval.auto-delay=200ms",
                "sandbox.deploy.delay=50ms",
                "changeflow.approval.base-url=http://localhost:${local.server.port}/sim/approval",
                "changeflow.callbacks.approval.secrets=" + ApprovalTestApp.APPROVAL_SECRET,
                "changeflow.callbacks.deploy.secrets=" + ApprovalTestApp.DEPLOY_SECRET
        })
@interface ApprovalSystemTest {
}
