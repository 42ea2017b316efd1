package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.CallbackAuthenticity;
import io.changeflow.application.port.out.CallbackAuthenticity.Source;
import io.changeflow.application.port.out.CallbackAuthenticity.Verdict;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
 * Stands in for the application's callback endpoints: verifies each delivery with the adapter's
 * {@link CallbackAuthenticity} (401 unless VALID, as the contract says), and records it.
 */
@RestController
class VerifyingReceiver {

    record Received(Source source, Verdict verdict, Map<String, String> headers, byte[] body, boolean flagWhenReceived) {

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final CallbackAuthenticity authenticity;
    private final List<Received> received = new ArrayList<>();
    private volatile boolean flag;

    VerifyingReceiver(CallbackAuthenticity authenticity) {
        this.authenticity = authenticity;
    }

    @PostMapping("/callbacks/approval")
    ResponseEntity<Void> approval(HttpServletRequest request, @RequestBody byte[] body) {
        return receive(Source.APPROVAL, request, body);
    }

    @PostMapping("/callbacks/deploy")
    ResponseEntity<Void> deploy(HttpServletRequest request, @RequestBody byte[] body) {
        return receive(Source.DEPLOY, request, body);
    }

    /** A test-owned flag, recorded with every delivery (e.g. "has the submit call answered yet?"). */
    void flag(boolean value) {
        flag = value;
    }

    synchronized List<Received> received(Predicate<Received> filter) {
        return received.stream().filter(filter).toList();
    }

    List<Received> await(Predicate<Received> filter, int count, Duration timeout) {
        return Awaitility.await(count + " matching callbacks").atMost(timeout)
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(() -> received(filter), matching -> matching.size() >= count);
    }

    synchronized void clear() {
        received.clear();
        flag = false;
    }

    static Predicate<Received> mentioning(String text) {
        return r -> r.text().contains(text);
    }

    private ResponseEntity<Void> receive(Source source, HttpServletRequest request, byte[] body) {
        var headers = new TreeMap<String, String>();
        for (var names = request.getHeaderNames(); names.hasMoreElements(); ) {
            var name = names.nextElement();
            headers.put(name.toLowerCase(Locale.ROOT), request.getHeader(name));
        }
        var verdict = authenticity.verify(source, headers, body);
        synchronized (this) {
            received.add(new Received(source, verdict, Map.copyOf(headers), body, flag));
        }
        return verdict == Verdict.VALID ? ResponseEntity.ok().build() : ResponseEntity.status(401).build();
    }
}
