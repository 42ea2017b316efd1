package io.changeflow.sandbox.mailbox;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sandbox's real SMTP server (GreenMail, embedded) on {@code sandbox.mail.port} of {@code 127.0.0.1}, and what
 * it received. {@link #stop()} and {@link #start()} take it down and bring it back (the "mail server down"
 * control); what it received before a stop stays listed.
 */
public final class SandboxMailbox {

    /** One received e-mail. */
    public record Mail(String to, String from, String subject, String body, Instant receivedAt) {}

    private final int port;
    private final List<Mail> earlier = new ArrayList<>();
    private GreenMail server;

    public SandboxMailbox(int port) {
        this.port = port;
    }

    public synchronized void start() {
        if (server != null) {
            return;
        }
        var started = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        started.start();
        server = started;
    }

    public synchronized void stop() {
        if (server == null) {
            return;
        }
        earlier.addAll(current());
        server.stop();
        server = null;
    }

    public synchronized boolean running() {
        return server != null;
    }

    public synchronized int port() {
        return server == null ? port : server.getSmtp().getPort();
    }

    /** Every mail received since start, oldest first. */
    public synchronized List<Mail> received() {
        var all = new ArrayList<>(earlier);
        all.addAll(current());
        return all;
    }

    private List<Mail> current() {
        if (server == null) {
            return List.of();
        }
        return Arrays.stream(server.getReceivedMessages()).map(SandboxMailbox::mail).toList();
    }

    private static Mail mail(MimeMessage message) {
        try {
            var to = message.getAllRecipients() == null ? "" : message.getAllRecipients()[0].toString();
            var from = message.getFrom() == null ? "" : message.getFrom()[0].toString();
            var at = message.getReceivedDate() == null ? Instant.now() : message.getReceivedDate().toInstant();
            return new Mail(to, from, message.getSubject(), GreenMailUtil.getBody(message).strip(), at);
        } catch (MessagingException e) {
            return new Mail("", "", "(unreadable)", e.getMessage(), Instant.now());
        }
    }
}
