package io.changeflow.sandbox.mailbox;

import io.changeflow.sandbox.fault.SandboxEnvelope;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * The sandbox's side of the notifications (issue 32): the chat webhook receiver ({@code POST /sim/chat/{channel}},
 * Slack-compatible JSON), what the mailbox and the receiver got ({@code GET /sim/notifications}: JSON in the sandbox
 * envelope; {@code GET /sim/notifications/page}: a page), and the mail server's switch ({@code POST
 * /sim/notifications/mail-server} {@code {"running": false}} takes it down, {@code true} brings it back).
 */
@RestController
class NotificationsSimulatorController {

    record Switch(Boolean running) {}

    private static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

    private final SandboxMailbox mailbox;
    private final ChatInbox chat;

    NotificationsSimulatorController(SandboxMailbox mailbox, ChatInbox chat) {
        this.mailbox = mailbox;
        this.chat = chat;
    }

    @PostMapping("/sim/chat/{channel}")
    ResponseEntity<String> receive(@PathVariable String channel, @RequestBody Map<String, Object> body) {
        var text = body.get("text");
        if (!(text instanceof String s) || s.isBlank() || !channel.matches("[a-z0-9-]{1,40}")) {
            return ResponseEntity.badRequest().body("invalid_payload");
        }
        chat.add(new ChatInbox.ChatMessage(channel, s, Instant.now()));
        return ResponseEntity.ok("ok");
    }

    @GetMapping("/sim/notifications")
    SandboxEnvelope received(HttpServletResponse response) {
        var mails = mailbox.received();
        var messages = chat.messages();
        return SandboxEnvelope.of("OK", mails.size() + " mail(s), " + messages.size() + " chat message(s)",
                Map.of("mailServerRunning", mailbox.running(), "mails", mails, "chat", messages), response);
    }

    @PostMapping("/sim/notifications/mail-server")
    ResponseEntity<SandboxEnvelope> mailServer(@RequestBody Switch body, HttpServletResponse response) {
        if (body.running() == null) {
            return ResponseEntity.badRequest().body(SandboxEnvelope.of("INVALID_REQUEST", "running must be true or false",
                    null, response));
        }
        if (body.running()) {
            mailbox.start();
        } else {
            mailbox.stop();
        }
        return ResponseEntity.ok(SandboxEnvelope.of("OK", "mail server " + (mailbox.running() ? "running" : "down"),
                Map.of("mailServerRunning", mailbox.running()), response));
    }

    @GetMapping("/sim/notifications/page")
    ResponseEntity<String> page() {
        var html = new StringBuilder("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>Sandbox notifications</title></head><body><main><h1>Sandbox notifications</h1>");
        html.append("<p>Mail server (SMTP 127.0.0.1:").append(mailbox.port()).append("): ")
                .append(mailbox.running() ? "running" : "down").append("</p><h2>Mailbox</h2>");
        var mails = mailbox.received().reversed();
        if (mails.isEmpty()) {
            html.append("<p>No mail yet.</p>");
        }
        for (var mail : mails) {
            html.append("<article><h3>").append(esc(mail.subject())).append("</h3><p>To ").append(esc(mail.to()))
                    .append(", ").append(mail.receivedAt()).append("</p><pre>").append(linked(mail.body()))
                    .append("</pre></article>");
        }
        html.append("<h2>Chat webhooks</h2>");
        var messages = chat.messages().reversed();
        if (messages.isEmpty()) {
            html.append("<p>No chat message yet.</p>");
        }
        for (var message : messages) {
            html.append("<article><h3>#").append(esc(message.channel())).append("</h3><p>").append(message.receivedAt())
                    .append("</p><pre>").append(linked(message.text())).append("</pre></article>");
        }
        html.append("</main></body></html>");
        return ResponseEntity.status(HttpStatus.OK).contentType(HTML).cacheControl(CacheControl.noStore())
                .header("X-Content-Type-Options", "nosniff").body(html.toString());
    }

    private static String esc(String text) {
        return HtmlUtils.htmlEscape(text == null ? "" : text);
    }

    /** The escaped text with its http(s) links made clickable. */
    private static String linked(String text) {
        return esc(text).replaceAll("(https?://[A-Za-z0-9.:/?=&;%_~\\-]+?)(&gt;|\\||\\s|$)", "<a href=\"$1\">$1</a>$2");
    }
}
