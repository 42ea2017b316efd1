package io.changeflow.adapter.persistence;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fixed pool of threads for a test class's racers (as {@code Executors.newFixedThreadPool}), shut down
 * after the class's last test. Register it as a static extension:
 * {@code @RegisterExtension static final RacerThreads pool = RacerThreads.of(16);}
 */
final class RacerThreads extends ThreadPoolExecutor implements AfterAllCallback {

    private RacerThreads(int count) {
        super(count, count, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>());
    }

    static RacerThreads of(int count) {
        return new RacerThreads(count);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        shutdownNow();
    }
}
