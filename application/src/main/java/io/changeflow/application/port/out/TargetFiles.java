package io.changeflow.application.port.out;

import java.util.Optional;

/**
 * The current content of target files, read for previews only. Kept apart from {@link MergeRequests}: its
 * adapter calls GitLab with a deadline, a bulkhead and a circuit breaker of its own, so however often previews
 * are asked for, and however they fail, they never open the workflow's breaker nor take its threads.
 */
public interface TargetFiles {

    /**
     * The content of {@code path} on the default branch of {@code project}, empty when the file does not exist.
     *
     * @throws ExternalCallException when GitLab could not be asked: it failed, was too slow, the preview breaker is
     *         open or the preview bulkhead is full (kind RATE_LIMITED: the call was not made)
     */
    Optional<String> currentContent(String project, String path);
}
