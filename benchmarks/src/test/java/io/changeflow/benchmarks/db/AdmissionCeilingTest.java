package io.changeflow.benchmarks.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.StepStatus;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class AdmissionCeilingTest {

    /** The task data db-scheduler wrote for a first step, copied from the server's general log of one admission. */
    private static final String LOGGED_TASK_DATA = "aced0005737200116a6176612e7574696c2e486173684d61700507dac1c31660d103000246000a"
            + "6c6f6164466163746f724900097468726573686f6c6478703f4000000000000c77080000001000000001740007617474656d70747400013178";

    @Test
    void writesTheSameStepDataAsTheApp() {
        assertThat(HexFormat.of().formatHex(AdmissionCeiling.serializedStepData())).isEqualTo(LOGGED_TASK_DATA);
    }

    @Test
    void everyStatementHasItsPlaceholdersBound() {
        assertThat(placeholders(AdmissionCeiling.OPERATION_INSERT)).isEqualTo(8);
        assertThat(placeholders(AdmissionCeiling.OPERATION_HISTORY_INSERT)).isEqualTo(6);
        assertThat(placeholders(AdmissionCeiling.BINDING_INSERT)).isEqualTo(4);
        assertThat(placeholders(AdmissionCeiling.BINDING_HISTORY_INSERT)).isEqualTo(7);
        assertThat(placeholders(AdmissionCeiling.TASK_INSERT)).isEqualTo(4);
        assertThat(placeholders(AdmissionCeiling.BINDING_READ)).isEqualTo(2);
        assertThat(placeholders(AdmissionCeiling.FIND_WITH_HISTORY)).isEqualTo(1);
        assertThat(placeholders(AdmissionCeiling.IDEMPOTENCY_CLAIM)).isEqualTo(2);
        assertThat(placeholders(AdmissionCeiling.TRACE_KEEP)).isEqualTo(3);
    }

    @Test
    void bulkStatesComeFromTheTransitionTable() {
        var waiting = BulkRows.walk(io.changeflow.domain.state.WorkflowEvent.SUBMITTED_APPROVE_FIRST,
                io.changeflow.domain.state.WorkflowEvent.APPROVAL_SUBMITTED,
                io.changeflow.domain.state.WorkflowEvent.APPROVAL_GRANTED_BATCH);
        assertThat(waiting.step()).isEqualTo(StepStatus.BATCH_WAITING);
        assertThat(waiting.binding()).contains(BindingStatus.BATCH_WAITING);
    }

    private static long placeholders(String sql) {
        return sql.chars().filter(c -> c == '?').count();
    }
}
