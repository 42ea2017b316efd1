package io.changeflow.adapter.notify;

import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Notifications.NotificationFailedException;
import java.time.Duration;
import java.util.Properties;
import org.springframework.mail.MailException;
import org.springframework.mail.SimpleMailMessage;
import org.springframework.mail.javamail.JavaMailSenderImpl;

/** E-mail over SMTP (Spring's mail support on Jakarta Mail): a plain-text message whose last line is the link. */
final class SmtpMail {

    private final JavaMailSenderImpl sender;
    private final String from;

    SmtpMail(String host, int port, String from, Duration timeout) {
        this.sender = new JavaMailSenderImpl();
        sender.setHost(host);
        sender.setPort(port);
        sender.setDefaultEncoding("UTF-8");
        var millis = Long.toString(timeout.toMillis());
        var properties = new Properties();
        properties.setProperty("mail.smtp.connectiontimeout", millis);
        properties.setProperty("mail.smtp.timeout", millis);
        properties.setProperty("mail.smtp.writetimeout", millis);
        sender.setJavaMailProperties(properties);
        this.from = from;
    }

    void send(Message message) {
        var mail = new SimpleMailMessage();
        mail.setFrom(from);
        mail.setTo(message.recipient());
        mail.setSubject(message.title());
        mail.setText(message.text() + "\n\n" + message.link() + "\n");
        try {
            sender.send(mail);
        } catch (MailException e) {
            throw new NotificationFailedException("mail to " + message.recipient() + " not sent: " + e.getMessage(), e);
        }
    }
}
