package io.changeflow.sandbox.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers signed callbacks of one simulated system on a small scheduled executor, like a real
 * webhook sender: every attempt is signed afresh (new {@code webhook-timestamp}, same
 * {@code webhook-id}), and a failed attempt (no answer or a non-2xx status) is retried with
 * exponential backoff up to {@link WebhookProperties#maxAttempts()} attempts. With one thread,
 * callbacks scheduled for the same moment go out in the order they were scheduled.
 */
public final class WebhookSender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WebhookSender.class);
    private static final int LOG_SIZE = 500;

    /** One callback to deliver. */
    public record Delivery(String messageId, String path, byte[] body) {}

    /**
     * One delivery attempt, kept in a bounded log.
     *
     * @param status the HTTP status received; 0 when the attempt got no answer
     */
    public record Attempt(String messageId, String path, int attempt, int status, Instant at) {

        public boolean delivered() {
            return status >= 200 && status < 300;
        }
    }

    private final String system;
    private final WebhookSigner signer;
    private final CallbackEndpoint endpoint;
    private final WebhookProperties properties;
    private final Clock clock;
    private final HttpClient http;
    private final ScheduledExecutorService executor;
    private final Deque<Attempt> attempts = new ArrayDeque<>();

    public WebhookSender(String system, int threads, String secret, CallbackEndpoint endpoint,
                         WebhookProperties properties, Clock clock) {
        this.system = system;
        this.signer = WebhookSigner.of(secret);
        this.endpoint = endpoint;
        this.properties = properties;
        this.clock = clock;
        this.http = HttpClient.newBuilder().connectTimeout(properties.connectTimeout()).build();
        var counter = new AtomicInteger();
        this.executor = Executors.newScheduledThreadPool(threads, runnable -> {
            var thread = new Thread(runnable, "sandbox-" + system + "-webhook-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Delivers after {@code delay} on the sender's executor, retrying failed attempts. */
    public void send(Delivery delivery, Duration delay) {
        schedule(delivery, 1, delay);
    }

    /**
     * Delivers on the calling thread and waits for the answer (one attempt; when it fails, the
     * retries run on the executor).
     *
     * @return whether this attempt was answered with 2xx
     */
    public boolean sendNow(Delivery delivery) {
        return attempt(delivery, 1);
    }

    /** The most recent attempts, oldest first. */
    public List<Attempt> attempts() {
        synchronized (attempts) {
            return List.copyOf(attempts);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    private void schedule(Delivery delivery, int attempt, Duration delay) {
        if (executor.isShutdown()) {
            return;
        }
        executor.schedule(() -> {
            try {
                attempt(delivery, attempt);
            } catch (RuntimeException e) {
                // a scheduled task's exception would vanish in its future: a lost delivery is said out loud
                log.warn("{} callback {} attempt {} failed unexpectedly; not retried", system, delivery.messageId(),
                        attempt, e);
            }
        }, Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
    }

    private boolean attempt(Delivery delivery, int attempt) {
        var status = post(delivery);
        record(new Attempt(delivery.messageId(), delivery.path(), attempt, status, clock.instant()));
        if (status >= 200 && status < 300) {
            return true;
        }
        if (attempt < properties.maxAttempts()) {
            var backoff = properties.retryBackoff().multipliedBy(1L << Math.min(attempt - 1, 16));
            log.info("{} callback {} attempt {} failed (status {}), retrying in {}",
                    system, delivery.messageId(), attempt, status, backoff);
            schedule(delivery, attempt + 1, backoff);
        } else {
            log.warn("{} callback {} given up after {} attempts (last status {})",
                    system, delivery.messageId(), attempt, status);
        }
        return false;
    }

    private int post(Delivery delivery) {
        URI target;
        try {
            target = endpoint.resolve(delivery.path());
        } catch (RuntimeException e) {
            log.warn("{} callback {} has no usable target ({}): check sandbox.callback-base-url",
                    system, delivery.messageId(), e.getClass().getSimpleName());
            return 0;
        }
        var timestamp = clock.instant().getEpochSecond();
        var request = HttpRequest.newBuilder(target)
                .timeout(properties.timeout())
                .header("content-type", "application/json")
                .header("user-agent", "changeflow-sandbox-" + system)
                .header("webhook-id", delivery.messageId())
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", signer.sign(delivery.messageId(), timestamp, delivery.body()))
                .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.body()))
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            log.info("{} callback {} got no answer: {}", system, delivery.messageId(), e.toString());
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    private void record(Attempt attempt) {
        synchronized (attempts) {
            if (attempts.size() == LOG_SIZE) {
                attempts.removeFirst();
            }
            attempts.addLast(attempt);
        }
    }
}
