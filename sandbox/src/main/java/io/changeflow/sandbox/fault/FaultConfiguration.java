package io.changeflow.sandbox.fault;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shared {@link Faults} of all simulators, the trace of every call they receive ({@link ReceivedTraces}) and
 * the operators' {@code /sandbox/faults} endpoint.
 * {@code sandbox.faults.seed} (optional) makes the random fault decisions reproducible.
 */
@Configuration(proxyBeanMethods = false)
public class FaultConfiguration {

    @Bean
    Faults sandboxFaults(@Value("${sandbox.faults.seed:#{null}}") Long seed) {
        var faults = new Faults();
        if (seed != null) {
            faults.reseed(seed);
        }
        return faults;
    }

    @Bean
    ReceivedTraces sandboxReceivedTraces() {
        return new ReceivedTraces();
    }

    @Bean
    FaultsController sandboxFaultsController(Faults faults, ReceivedTraces receivedTraces) {
        return new FaultsController(faults, receivedTraces);
    }
}
