package io.changeflow.sandbox.approval;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code sandbox.approval.*}.
 *
 * @param mode      {@code auto}: every submission is approved after {@code autoDelay};
 *                  {@code manual}: a person decides in the approver inbox
 * @param autoDelay how long an approval stays pending in auto mode
 */
@ConfigurationProperties("sandbox.approval")
public record ApprovalSimulatorProperties(@DefaultValue("auto") ApprovalSimulator.Mode mode,
                                          @DefaultValue("3s") Duration autoDelay) {

    public ApprovalSimulatorProperties {
        if (autoDelay.isNegative()) {
            throw new IllegalArgumentException("sandbox.approval.auto-delay must not be negative");
        }
    }
}
