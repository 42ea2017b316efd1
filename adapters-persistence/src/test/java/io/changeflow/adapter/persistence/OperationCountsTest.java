package io.changeflow.adapter.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OperationCountsTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(2);

    @Test
    void countsEachRelationshipOnceByItsCurrentStatusAndLeavesEmptyStatusesOut() {
        var operations = persistence.operations();
        assertThat(operations.countByStatus()).isEmpty();

        var target = Fixtures.unique("count");
        Fixtures.opened(operations, Fixtures.request("kim", target));
        Fixtures.opened(operations, Fixtures.request("lou", target));
        Fixtures.merged(operations, "max", target);
        Fixtures.rejected(operations, "ned", target);
        Fixtures.opened(operations, Fixtures.request("ned", target));
        Fixtures.walked(operations, Fixtures.request("oli", target), WorkflowEvent.APPROVAL_SUBMITTED);

        assertThat(operations.countByStatus()).containsOnly(
                entry(BindingStatus.APPROVAL_SENDING, 3L),
                entry(BindingStatus.APPROVAL_SENT, 1L),
                entry(BindingStatus.MERGED, 1L));
    }
}
