package io.changeflow.sandbox.support;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Stands in for the application's {@code /callbacks/approval} and {@code /callbacks/deploy}:
 * records every delivery (raw body and headers, so signatures can be checked), answers 200, or
 * 503 for the next {@link #failNext(int)} deliveries.
 */
@RestController
public class CallbackRecorder {

    /** One delivery as received. */
    public record Received(String path, Map<String, String> headers, byte[] body, Instant at) {

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        public String header(String name) {
            return headers.get(name);
        }
    }

    private final List<Received> received = new ArrayList<>();
    private final List<Runnable> onReceive = Collections.synchronizedList(new ArrayList<>());
    private int failNext;

    @PostMapping({"/callbacks/approval", "/callbacks/deploy"})
    ResponseEntity<Void> receive(HttpServletRequest request, @RequestBody byte[] body) {
        var headers = new TreeMap<String, String>();
        for (var names = request.getHeaderNames(); names.hasMoreElements(); ) {
            var name = names.nextElement();
            headers.put(name.toLowerCase(Locale.ROOT), request.getHeader(name));
        }
        onReceive.forEach(Runnable::run);
        synchronized (this) {
            received.add(new Received(request.getRequestURI(), Map.copyOf(headers), body, Instant.now()));
            if (failNext > 0) {
                failNext--;
                return ResponseEntity.status(503).build();
            }
        }
        return ResponseEntity.ok().build();
    }

    /** Runs {@code action} on the receiving thread before each delivery is recorded. */
    public void onReceive(Runnable action) {
        onReceive.add(action);
    }

    /** The next {@code count} deliveries are answered 503 (the sender should retry). */
    public synchronized void failNext(int count) {
        failNext = count;
    }

    public synchronized List<Received> received(Predicate<Received> filter) {
        return received.stream().filter(filter).toList();
    }

    /** Waits until at least {@code count} matching deliveries arrived; fails the test after {@code timeout}. */
    public List<Received> await(Predicate<Received> filter, int count, Duration timeout) {
        return Awaitility.await(count + " matching callbacks").atMost(timeout)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(() -> received(filter), matching -> matching.size() >= count);
    }

    public synchronized void clear() {
        received.clear();
        onReceive.clear();
        failNext = 0;
    }

    public static Predicate<Received> path(String path) {
        return r -> r.path().equals(path);
    }

    public static Predicate<Received> approvalFor(String operationId) {
        return r -> r.path().equals("/callbacks/approval") && r.text().contains("\"" + operationId + "\"");
    }

    public static Predicate<Received> deployOf(String project) {
        return r -> r.path().equals("/callbacks/deploy") && r.text().contains("\"projectId\":\"" + project + "\"");
    }
}
