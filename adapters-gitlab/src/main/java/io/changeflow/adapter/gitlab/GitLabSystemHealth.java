package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.ExternalSystemHealth;
import java.util.Optional;

/** GitLab's {@link ExternalSystemHealth}: the workflow breaker ({@code gitlab}) of this instance; previews have their own. */
final class GitLabSystemHealth implements ExternalSystemHealth {

    private final GitLabCalls calls;

    GitLabSystemHealth(GitLabCalls calls) {
        this.calls = calls;
    }

    @Override
    public Status status() {
        var breaker = calls.breaker();
        var metrics = breaker.getMetrics();
        var rate = metrics.getFailureRate();
        return new Status(GitLabCalls.SYSTEM, breaker.getState().name(), rate < 0 ? Optional.empty() : Optional.of((double) rate),
                metrics.getNumberOfBufferedCalls(), metrics.getNumberOfFailedCalls(), metrics.getNumberOfNotPermittedCalls());
    }
}
