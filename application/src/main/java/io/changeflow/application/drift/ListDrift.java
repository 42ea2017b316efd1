package io.changeflow.application.drift;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftKind;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.request.TargetKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The operators' drift list (issue 36, item 2): the items with their evidence, newest sighting first, narrowed to one
 * status (every item still about main when absent: open, being removed, adopted, acknowledged), one target and one
 * kind when given. One query.
 */
public final class ListDrift {

    /** The most items one list answers. */
    public static final int MAX_LIMIT = 1_000;

    public record Command(Optional<DriftStatus> status, Optional<TargetKey> target, Optional<DriftKind> kind, int limit) {
        public Command {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(kind, "kind");
        }
    }

    private final Drifts drifts;

    public ListDrift(Drifts drifts) {
        this.drifts = drifts;
    }

    public List<DriftItem> list(Command command) {
        Set<DriftStatus> statuses = command.status().map(Set::of).orElse(DriftStatus.ACTIVE);
        return drifts.list(new Drifts.Query(statuses, command.target(), Optional.empty(), command.kind(),
                Math.clamp(command.limit(), 1, MAX_LIMIT)));
    }
}
