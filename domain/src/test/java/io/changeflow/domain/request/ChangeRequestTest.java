package io.changeflow.domain.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChangeRequestTest {

    private static final OperationId OP = OperationId.of("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
    private static final OperationId OTHER_OP = OperationId.of("9a1b2c3d-0000-4000-8000-000000000001");
    private static final Optional<Instant> FRIDAY = Optional.of(Instant.parse("2025-06-07T00:00:00Z"));

    private static ChangeRequest request(OperationId op, String requester, String target, String subject, String reason,
                                         Optional<Instant> expiresAt) {
        return new ChangeRequest(op, requester, TargetKey.of(target), SubjectId.of(subject), reason, expiresAt);
    }

    private static final ChangeRequest BASE = request(OP, "alice", "db-prod", "bob", "on call", FRIDAY);

    @Test
    void equalPayloadsHaveEqualFingerprints() {
        var same = request(OP, "alice", "db-prod", "bob", "on call", FRIDAY);
        assertThat(same.fingerprint()).isEqualTo(BASE.fingerprint());
    }

    @Test
    void fingerprintIgnoresTheOperationId() {
        assertThat(request(OTHER_OP, "alice", "db-prod", "bob", "on call", FRIDAY).fingerprint()).isEqualTo(BASE.fingerprint());
    }

    @Test
    void anyDifferentFieldGivesADifferentFingerprint() {
        var variants = List.of(
                request(OP, "carol", "db-prod", "bob", "on call", FRIDAY),
                request(OP, "alice", "db-test", "bob", "on call", FRIDAY),
                request(OP, "alice", "db-prod", "dave", "on call", FRIDAY),
                request(OP, "alice", "db-prod", "bob", "on call!", FRIDAY),
                request(OP, "alice", "db-prod", "bob", "on call", Optional.empty()),
                request(OP, "alice", "db-prod", "bob", "on call", Optional.of(Instant.parse("2025-06-07T00:00:00.001Z"))),
                // fields that would concatenate to the same text
                request(OP, "alice", "db-prod", "bob", "on call\n2025-06-07T00:00:00Z", Optional.empty()),
                request(OP, "alice", "db-prod", "bob", "on call\n-", Optional.empty()));
        for (var variant : variants) {
            assertThat(variant.fingerprint()).as(variant.toString()).isNotEqualTo(BASE.fingerprint());
        }
        assertThat(variants.stream().map(ChangeRequest::fingerprint).distinct()).hasSize(variants.size());
    }

    @Test
    void fingerprintIsALowerCaseSha256Hex() {
        assertThat(BASE.fingerprint()).matches("[0-9a-f]{64}");
    }
}
