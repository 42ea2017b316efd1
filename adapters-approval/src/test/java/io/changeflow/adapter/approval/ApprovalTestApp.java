package io.changeflow.adapter.approval;

import io.changeflow.sandbox.approval.ApprovalSimulatorConfiguration;
import io.changeflow.sandbox.deploy.DeployPipelineConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * A minimal web app: the approval and deploy simulators of the sandbox, this adapter, and a
 * receiver standing in for the application's callback endpoints.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ApprovalSimulatorConfiguration.class, DeployPipelineConfiguration.class, ApprovalConfiguration.class,
        VerifyingReceiver.class})
class ApprovalTestApp {

    static final String APPROVAL_SECRET = "whsec_YXBwcm92YWwtdGVzdC1rZXktZm9yLWFkYXB0ZXItdGVzdHM=";
    static final String DEPLOY_SECRET = "whsec_ZGVwbG95LXRlc3Qta2V5LWZvci1hZGFwdGVyLXRlc3RzLQ==";
}
