package io.changeflow.application.fake;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.LineOrigins;
import io.changeflow.domain.drift.Evidence;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@link LineOrigins} over {@link FakeMergeRequests}: every line of the file at the ref read was last changed by one
 * commit ({@link #commit}) of {@link #author} at {@link #at}, unless failing. Counts its calls.
 */
public final class FakeLineOrigins implements LineOrigins {

    private final FakeMergeRequests gitlab;
    public String commit = "b1a3e0000000000000000000000000000000beef";
    public String author = "Mallory Hand";
    public Instant at = Instant.parse("2026-03-02T08:00:00Z");
    public int calls;
    public boolean failing;

    public FakeLineOrigins(FakeMergeRequests gitlab) {
        this.gitlab = gitlab;
    }

    @Override
    public synchronized Map<String, Evidence> of(String project, String ref, String path) {
        calls++;
        if (failing) {
            throw ExternalCallException.status("gitlab", 503, "503 Service Unavailable");
        }
        var origins = new HashMap<String, Evidence>();
        var evidence = new Evidence(Optional.of(commit), Optional.of(author), Optional.of(at));
        gitlab.fileAt(project, ref, path).ifPresent(content -> content.lines().map(String::strip)
                .filter(l -> !l.isEmpty()).forEach(l -> origins.putIfAbsent(l, evidence)));
        return origins;
    }
}
