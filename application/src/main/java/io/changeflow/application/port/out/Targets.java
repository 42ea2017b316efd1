package io.changeflow.application.port.out;

import io.changeflow.domain.request.Target;
import io.changeflow.domain.request.TargetKey;
import java.util.List;
import java.util.Optional;

/** The catalog of targets a request can name. */
public interface Targets {

    List<Target> all();

    Optional<Target> find(TargetKey key);
}
