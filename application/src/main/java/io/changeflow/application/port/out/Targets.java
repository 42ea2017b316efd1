package io.changeflow.application.port.out;

import io.changeflow.domain.request.PipelinePolicy;
import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import java.util.List;
import java.util.Optional;

/** The catalog of targets a request can name. */
public interface Targets {

    List<Target> all();

    Optional<Target> find(TargetKey key);

    /**
     * The target a request names, for a step that cannot go on without it.
     *
     * @throws IllegalStateException when the target is no longer in the catalog
     */
    default Target require(TargetKey key) {
        return find(key).orElseThrow(() -> new IllegalStateException("target " + key + " is no longer in the catalog"));
    }

    /** The target's pipeline policy, read on every use; the fail-safe {@code required} when it left the catalog. */
    default PipelinePolicy pipelineOf(TargetKey key) {
        return find(key).map(Target::pipeline).orElse(PipelinePolicy.REQUIRED);
    }
}
