package io.changeflow.application.query;

import io.changeflow.application.port.out.WorkQueue.Scheduled;
import io.changeflow.domain.operation.Operation;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The version of a request view (issue 33, conditional reads): it changes whenever anything the view shows can have
 * changed, and it is the same on every instance for the same stored state, so it can serve as the {@code ETag} of
 * {@code GET /api/requests/{operationId}}.
 *
 * <p>What the view shows comes from the operation row (its {@code version} increases on every state write, each of
 * which appends the timeline entry), the binding status it owns (lost without a write of its own when a
 * re-application takes the binding over), the merge request (for a batch member the batch's, set by a write of the
 * batch), and the scheduled step behind its wait (a rescheduled look moves the next attempt without any state
 * write). The removal story reads the removed grant's requester and subject, which never change. Not included: the
 * deadline settings the wait adds to its {@code since}; they change with a restart, and a request's next change
 * shows them. {@link #FORMAT} is raised whenever the view's JSON changes shape, so a release never answers 304 for
 * an answer of the previous one.
 */
final class ViewVersion {

    /** Raised with every change of the request view's shape. */
    static final int FORMAT = 1;

    private ViewVersion() {
    }

    static String of(Operation op, Optional<Scheduled> scheduled) {
        var shown = new StringBuilder()
                .append(op.binding().map(Enum::name).orElse("-")).append('|')
                .append(op.updatedAt().toEpochMilli()).append('|')
                .append(op.batchId().map(String::valueOf).orElse("-")).append('|')
                .append(op.mergeRequest().map(mr -> mr.project() + "!" + mr.iid() + " " + mr.webUrl()).orElse("-"));
        scheduled.ifPresent(s -> shown.append('|').append(s.due().toEpochMilli()).append('|')
                .append(s.step().attempt()).append('|').append(new TreeMap<>(s.step().data())));
        return FORMAT + "-" + op.version() + "-" + digest(shown);
    }

    /** 64 bits of the SHA-256 of {@code shown}, in hex: the same on every instance, collisions out of reach. */
    static String digest(CharSequence shown) {
        try {
            var hash = MessageDigest.getInstance("SHA-256").digest(shown.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
