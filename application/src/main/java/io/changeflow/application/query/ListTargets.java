package io.changeflow.application.query;

import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.request.Target;
import java.util.List;

/** The catalog of targets a request can name. */
public final class ListTargets {

    /** No parameters: the whole catalog. */
    public record Command() {}

    private final Targets targets;

    public ListTargets(Targets targets) {
        this.targets = targets;
    }

    public List<Target> list(Command command) {
        return targets.all();
    }
}
