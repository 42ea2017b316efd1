package io.changeflow.domain.operation;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.request.ChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.StepOrder;
import io.changeflow.domain.request.SubjectId;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.ChangeKind;
import io.changeflow.domain.state.StepStatus;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OperationTest {

    private static final OperationId OP = OperationId.of("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
    private static final OperationId OWNER = OperationId.of("9a1b2c3d-0000-4000-8000-000000000001");
    private static final Optional<Instant> FRIDAY = Optional.of(Instant.parse("2025-06-07T00:00:00Z"));
    private static final Instant CREATED = Instant.parse("2025-06-01T09:00:00Z");

    @Test
    void requestIsWhatWasAsked() {
        var op = new Operation(OP, "alice", SubjectId.of("bob"), TargetKey.of("db-prod"), "on call", FRIDAY,
                StepOrder.APPROVE_FIRST, StepStatus.CREATE_STARTED, 3, Optional.of(BindingStatus.MR_CREATING),
                Optional.empty(), Optional.of("T-1"), Optional.empty(), "Creating the merge request.", CREATED, CREATED,
                ChangeKind.GRANT, Optional.empty());

        assertThat(op.request()).isEqualTo(new ChangeRequest(OP, "alice", TargetKey.of("db-prod"), SubjectId.of("bob"),
                "on call", FRIDAY));
    }

    @Test
    void requestLeavesTheStateAndTheKindOut() {
        var asked = new Operation(OP, "alice", SubjectId.of("bob"), TargetKey.of("db-prod"), "on call", Optional.empty(),
                StepOrder.APPROVE_FIRST, StepStatus.CREATE_STARTED, 1, Optional.of(BindingStatus.MR_CREATING),
                Optional.empty(), Optional.empty(), Optional.empty(), "", CREATED, CREATED, ChangeKind.GRANT,
                Optional.empty());
        var later = new Operation(OP, "alice", SubjectId.of("bob"), TargetKey.of("db-prod"), "on call", Optional.empty(),
                StepOrder.CREATE_FIRST, StepStatus.HANDLE_MERGED, 9, Optional.empty(),
                Optional.of(new MergeRequestRef("grants", 7, "changeflow/" + OP.value(), "https://gitlab/grants/-/merge_requests/7")),
                Optional.of("T-1"), Optional.of(4L), "Merged.", CREATED, CREATED.plusSeconds(60), ChangeKind.REVOCATION,
                Optional.of(OWNER));

        assertThat(later.request()).isEqualTo(asked.request());
        assertThat(later.request().expiresAt()).isEmpty();
    }
}
