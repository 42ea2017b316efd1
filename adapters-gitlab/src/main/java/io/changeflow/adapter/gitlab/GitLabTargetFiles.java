package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import io.changeflow.application.port.out.TargetFiles;
import java.util.Optional;
import java.util.concurrent.Semaphore;

/**
 * {@link TargetFiles} on GitLab for previews: the same two reads as the workflow's (default branch, then the
 * file), made through {@link GitLabCalls} of their own (breaker {@code gitlab-preview}, the preview call timeout,
 * no read retries) behind a bulkhead of {@code changeflow.gitlab.preview.max-concurrent} calls. A preview over
 * the bulkhead is refused at once (kind RATE_LIMITED, the call was not made). Previews do not take from the
 * workflow's shared call budget: they are bounded by their own rate limit per person and this bulkhead.
 */
final class GitLabTargetFiles implements TargetFiles, AutoCloseable {

    private final GitLabCalls calls;
    private final GitLabMergeRequests reads;
    private final Semaphore bulkhead;

    /** @param calls the preview's own guarded calls (never the workflow's) */
    GitLabTargetFiles(GitLabCalls calls, GitLabBots bots, int maxConcurrent) {
        this.calls = calls;
        this.reads = new GitLabMergeRequests(bots, calls, null, null, null);
        this.bulkhead = new Semaphore(maxConcurrent);
    }

    /** The preview breaker, for tests and the health indicator. */
    io.github.resilience4j.circuitbreaker.CircuitBreaker breaker() {
        return calls.breaker();
    }

    @Override
    public Optional<String> currentContent(String project, String path) {
        if (!bulkhead.tryAcquire()) {
            throw new ExternalCallException(GitLabCalls.SYSTEM, Kind.RATE_LIMITED, 0,
                    "preview: as many previews as allowed are reading GitLab already, the call was not made", null);
        }
        try {
            return reads.readFile(project, reads.defaultBranch(project), path);
        } finally {
            bulkhead.release();
        }
    }

    @Override
    public void close() {
        calls.close();
    }
}
