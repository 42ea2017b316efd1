package io.changeflow.adapter.notify;

import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Notifications.NotificationFailedException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A Slack-compatible incoming webhook: {@code POST} of {@code {"text": "..."}} with the link in Slack's
 * {@code <url|label>} form, which Mattermost's incoming webhooks and Teams' connectors accept too. Any 2xx is
 * delivered; anything else, or no answer within the timeout, is a failure (retried by the sending job).
 */
final class WebhookChat {

    private final HttpClient http;
    private final Duration timeout;

    WebhookChat(Duration timeout) {
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    void send(URI url, Message message) {
        var text = "*" + message.title() + "*\n" + message.text() + "\n<" + message.link() + "|Open in Changeflow>";
        var request = HttpRequest.newBuilder(url).timeout(timeout).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\":" + json(text) + "}")).build();
        int status;
        try {
            status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            throw new NotificationFailedException("webhook " + message.recipient() + " not reached: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotificationFailedException("webhook " + message.recipient() + " interrupted", e);
        }
        if (status / 100 != 2) {
            throw new NotificationFailedException("webhook " + message.recipient() + " answered " + status, null);
        }
    }

    /** A JSON string literal. */
    static String json(String text) {
        var out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
