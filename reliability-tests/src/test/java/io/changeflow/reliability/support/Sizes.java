package io.changeflow.reliability.support;

/**
 * The sizes of the suites: CI's defaults come from the pom (surefire system properties), the long run
 * overrides them on the command line ({@code -Dreliability.crash.runs=50 ...}, docs/reliability.md).
 */
public final class Sizes {

    private Sizes() {
    }

    /** The integer system property {@code key}, else {@code ciDefault}. */
    public static int of(String key, int ciDefault) {
        return Integer.getInteger(key, ciDefault);
    }

    /** The long system property {@code key}, else {@code ciDefault}. */
    public static long longOf(String key, long ciDefault) {
        return Long.getLong(key, ciDefault);
    }

    /** The run's seed ({@code -Dreliability.seed}); every random choice of the suites derives from it. */
    public static long seed() {
        return Long.getLong("reliability.seed", 20261130L);
    }
}
