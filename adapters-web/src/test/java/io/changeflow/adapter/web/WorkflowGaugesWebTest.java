package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.metrics.WorkflowGauges;
import io.changeflow.application.query.ShowStats;
import io.changeflow.application.recovery.FindOverdueRequests;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.Convergence.Deadline;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The request gauges an operator alerts on (requests per status, the overdue ones and how long the oldest is past
 * its deadline), on a registry, from the application's own queries: read once per refresh period, whatever the
 * scrape rate.
 */
class WorkflowGaugesWebTest extends WebTestSupport {

    @Autowired
    ShowStats stats;
    @Autowired
    FindOverdueRequests overdue;
    @Autowired
    WorkflowGauges wired;

    private final AtomicLong nanos = new AtomicLong();

    private double gauge(String name, String... tags) {
        return registry.get(name).tags(tags).gauge().value();
    }

    @Test
    void requestsPerStatusAndTheOverdueOnesAreGaugesReadOncePerRefresh() {
        assertThat(wired).as("the web adapter's gauges bean").isNotNull();
        new WorkflowGauges(stats, overdue, nanos::get).bindTo(registry);
        awaitingApproval();
        var sent = gauge(WorkflowGauges.IN_STATUS, "status", "APPROVAL_SENT");
        assertThat(sent).isNotNaN().isPositive();
        assertThat(registry.get(WorkflowGauges.IN_STATUS).gauges()).hasSize(BindingStatus.values().length);

        awaitingApproval();
        assertThat(gauge(WorkflowGauges.IN_STATUS, "status", "APPROVAL_SENT")).as("within the refresh period").isEqualTo(sent);

        nanos.addAndGet(WorkflowGauges.REFRESH.toNanos());
        assertThat(gauge(WorkflowGauges.IN_STATUS, "status", "APPROVAL_SENT")).isEqualTo(sent + 1);

        // the approver never answers: a week (the approval deadline) and a day later both are overdue
        app.clock.advance(FindOverdueRequests.Deadlines.DEFAULTS.get(Deadline.APPROVAL).plus(Duration.ofDays(1)));
        nanos.addAndGet(WorkflowGauges.REFRESH.toNanos());
        assertThat(gauge(WorkflowGauges.OVERDUE)).isGreaterThanOrEqualTo(2);
        assertThat(gauge(WorkflowGauges.OLDEST_OVERDUE)).isGreaterThanOrEqualTo(Duration.ofDays(1).toSeconds());
        assertThat(registry.get(WorkflowGauges.OLDEST_OVERDUE).gauge().getId().getBaseUnit()).isEqualTo("seconds");
        assertThat(registry.get(WorkflowGauges.OVERDUE).gauge().getId().getDescription()).isNotBlank();
    }
}
