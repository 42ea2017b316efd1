package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.adapter.web.metrics.DriftGauges;
import io.changeflow.application.drift.CountDrift;
import io.changeflow.application.drift.DetectDrift;
import io.changeflow.application.drift.RemoveDriftLine;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.Drifts;
import io.changeflow.application.port.out.LineOrigins;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Drift detection (issue 36): the job comparing each target's grant file on main with the records. The keys
 * {@value #INTERVAL} and {@value #SETTLE} are read as text and resolved fail-safe ({@link DetectDrift.Policy#of}): a
 * missing, garbled, zero or negative interval is 5 min (never "off"); a missing, garbled or negative settle time is
 * 30 s. Neither stops the service from starting.
 */
@Configuration(proxyBeanMethods = false)
class DriftConfiguration {

    static final String INTERVAL = "changeflow.drift.interval";
    static final String SETTLE = "changeflow.drift.settle";

    @Bean
    DetectDrift.Policy detectDriftPolicy(Environment environment) {
        return FailSafeSettings.resolve(environment, INTERVAL, SETTLE, DetectDrift.Policy::of, DetectDrift.Policy::every,
                DetectDrift.Policy::settle);
    }

    @Bean
    RemoveDriftLine removeDriftLine(Operations operations, Targets targets, Batches batches, Drifts drifts, Clock clock) {
        return new RemoveDriftLine(operations, targets, batches, drifts, clock);
    }

    @Bean
    DetectDrift detectDrift(Targets targets, MergeRequests gitlab, LineOrigins origins, Operations operations,
                            Drifts drifts, RemoveDriftLine removals, Clock clock, DetectDrift.Policy policy) {
        return new DetectDrift(targets, gitlab, origins, operations, drifts, removals, clock, policy);
    }

    @Bean
    CountDrift countDrift(Drifts drifts) {
        return new CountDrift(drifts);
    }

    /** Drift items nobody decided about yet, per kind, as gauges on the meter registry. */
    @Bean
    DriftGauges driftGauges(CountDrift count) {
        return new DriftGauges(count, System::nanoTime);
    }

    @Bean
    RecurringJob detectDriftJob(DetectDrift detect, DetectDrift.Policy policy) {
        return new RecurringJob("detect-drift", policy.every(), () -> detect.run(new DetectDrift.Command()));
    }
}
