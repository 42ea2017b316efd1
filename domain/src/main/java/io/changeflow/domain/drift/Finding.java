package io.changeflow.domain.drift;

import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.SubjectId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * One disagreement {@link DriftCheck} found between a target's grant file on main and the records.
 *
 * @param kind      what disagrees
 * @param subject   whose line it is (empty for content that names no subject)
 * @param line      the line as on main (stripped); for {@link DriftKind#MISSING_LINE} the line the grant in effect needs
 * @param operation the operation the line names, or for a missing or edited line the grant in effect's (empty when
 *                  the line names none the format reads)
 * @param note      why, for people (never an exception message)
 */
public record Finding(DriftKind kind, Optional<SubjectId> subject, String line, Optional<OperationId> operation,
                      String note) {

    public Finding {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(line, "line");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(note, "note");
    }

    /**
     * What makes two sightings the same item, with the target and the kind: the subject and the exact line (SHA-256,
     * 64 hex digits), so a run that sees the same line again updates its item instead of adding one.
     */
    public String fingerprint() {
        try {
            var digest = MessageDigest.getInstance("SHA-256")
                    .digest((subject.map(SubjectId::value).orElse("") + "\n" + line).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** The same finding as a line of the target's baseline (imported, never removed by itself). */
    Finding asBaseline() {
        return new Finding(DriftKind.BASELINE, subject, line, operation,
                "On main when the target was first checked (" + kind.name().toLowerCase(java.util.Locale.ROOT)
                        .replace('_', ' ') + "): " + note + " Imported for an operator to adopt or remove.");
    }
}
