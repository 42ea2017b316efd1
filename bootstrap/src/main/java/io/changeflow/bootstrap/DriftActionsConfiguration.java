package io.changeflow.bootstrap;

import io.changeflow.application.drift.ActOnDrift;
import io.changeflow.application.drift.ListDrift;
import io.changeflow.application.drift.ListMyDrift;
import io.changeflow.application.drift.RemoveDriftLine;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.submit.SubmitChangeRequest;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What operators and people do with drift items (issue 36, item 2): the lists and the operator's actions. Detection
 * itself (the recurring job, the automatic removal) is wired with drift detection.
 */
@Configuration(proxyBeanMethods = false)
class DriftActionsConfiguration {

    @Bean
    ListDrift listDrift(Drifts drifts) {
        return new ListDrift(drifts);
    }

    @Bean
    ListMyDrift listMyDrift(Drifts drifts, Operations operations) {
        return new ListMyDrift(drifts, operations);
    }

    /** Drift detection's removal of exactly an item's line, as the operator's remove action. */
    @Bean
    ActOnDrift.LineRemoval driftLineRemoval(RemoveDriftLine removals) {
        return removals::open;
    }

    @Bean
    ActOnDrift actOnDrift(Drifts drifts, ActOnDrift.LineRemoval removal, SubmitChangeRequest submit, AuditLog audit,
                          Clock clock) {
        return new ActOnDrift(drifts, removal, submit, audit, clock);
    }
}
