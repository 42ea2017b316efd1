package io.changeflow.sandbox.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * The callbacks of one simulator: JSON bodies, each a new message ({@code webhook-id}), delivered by its
 * {@link WebhookSender} as the next plan of its {@link CallbackControls} says (lost, late or duplicated).
 */
public final class SimulatorCallbacks implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final WebhookSender sender;
    private final CallbackControls controls;

    public SimulatorCallbacks(WebhookSender sender, CallbackControls controls) {
        this.sender = sender;
        this.controls = controls;
    }

    /** How the next callback goes; when it is lost, nothing is sent and the simulator says so. */
    public DeliveryPlan next() {
        return controls.next();
    }

    /** Sends {@code body} to {@code path} after {@code delay} plus the plan's extra delay, twice when it duplicates. */
    public void send(String path, Map<String, Object> body, Duration delay, DeliveryPlan plan) {
        var delivery = delivery(path, body);
        var when = delay.plus(plan.extraDelay());
        sender.send(delivery, when);
        if (plan.duplicate()) {
            sender.send(delivery, when);
        }
    }

    /** Sends {@code body} to {@code path} on the calling thread, outside the plans (one attempt; retries go on the executor). */
    public void sendNow(String path, Map<String, Object> body) {
        sender.sendNow(delivery(path, body));
    }

    /** The one-shot controls: lose, duplicate or delay the next callbacks. */
    public CallbackControls controls() {
        return controls;
    }

    /** The delivery log. */
    public List<WebhookSender.Attempt> attempts() {
        return sender.attempts();
    }

    @Override
    public void close() {
        sender.close();
    }

    private static WebhookSender.Delivery delivery(String path, Map<String, Object> body) {
        return new WebhookSender.Delivery("msg_" + UUID.randomUUID(), path, JSON.writeValueAsBytes(body));
    }
}
