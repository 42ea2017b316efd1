package io.changeflow.adapter.notify;

import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Notifications.NotificationFailedException;
import java.time.Duration;
import java.util.Properties;
import java.util.function.IntSupplier;
import org.springframework.mail.MailException;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/** E-mail over SMTP (Spring's mail support on Jakarta Mail): a plain-text message whose last line is the link. */
final class SmtpMail {

    private final String host;
    private final IntSupplier port;
    private final String from;
    private final Properties properties = new Properties();

    /** @param port read on every message (a placeholder such as the sandbox's bound port resolves late) */
    SmtpMail(String host, IntSupplier port, String from, Duration timeout) {
        this.host = host;
        this.port = port;
        this.from = from;
        var millis = Long.toString(timeout.toMillis());
        properties.setProperty("mail.smtp.connectiontimeout", millis);
        properties.setProperty("mail.smtp.timeout", millis);
        properties.setProperty("mail.smtp.writetimeout", millis);
    }

    SmtpMail(String host, int port, String from, Duration timeout) {
        this(host, () -> port, from, timeout);
    }

    void send(Message message) {
        var mail = new SimpleMailMessage();
        mail.setFrom(from);
        mail.setTo(message.recipient());
        mail.setSubject(message.title());
        mail.setText(message.text() + "\n\n" + message.link() + "\n");
        var sender = new JavaMailSenderImpl();
        sender.setHost(host);
        sender.setPort(port.getAsInt());
        sender.setDefaultEncoding("UTF-8");
        sender.setJavaMailProperties(properties);
        try {
            sender.send(mail);
        } catch (MailException e) {
            throw new NotificationFailedException("mail to " + message.recipient() + " not sent: " + e.getMessage(), e);
        }
    }
}
