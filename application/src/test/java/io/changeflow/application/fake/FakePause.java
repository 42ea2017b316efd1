package io.changeflow.application.fake;

import io.changeflow.application.submit.SubmitChangeRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link SubmitChangeRequest.Pause} that never sleeps: it moves the {@link SettableClock} by the pause,
 * counts the pauses, and runs what a test wants to happen meanwhile (e.g. let the original request finish).
 */
public final class FakePause implements SubmitChangeRequest.Pause {

    /** What happens during a pause; may throw InterruptedException like a real sleep. */
    @FunctionalInterface
    public interface Meanwhile {
        void during(int pause) throws InterruptedException;
    }

    private final SettableClock clock;
    private final AtomicInteger pauses = new AtomicInteger();
    private volatile Duration total = Duration.ZERO;
    private volatile Meanwhile meanwhile = pause -> { };

    public FakePause(SettableClock clock) {
        this.clock = clock;
    }

    @Override
    public void pause(Duration duration) throws InterruptedException {
        var n = pauses.incrementAndGet();
        synchronized (this) {
            total = total.plus(duration);
        }
        clock.advance(duration);
        meanwhile.during(n);
    }

    public void meanwhile(Meanwhile meanwhile) {
        this.meanwhile = meanwhile;
    }

    public int count() {
        return pauses.get();
    }

    public Duration total() {
        return total;
    }
}
