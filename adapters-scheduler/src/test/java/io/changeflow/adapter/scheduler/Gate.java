package io.changeflow.adapter.scheduler;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Holds a running step until the test opens it: {@link #pass()} inside the step, {@link #open()} in the test. */
final class Gate {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch open = new CountDownLatch(1);

    /** Called by the step: announces it runs, then waits (at most 30 s) for the test; interrupts do not let it through. */
    void pass() {
        entered.countDown();
        var interrupted = false;
        var deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                if (open.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                        || System.nanoTime() >= deadline) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (at most 10 s) until a step is held here. */
    void awaitEntered() {
        try {
            if (!entered.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("no step reached the gate within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    void open() {
        open.countDown();
    }
}
