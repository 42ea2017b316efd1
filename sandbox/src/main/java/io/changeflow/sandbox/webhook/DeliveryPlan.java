package io.changeflow.sandbox.webhook;

import java.time.Duration;

/**
 * How one outgoing callback is delivered.
 *
 * @param lost       never delivered (the receiver has to recover, e.g. by reconciliation)
 * @param duplicate  delivered twice, with the same {@code webhook-id} and body
 * @param extraDelay added to the normal delay (a late callback; later ones may overtake it)
 */
public record DeliveryPlan(boolean lost, boolean duplicate, Duration extraDelay) {

    public static final DeliveryPlan NORMAL = new DeliveryPlan(false, false, Duration.ZERO);

    public DeliveryPlan {
        if (extraDelay == null || extraDelay.isNegative()) {
            throw new IllegalArgumentException("extraDelay must be zero or positive");
        }
    }
}
