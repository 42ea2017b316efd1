package io.changeflow.sandbox.fault;

/**
 * Fault injection settings of one simulated system. All rates are probabilities in [0, 1].
 *
 * @param latencyMillis   added before every call is handled
 * @param errorRate       share of calls answered with an error (HTTP 500/503) without being applied
 * @param lostResponseRate share of calls that are applied but whose response is lost (answered 504)
 * @param duplicateRate   share of outgoing callbacks delivered twice
 * @param lateRate        share of outgoing callbacks delivered late (after {@code lateMillis})
 * @param lostCallbackRate share of outgoing callbacks never delivered
 * @param lateMillis      how late a late callback is
 */
public record FaultSettings(long latencyMillis, double errorRate, double lostResponseRate, double duplicateRate,
                            double lateRate, double lostCallbackRate, long lateMillis) {

    public static final FaultSettings NONE = new FaultSettings(0, 0, 0, 0, 0, 0, 0);

    public FaultSettings {
        if (latencyMillis < 0 || lateMillis < 0) {
            throw new IllegalArgumentException("latencies must not be negative");
        }
        for (var rate : new double[] {errorRate, lostResponseRate, duplicateRate, lateRate, lostCallbackRate}) {
            if (!(rate >= 0 && rate <= 1)) {
                throw new IllegalArgumentException("rates are probabilities in [0, 1]");
            }
        }
    }
}
