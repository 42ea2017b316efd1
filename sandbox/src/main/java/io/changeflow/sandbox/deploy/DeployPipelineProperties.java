package io.changeflow.sandbox.deploy;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code sandbox.deploy.*}.
 *
 * @param delay               from a merge to its "in effect" callback
 * @param lostShare           share of callbacks never sent, in [0, 1] (exercises reconciliation)
 * @param includeOperationIds send the {@code Changeflow-Operation} IDs of the MR description as
 *                            {@code operationIds} (exact matching); off: MR number only (watermark)
 */
@ConfigurationProperties("sandbox.deploy")
public record DeployPipelineProperties(@DefaultValue("2s") Duration delay,
                                       @DefaultValue("0") double lostShare,
                                       @DefaultValue("true") boolean includeOperationIds) {

    public DeployPipelineProperties {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("sandbox.deploy.delay must not be negative");
        }
        if (!(lostShare >= 0 && lostShare <= 1)) {
            throw new IllegalArgumentException("sandbox.deploy.lost-share is a share in [0, 1]");
        }
    }
}
