package io.changeflow.sandbox.mailbox;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** What the sandbox's chat webhook receiver ({@code POST /sim/chat/{channel}}) was sent, oldest first. */
public final class ChatInbox {

    /** One message: the webhook's channel name and the {@code text} of its Slack-compatible JSON. */
    public record ChatMessage(String channel, String text, Instant receivedAt) {}

    private final List<ChatMessage> messages = new ArrayList<>();

    synchronized void add(ChatMessage message) {
        if (messages.size() >= 1000) {
            messages.removeFirst();
        }
        messages.add(message);
    }

    public synchronized List<ChatMessage> messages() {
        return List.copyOf(messages);
    }
}
