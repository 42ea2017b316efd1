package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.application.notify.ListNotifications;
import io.changeflow.application.port.out.Notifications.Channel;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operators' view of the notifications' outbox (issue 32, docs/notifications.md): every queued message with where
 * it stands, newest first, a page at a time. Operators only, like every {@code /ops/} path.
 */
@RestController
public final class NotificationsController {

    /**
     * One message. {@code recipientKind}: {@code PERSON} (a mail to {@code recipient}), {@code REQUESTS} or
     * {@code OPERATORS} (that chat webhook); {@code link}: the page it is about (the request page, a renewal form, the
     * drift page); {@code lastError}: the last failure without secrets (addresses cut to scheme and host).
     */
    record NotificationJson(long id, String state, String channel, String recipientKind, String recipient, String title,
                            String link, int attempts, String nextAttempt, @Nullable String lastError,
                            @Nullable String sentAt, String queuedAt) {
        static NotificationJson of(ListNotifications.Entry e) {
            var m = e.message();
            var message = m.message();
            var kind = message.channel() == Channel.MAIL ? "PERSON" : message.recipient().toUpperCase(Locale.ROOT);
            return new NotificationJson(m.id(), e.state().name(), message.channel().name(), kind, message.recipient(),
                    message.title(), message.link(), m.attempts(), m.nextAttempt().toString(), e.lastError().orElse(null),
                    m.sentAt().map(Object::toString).orElse(null), m.queuedAt().toString());
        }
    }

    /** A page; {@code nextBefore}: the {@code before} of the next page, null on the last one. */
    record NotificationPageJson(List<NotificationJson> notifications, @Nullable Long nextBefore) {}

    private final ListNotifications list;

    public NotificationsController(ListNotifications list) {
        this.list = list;
    }

    /**
     * 200 OK with the messages in {@code state} ({@code PENDING}, {@code RETRYING}, {@code GAVE_UP}, {@code SENT}, any
     * case; absent: all) with an id below {@code before} (absent: the newest), newest first, at most {@code limit}
     * (1 to 500); 400 INVALID_REQUEST with a field error for a state or cursor that cannot be one.
     */
    @Answers(summary = "The notifications' outbox: queued messages and where they stand", errors = ErrorCode.INVALID_REQUEST)
    @GetMapping("/ops/notifications")
    ApiResponse<NotificationPageJson> list(@RequestParam(required = false) String state,
            @RequestParam(required = false) String before, @RequestParam(defaultValue = "50") int limit) {
        var page = list.list(new ListNotifications.Command(ListFilters.notificationState(state),
                ListFilters.cursorBelow("before", before), limit));
        return ApiResponse.ok(new NotificationPageJson(page.entries().stream().map(NotificationJson::of).toList(),
                page.nextBefore().isPresent() ? page.nextBefore().getAsLong() : null));
    }
}
