package io.changeflow.sandbox.gitlab;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Sends the simulator's project hook events as GitLab does (issue 33 item 3): a POST of the JSON payload with GitLab's
 * headers ({@code app/services/web_hook_service.rb} {@code build_headers}, gitlabhq 017a6c12): {@code Content-Type},
 * {@code User-Agent: GitLab/<version>}, {@code Idempotency-Key} (one per event, kept by every retry of it),
 * {@code X-Gitlab-Event} ({@code Pipeline Hook}, {@code Merge Request Hook}), {@code X-Gitlab-Webhook-UUID} (new for every
 * request), {@code X-Gitlab-Instance}, {@code X-Gitlab-Token} (the hook's token, when it has one) and
 * {@code X-Gitlab-Event-UUID} (the recursion-detection UUID of the request that fired the hook,
 * {@code lib/gitlab/web_hooks/recursion_detection/uuid.rb}: here one per event). Sent once each, from a background
 * thread that looks for due events every {@code tick}; an answer that is not 2xx is logged, not retried.
 *
 * <p>Faults ({@code sandbox.gitlab.webhooks.*}): {@code lose-rate} (the share of events never sent), {@code
 * duplicate-rate} (sent twice with the same {@code Idempotency-Key}, a new webhook UUID), {@code delay} (every event sent
 * that late). All off by default.
 */
public final class GitLabWebhookSender implements AutoCloseable {

    /** What the simulator says it is. */
    static final String VERSION = "18.6.0";

    /** The faults: shares between 0 and 1 (anything else: 0) and a delay (negative: none). */
    public record Faults(double loseRate, double duplicateRate, Duration delay) {
        public Faults {
            loseRate = loseRate >= 0 && loseRate <= 1 ? loseRate : 0;
            duplicateRate = duplicateRate >= 0 && duplicateRate <= 1 ? duplicateRate : 0;
            delay = delay == null || delay.isNegative() ? Duration.ZERO : delay;
        }

        public static Faults none() {
            return new Faults(0, 0, Duration.ZERO);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(GitLabWebhookSender.class);

    private final GitLabSimulator simulator;
    private final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
        var thread = new Thread(runnable, "gitlab-sim-webhooks");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong lost = new AtomicLong();
    private volatile Faults faults;

    public GitLabWebhookSender(GitLabSimulator simulator, Faults faults, Duration tick) {
        this.simulator = Objects.requireNonNull(simulator, "simulator");
        this.faults = Objects.requireNonNull(faults, "faults");
        var every = tick == null || tick.isZero() || tick.isNegative() ? Duration.ofMillis(100) : tick;
        executor.scheduleWithFixedDelay(this::sendDue, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Changes the faults from now on. */
    public void setFaults(Faults faults) {
        this.faults = Objects.requireNonNull(faults, "faults");
    }

    /** Requests sent so far (a duplicate counts twice), and events lost on purpose. */
    public long sent() {
        return sent.get();
    }

    public long lost() {
        return lost.get();
    }

    private void sendDue() {
        try {
            for (var delivery : simulator.dueHookDeliveries()) {
                var now = faults;
                var random = ThreadLocalRandom.current();
                if (random.nextDouble() < now.loseRate()) {
                    lost.incrementAndGet();
                    continue;
                }
                var idempotencyKey = UUID.randomUUID().toString();
                var eventUuid = UUID.randomUUID().toString();
                var times = random.nextDouble() < now.duplicateRate() ? 2 : 1;
                for (var i = 0; i < times; i++) {
                    if (now.delay().isZero()) {
                        send(delivery, idempotencyKey, eventUuid);
                    } else {
                        executor.schedule(() -> send(delivery, idempotencyKey, eventUuid), now.delay().toMillis(),
                                TimeUnit.MILLISECONDS);
                    }
                }
            }
        } catch (RuntimeException e) {
            log.warn("GitLab simulator: webhook events not sent this time: {}", e.toString());
        }
    }

    private void send(GitLabProjectHooks.Delivery delivery, String idempotencyKey, String eventUuid) {
        try {
            var request = HttpRequest.newBuilder(URI.create(simulator.hookUrl(delivery.hook())))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .header("User-Agent", "GitLab/" + VERSION)
                    .header("Idempotency-Key", idempotencyKey)
                    .header("X-Gitlab-Event", delivery.event())
                    .header("X-Gitlab-Webhook-UUID", UUID.randomUUID().toString())
                    .header("X-Gitlab-Instance", simulator.webUrl())
                    .header("X-Gitlab-Event-UUID", eventUuid)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(delivery.payload())));
            if (delivery.hook().token() != null && !delivery.hook().token().isBlank()) {
                request.header("X-Gitlab-Token", delivery.hook().token());
            }
            var answer = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
            sent.incrementAndGet();
            if (answer.statusCode() / 100 != 2) {
                log.warn("GitLab simulator: hook {} answered {} to a {}", delivery.hook().id(), answer.statusCode(),
                        delivery.event());
            }
        } catch (java.io.IOException e) {
            log.warn("GitLab simulator: hook {} not reached: {}", delivery.hook().id(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
