package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeNotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.Queued;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** {@code GET /ops/notifications} (issue 32): the outbox as operators see it, paged and filtered, for operators only. */
class NotificationsWebTest extends WebTestSupport {

    @Autowired
    FakeNotificationOutbox outbox;

    @BeforeEach
    void anOperatorAndThreeMessages() {
        permissions.grant("otto", "ops.operator");
        if (outbox.queued().isEmpty()) {
            outbox.enqueue(List.of(
                    new Queued("op:r1:VALIDATED:MAIL:bob", new Message(Channel.MAIL, "bob@corp.example", "In effect", "t",
                            "https://cf.example/requests/r1")),
                    new Queued("op:r1:VALIDATED:WEBHOOK:requests", new Message(Channel.WEBHOOK, "requests", "In effect",
                            "t", "https://cf.example/requests/r1")),
                    new Queued("op:r2:FAILED:WEBHOOK:operators", new Message(Channel.WEBHOOK, "operators", "Failed", "t",
                            "https://cf.example/requests/r2"))));
            outbox.sent(1, Instant.parse("2026-12-07T10:00:00Z"));
            outbox.failed(3, Instant.parse("2026-12-07T10:05:00Z"),
                    "webhook operators not reached: https://hooks.slack.com/services/T1/B2/s3cr3t");
        }
    }

    @Test
    void operatorsSeeTheMessagesNewestFirstWithWhereEachStandsAndTheErrorWithoutTheWebhooksAddress() throws Exception {
        var body = mvc.perform(as(get("/ops/notifications"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.notifications[*].id").value(org.hamcrest.Matchers.contains(3, 2, 1)))
                .andExpect(jsonPath("$.data.notifications[*].state").value(org.hamcrest.Matchers.contains("RETRYING", "PENDING", "SENT")))
                .andExpect(jsonPath("$.data.notifications[*].recipientKind")
                        .value(org.hamcrest.Matchers.contains("OPERATORS", "REQUESTS", "PERSON")))
                .andExpect(jsonPath("$.data.notifications[0].channel").value("WEBHOOK"))
                .andExpect(jsonPath("$.data.notifications[0].link").value("https://cf.example/requests/r2"))
                .andExpect(jsonPath("$.data.notifications[0].attempts").value(1))
                .andExpect(jsonPath("$.data.notifications[0].nextAttempt").value("2026-12-07T10:05:00Z"))
                .andExpect(jsonPath("$.data.notifications[0].lastError")
                        .value("webhook operators not reached: https://hooks.slack.com/…"))
                .andExpect(jsonPath("$.data.notifications[2].sentAt").value("2026-12-07T10:00:00Z"))
                .andExpect(jsonPath("$.data.nextBefore").doesNotExist())
                .andReturn().getResponse().getContentAsString();
        assertThat(body).doesNotContain("s3cr3t");
    }

    @Test
    void aStateFilterAndPagesBelowTheCursor() throws Exception {
        mvc.perform(as(get("/ops/notifications").param("state", "sent"), "otto")).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.notifications[*].id").value(org.hamcrest.Matchers.contains(1)));
        mvc.perform(as(get("/ops/notifications").param("limit", "2"), "otto")).andExpect(status().isOk())
                .andExpect(jsonPath("$.data.notifications[*].id").value(org.hamcrest.Matchers.contains(3, 2)))
                .andExpect(jsonPath("$.data.nextBefore").value(2));
        mvc.perform(as(get("/ops/notifications").param("limit", "2").param("before", "2"), "otto"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.data.notifications[*].id").value(org.hamcrest.Matchers.contains(1)))
                .andExpect(jsonPath("$.data.nextBefore").doesNotExist());
    }

    @Test
    void aStateOrCursorThatCannotBeOneIsAFieldErrorAndOnlyOperatorsSeeTheOutbox() throws Exception {
        mvc.perform(get("/ops/notifications")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/notifications"), "alice")).andExpect(status().isForbidden());
        mvc.perform(as(get("/ops/notifications").param("state", "lost"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("state"));
        mvc.perform(as(get("/ops/notifications").param("before", "-3"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("before"));
    }
}
