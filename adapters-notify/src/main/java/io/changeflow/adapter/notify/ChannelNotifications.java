package io.changeflow.adapter.notify;

import io.changeflow.application.port.out.Notifications;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@link Notifications} by channel: mail through {@link SmtpMail}, webhooks through {@link WebhookChat} to the URL
 * configured for the webhook's name. A channel that is not configured (no SMTP host, no URL for the name) drops the
 * message with a log line: there is nobody to tell, and retrying would never help.
 */
final class ChannelNotifications implements Notifications {

    private static final System.Logger LOG = System.getLogger(ChannelNotifications.class.getName());

    private final Optional<SmtpMail> mail;
    private final WebhookChat chat;
    private final Function<String, Optional<URI>> webhooks;

    /** @param webhooks the URL of a webhook by name, read on every message (placeholders resolve once the server runs) */
    ChannelNotifications(Optional<SmtpMail> mail, WebhookChat chat, Function<String, Optional<URI>> webhooks) {
        this.mail = mail;
        this.chat = chat;
        this.webhooks = webhooks;
    }

    ChannelNotifications(Optional<SmtpMail> mail, WebhookChat chat, Map<String, URI> webhooks) {
        this(mail, chat, name -> Optional.ofNullable(Map.copyOf(webhooks).get(name)));
    }

    @Override
    public void send(Message message) {
        switch (message.channel()) {
            case MAIL -> mail.ifPresentOrElse(m -> m.send(message),
                    () -> LOG.log(Level.DEBUG, "no SMTP host configured: mail to {0} dropped", message.recipient()));
            case WEBHOOK -> {
                webhooks.apply(message.recipient()).ifPresentOrElse(url -> chat.send(url, message),
                        () -> LOG.log(Level.DEBUG, "no URL configured for webhook {0}: message dropped", message.recipient()));
            }
        }
    }
}
