package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.adapter.web.metrics.NotificationGauges;
import io.changeflow.application.notify.CountUnsentNotifications;
import io.changeflow.application.notify.ListNotifications;
import io.changeflow.application.notify.MailAddresses;
import io.changeflow.application.notify.NotificationSettings;
import io.changeflow.application.notify.QueueDriftNotices;
import io.changeflow.application.notify.QueueNotifications;
import io.changeflow.application.notify.QueueReminders;
import io.changeflow.application.notify.SendNotifications;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.Notifications;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.domain.config.RawValue;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Notifications and expiry reminders (issue 32, docs/notifications.md): one recurring job queues the messages of
 * the committed status changes and sends what is due, another queues the reminders. Keys {@value #BASE_URL},
 * {@value #MAIL_DOMAIN} and {@value #REMINDERS} are resolved fail-safe ({@link NotificationSettings#of}).
 */
@Configuration(proxyBeanMethods = false)
class NotificationsConfiguration {

    static final String BASE_URL = "changeflow.notifications.base-url";
    static final String MAIL_DOMAIN = "changeflow.notifications.mail-domain";
    static final String REMINDERS = "changeflow.notifications.reminders";
    /** How often the outbox is filled and sent. */
    static final Duration EVERY = Duration.ofSeconds(5);
    static final Duration REMINDERS_EVERY = Duration.ofMinutes(1);

    private static final Logger log = LoggerFactory.getLogger(NotificationsConfiguration.class);

    @Bean
    NotificationSettings notificationSettings(Environment environment) {
        var binder = Binder.get(environment);
        var settings = NotificationSettings.of(text(binder, BASE_URL), text(binder, MAIL_DOMAIN), text(binder, REMINDERS));
        log.info("{} {}, {} {}, {} {}", BASE_URL, settings.baseUrl(), MAIL_DOMAIN, settings.mailDomain(), REMINDERS,
                settings.reminders());
        return settings;
    }

    @Bean
    MailAddresses mailAddresses(DemoPeople people, NotificationSettings settings) {
        return new MailAddresses(people, settings.mailDomain());
    }

    @Bean
    QueueNotifications queueNotifications(NotificationOutbox outbox, Operations operations, ScanCursors cursors,
                                          MailAddresses addresses, NotificationSettings settings) {
        return new QueueNotifications(outbox, operations, cursors, addresses, settings, NotificationOutbox.DEFAULT_SETTLE);
    }

    @Bean
    SendNotifications sendNotifications(NotificationOutbox outbox, Notifications notifications, BusinessMetrics metrics,
                                        Clock clock) {
        return new SendNotifications(outbox, notifications, metrics, clock);
    }

    @Bean
    QueueReminders queueReminders(Operations operations, NotificationOutbox outbox, MailAddresses addresses,
                                  NotificationSettings settings, Clock clock) {
        return new QueueReminders(operations, outbox, addresses, settings, clock);
    }

    @Bean
    QueueDriftNotices queueDriftNotices(Drifts drifts, Operations operations, NotificationOutbox outbox,
                                        MailAddresses addresses, NotificationSettings settings, Clock clock) {
        return new QueueDriftNotices(drifts, operations, outbox, addresses, settings, clock);
    }

    /**
     * Queue (status changes, then drift items opened), then send: a change committed before the run is mailed by it
     * (once settled, also by the next runs).
     */
    @Bean
    ListNotifications listNotifications(NotificationOutbox outbox) {
        return new ListNotifications(outbox);
    }

    /** Notifications not sent, per state, as gauges on the meter registry. */
    @Bean
    NotificationGauges notificationGauges(NotificationOutbox outbox) {
        return new NotificationGauges(new CountUnsentNotifications(outbox), System::nanoTime);
    }

    @Bean
    RecurringJob notificationsJob(QueueNotifications queue, QueueDriftNotices drift, SendNotifications send) {
        return new RecurringJob("notifications", EVERY, () -> {
            queue.run();
            drift.run();
            return send.run();
        });
    }

    @Bean
    RecurringJob remindersJob(QueueReminders reminders) {
        return new RecurringJob("expiry-reminders", REMINDERS_EVERY, reminders::run);
    }

    private static RawValue text(Binder binder, String key) {
        try {
            return new RawValue(binder.bind(key, String.class).map(Optional::of).orElse(Optional.empty()));
        } catch (RuntimeException e) {
            log.warn("{} could not be read; its default applies", key);
            return RawValue.missing();
        }
    }
}
