package io.changeflow.application.drift;

import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.Operations;
import io.changeflow.domain.drift.DriftItem;
import io.changeflow.domain.drift.DriftStatus;
import io.changeflow.domain.operation.Operation;
import io.changeflow.domain.request.SubjectId;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The drift that concerns the caller (issue 36, item 2), on their own pages: as the subject (a line of theirs on main
 * the service does not hold, a grant of theirs whose line is missing or edited) and as the requester of the subjects
 * they recently asked for. Only items still about main; newest sighting first. A query per subject, at most
 * {@link #MAX_SUBJECTS} of them.
 */
public final class ListMyDrift {

    /** How many of the caller's latest requests name the other subjects looked at. */
    static final int RECENT_REQUESTS = 50;
    /** The most subjects looked at (the caller first). */
    static final int MAX_SUBJECTS = 10;
    /** The most items per subject. */
    static final int PER_SUBJECT = 50;

    /** @param account the caller's canonical account (their subject ID too) */
    public record Command(String account) {}

    /** One item and whether the caller is its subject (false: a subject they asked for). */
    public record Mine(DriftItem item, boolean asSubject) {}

    private final Drifts drifts;
    private final Operations operations;

    public ListMyDrift(Drifts drifts, Operations operations) {
        this.drifts = drifts;
        this.operations = operations;
    }

    public List<Mine> list(Command command) {
        var self = SubjectId.parse(command.account());
        var subjects = new LinkedHashSet<SubjectId>();
        self.ifPresent(subjects::add);
        operations.requestsOf(command.account(), 0, RECENT_REQUESTS).stream().map(Operation::subject)
                .forEach(subjects::add);
        return subjects.stream().limit(MAX_SUBJECTS)
                .flatMap(subject -> drifts.list(new Drifts.Query(DriftStatus.ACTIVE, Optional.empty(),
                        Optional.of(subject), Optional.empty(), PER_SUBJECT)).stream()
                        .map(item -> new Mine(item, self.equals(Optional.of(subject)))))
                .sorted(Comparator.comparing((Mine m) -> m.item().lastSeen()).reversed())
                .toList();
    }
}
