package io.changeflow.sandbox.support;

import io.changeflow.sandbox.approval.ApprovalSimulatorConfiguration;
import io.changeflow.sandbox.deploy.DeployPipelineConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** A minimal web app running the approval and deploy simulators and a recording callback receiver. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ApprovalSimulatorConfiguration.class, DeployPipelineConfiguration.class, CallbackRecorder.class})
public class SimulatorTestApp {
}
