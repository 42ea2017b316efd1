package io.changeflow.benchmarks.support;

import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.domain.state.StepStatus;
import java.time.Duration;

/** Business metrics that record nothing: a benchmark measures the work, not the meters. */
public final class NoMetrics implements BusinessMetrics {

    @Override
    public void submitted(String target) {
    }

    @Override
    public void validated(String target) {
    }

    @Override
    public void failed(StepStatus step) {
    }

    @Override
    public void batchCompleted(int size, Duration duration, boolean merged) {
    }
}
