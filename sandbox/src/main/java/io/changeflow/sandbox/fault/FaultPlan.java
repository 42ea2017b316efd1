package io.changeflow.sandbox.fault;

/**
 * What fault injection decided for one incoming call of a simulator.
 *
 * @param delayMillis  sleep this long before handling (simulated latency)
 * @param failStatus   answer this HTTP status without applying the call; 0 for no failure
 * @param loseResponse apply the call, then answer 504 instead of the real response
 */
public record FaultPlan(long delayMillis, int failStatus, boolean loseResponse) {

    public static final FaultPlan NONE = new FaultPlan(0, 0, false);

    public boolean fails() {
        return failStatus > 0;
    }

    /**
     * Sleeps the simulated latency ({@link #delayMillis()}) on the simulator's request thread, deliberately: the
     * simulated system is slow, so that callers' timeouts are exercised (never a wait of the service's workflow);
     * false when the thread was interrupted meanwhile (its interrupt flag set again): the call is not handled then.
     */
    public boolean awaitDelay() {
        if (delayMillis <= 0) {
            return true;
        }
        try {
            Thread.sleep(delayMillis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
