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

    private static final System.Logger LOG = System.getLogger(SandboxMailbox.class.getName());

    private int port;
    private final List<Mail> earlier = new ArrayList<>();
    private GreenMail server;

    public SandboxMailbox(int port) {
        this.port = port;
    }

    /**
     * Starts the server on the configured port; when that port is taken (another sandbox on this machine, a second
     * test context), on a free one instead. A restart after {@link #stop()} uses the port it got first.
     */
    public synchronized void start() {
        if (server != null) {
            return;
        }
        GreenMail started;
        try {
            started = startOn(port);
        } catch (RuntimeException taken) {
            if (port == 0) {
                throw taken;
            }
            LOG.log(System.Logger.Level.WARNING, "sandbox SMTP port {0} is taken; using a free port", port);
            started = startOn(0);
        }
        server = started;
        port = started.getSmtp().getPort();
    }

    private static GreenMail startOn(int port) {
        var mail = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        try {
            mail.start();
            return mail;
        } catch (RuntimeException e) {
            mail.stop();
            throw e;
        }
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

    /** The port it listens on (after a stop: the one it will use again). */
    public synchronized int port() {
        return port;
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
