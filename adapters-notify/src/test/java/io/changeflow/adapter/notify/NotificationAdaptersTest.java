package io.changeflow.adapter.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import com.sun.net.httpserver.HttpServer;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.application.port.out.Notifications.NotificationFailedException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Issue 32: the mail adapter against a real SMTP server (GreenMail) and the webhook against a real HTTP receiver. */
class NotificationAdaptersTest {

    private GreenMail smtp;
    private HttpServer receiver;
    private final List<String> posted = new CopyOnWriteArrayList<>();
    private volatile int answer = 200;

    @BeforeEach
    void start() throws Exception {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hooks/requests", exchange -> {
            posted.add(exchange.getRequestHeaders().getFirst("Content-Type") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(answer, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() {
        smtp.stop();
        receiver.stop(0);
    }

    private ChannelNotifications notifications(int smtpPort) {
        var hook = URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks/requests");
        return new ChannelNotifications(Optional.of(new SmtpMail("127.0.0.1", smtpPort, "changeflow@corp.example",
                Duration.ofSeconds(5))), new WebhookChat(Duration.ofSeconds(5)), Map.of("requests", hook));
    }

    private static Message message(Channel channel, String to) {
        return new Message(channel, to, "In effect", "grant of bob on \"db\"", "http://localhost:8080/requests/0a0a");
    }

    @Test
    void aMailArrivesWithTheTitleAndTheLink() throws Exception {
        notifications(smtp.getSmtp().getPort()).send(message(Channel.MAIL, "bob@corp.example"));

        var received = smtp.getReceivedMessages();
        assertThat(received).hasSize(1);
        assertThat(received[0].getSubject()).isEqualTo("In effect");
        assertThat(received[0].getAllRecipients()[0].toString()).isEqualTo("bob@corp.example");
        assertThat(received[0].getFrom()[0].toString()).isEqualTo("changeflow@corp.example");
        assertThat(GreenMailUtil.getBody(received[0])).contains("grant of bob", "http://localhost:8080/requests/0a0a");
    }

    @Test
    void aMailServerThatIsDownIsAFailureToRetry() throws Exception {
        int closed;
        try (var socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        assertThatThrownBy(() -> notifications(closed).send(message(Channel.MAIL, "bob@corp.example")))
                .isInstanceOf(NotificationFailedException.class);
    }

    @Test
    void theWebhookGetsSlackCompatibleJsonWithTheLink() {
        notifications(smtp.getSmtp().getPort()).send(message(Channel.WEBHOOK, "requests"));

        assertThat(posted).containsExactly("application/json {\"text\":\"*In effect*\\ngrant of bob on \\\"db\\\"\\n"
                + "<http://localhost:8080/requests/0a0a|Open in Changeflow>\"}");
    }

    @Test
    void aWebhookAnsweringAnErrorIsAFailureAndAnUnconfiguredWebhookDropsTheMessage() {
        answer = 503;
        var notifications = notifications(smtp.getSmtp().getPort());
        assertThatThrownBy(() -> notifications.send(message(Channel.WEBHOOK, "requests")))
                .isInstanceOf(NotificationFailedException.class).hasMessageContaining("503");

        notifications.send(message(Channel.WEBHOOK, "operators"));
        assertThat(posted).hasSize(1);
    }

    @Test
    void garbledSettingsFallBackToTheirDefaults() {
        assertThat(NotifyConfiguration.port("banana")).isEqualTo(25);
        assertThat(NotifyConfiguration.port("70000")).isEqualTo(25);
        assertThat(NotifyConfiguration.port("3025")).isEqualTo(3025);
        assertThat(NotifyConfiguration.timeout("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(NotifyConfiguration.timeout("-1s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(NotifyConfiguration.timeout("1h")).isEqualTo(Duration.ofSeconds(10));
    }
}
