package io.changeflow.bootstrap;

import io.changeflow.application.approval.ReconcileApprovals;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The approval check's settings ({@code changeflow.workflow.approval-check.*} and
 * {@code changeflow.workflow.approval-deadline}), bound as text and read fail-safe by
 * {@link ReconcileApprovals.Policy#of}: a missing, garbled, zero or negative value means its default
 * (10m, 1m, 7d, 100) and never stops start-up.
 */
@ConfigurationProperties("changeflow.workflow")
record ApprovalCheckProperties(ApprovalCheck approvalCheck, String approvalDeadline) {

    /** {@code after}: checked once quiet this long; {@code every}: how often; {@code limit}: requests per run. */
    record ApprovalCheck(String after, String every, String limit) {}

    ReconcileApprovals.Policy toPolicy() {
        var check = approvalCheck == null ? new ApprovalCheck(null, null, null) : approvalCheck;
        return ReconcileApprovals.Policy.of(check.after(), check.every(), approvalDeadline, check.limit());
    }
}
