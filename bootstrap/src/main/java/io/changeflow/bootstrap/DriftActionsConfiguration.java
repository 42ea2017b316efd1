package io.changeflow.bootstrap;

import io.changeflow.application.drift.ActOnDrift;
import io.changeflow.application.drift.ListDrift;
import io.changeflow.application.drift.ListMyDrift;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.submit.SubmitChangeRequest;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What operators and people do with drift items (issue 36, item 2): the lists and the operator's actions. Detection
 * itself (the recurring job, the automatic removal) is wired with drift detection.
 */
@Configuration(proxyBeanMethods = false)
class DriftActionsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DriftActionsConfiguration.class);

    @Bean
    ListDrift listDrift(Drifts drifts) {
        return new ListDrift(drifts);
    }

    @Bean
    ListMyDrift listMyDrift(Drifts drifts, Operations operations) {
        return new ListMyDrift(drifts, operations);
    }

    /**
     * The workflow's removal of exactly a drift item's line. Until drift detection's removal is wired here, an
     * operator's "remove" answers DRIFT_ACTION_NOT_POSSIBLE and nothing is written (never "removing" without a removal).
     */
    @Bean
    ActOnDrift.LineRemoval driftLineRemoval() {
        return (item, actor, reason) -> {
            log.warn("drift item {}: {} asked to remove its line, but no drift removal is wired; nothing was opened",
                    item.id(), actor);
            return Optional.empty();
        };
    }

    @Bean
    ActOnDrift actOnDrift(Drifts drifts, ActOnDrift.LineRemoval removal, SubmitChangeRequest submit, AuditLog audit,
                          Clock clock) {
        return new ActOnDrift(drifts, removal, submit, audit, clock);
    }
}
