package io.changeflow.benchmarks.support;

/** How a benchmark's {@code main} runs its body and ends. */
public final class Mains {

    /** A benchmark's body: what its {@code main} runs. */
    @FunctionalInterface
    public interface Body {
        void run(String[] argv) throws Exception;
    }

    private Mains() {
    }

    /**
     * Runs {@code body}, then exits with 0, or with 1 after printing what it threw. The exit is explicit: the embedded
     * database's process pump is not a daemon thread (its shutdown hook stops the server).
     */
    public static void runAndExit(Body body, String[] argv) {
        var exit = 0;
        try {
            body.run(argv);
        } catch (Exception | Error e) {
            e.printStackTrace();
            exit = 1;
        }
        System.exit(exit);
    }
}
