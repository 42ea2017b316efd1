package io.changeflow.systemtest.harness;

import java.time.Duration;
import java.util.List;

/**
 * Waiting for requests to converge by themselves, no operator acting: terminal, or in an explicit state asking a
 * person ({@link RequestView#hasConverged()}). A request with {@code KEEP_WAITING} has not converged (something is
 * still working on it), so a suite waiting here never counts a stuck request as done.
 */
public final class Convergence {

    private Convergence() {
    }

    /**
     * Every request of {@code operationIds} as it converged, read through {@code reader}.
     *
     * @throws AssertionError when one has not converged within {@code timeout}
     */
    public static List<RequestView> awaitAll(ApiClient reader, List<String> operationIds, Duration timeout) {
        return Poll.until(operationIds.size() + " request(s) converged, no operator acting", timeout, Duration.ofMillis(500),
                () -> operationIds.stream().map(reader::request).toList(), all -> all.stream().allMatch(RequestView::hasConverged));
    }
}
