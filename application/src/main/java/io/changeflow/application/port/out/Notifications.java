package io.changeflow.application.port.out;

import java.util.Objects;

/**
 * Delivers one message to one person or channel (issue 32): e-mail over SMTP, or a chat webhook. Called only by the
 * sending job, after the state change committed, never by the workflow.
 */
public interface Notifications {

    /** Where a message goes. */
    enum Channel {
        /** An e-mail to a person's address. */
        MAIL,
        /** A chat message to an incoming webhook (Slack-compatible JSON; Mattermost and Teams connectors accept it). */
        WEBHOOK
    }

    /**
     * One message.
     *
     * @param recipient an e-mail address for {@link Channel#MAIL}; the webhook's name ({@code requests} or {@code operators})
     *                  for {@link Channel#WEBHOOK}
     * @param link      the page the message is about (the request page, or the renewal form); every message has one
     */
    record Message(Channel channel, String recipient, String title, String text, String link) {
        public Message {
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(recipient, "recipient");
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(link, "link");
        }
    }

    /**
     * Sends {@code message} once.
     *
     * @throws NotificationFailedException the server refused it or could not be reached (the job retries later)
     */
    void send(Message message);

    /** A message was not delivered; retrying later may help. */
    final class NotificationFailedException extends RuntimeException {
        public NotificationFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
