package io.changeflow.systemtest.harness;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The load balancer in front of the app instances, for the simulators' callbacks: the simulators
 * deliver to {@code <simulator host>/relay/callbacks/...} ({@code sandbox.callback-base-url}, and GitLab's project
 * hooks when {@code sandbox.gitlab.webhooks.url} points here), and the relay forwards the delivery byte for byte (body,
 * {@code webhook-*} and GitLab's {@code X-Gitlab-*} and {@code Idempotency-Key} headers) to one
 * of the live instances, round robin. An instance that does not answer is skipped for the next; when
 * none answers the relay says 503, and the simulator's sender retries as a real webhook sender would.
 */
@RestController
@RequestMapping(CallbackRelay.PREFIX)
public final class CallbackRelay {

    static final String PREFIX = "/relay";
    /** Standard Webhooks' signature headers, and GitLab's hook headers ({@code /callbacks/gitlab}). */
    private static final List<String> FORWARDED_HEADERS =
            List.of("webhook-id", "webhook-timestamp", "webhook-signature", "Content-Type",
                    "X-Gitlab-Event", "X-Gitlab-Token", "X-Gitlab-Event-UUID", "X-Gitlab-Webhook-UUID",
                    "X-Gitlab-Instance", "Idempotency-Key", "User-Agent");

    private final List<URI> targets = new CopyOnWriteArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong unroutable = new AtomicLong();
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1))
            .build();

    /** Routes callbacks to {@code base} too (e.g. {@code http://127.0.0.1:41234}). */
    public void add(URI base) {
        if (!targets.contains(base)) {
            targets.add(base);
        }
    }

    /** Stops routing to {@code base} (the instance was stopped or killed). */
    public void remove(URI base) {
        targets.remove(base);
    }

    public List<URI> targets() {
        return List.copyOf(targets);
    }

    /** Deliveries handed to an instance. */
    public long forwarded() {
        return forwarded.get();
    }

    /** Deliveries no instance took (answered 503; the sender retries). */
    public long unroutable() {
        return unroutable.get();
    }

    @PostMapping("/**")
    ResponseEntity<byte[]> relay(HttpServletRequest request, @RequestBody(required = false) byte[] body) {
        var path = request.getRequestURI().substring(request.getContextPath().length() + PREFIX.length());
        var query = request.getQueryString() == null ? "" : "?" + request.getQueryString();
        var candidates = List.copyOf(targets);
        var start = Math.floorMod(next.getAndIncrement(), Math.max(1, candidates.size()));
        for (int i = 0; i < candidates.size(); i++) {
            var target = candidates.get((start + i) % candidates.size());
            var builder = HttpRequest.newBuilder(target.resolve(path + query))
                    .timeout(Duration.ofSeconds(15))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body == null ? new byte[0] : body));
            for (var name : FORWARDED_HEADERS) {
                var value = request.getHeader(name);
                if (value != null) {
                    builder.header(name, value);
                }
            }
            try {
                var response = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
                forwarded.incrementAndGet();
                return ResponseEntity.status(response.statusCode())
                        .contentType(response.headers().firstValue("Content-Type").map(MediaType::parseMediaType)
                                .orElse(MediaType.APPLICATION_JSON))
                        .body(response.body());
            } catch (IOException e) {
                // this instance is gone (or going): try the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        unroutable.incrementAndGet();
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_JSON)
                .body("{\"message\":\"no live instance\"}".getBytes(StandardCharsets.UTF_8));
    }
}
