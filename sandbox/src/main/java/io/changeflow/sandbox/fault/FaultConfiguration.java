package io.changeflow.sandbox.fault;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The shared {@link Faults} of all simulators and the operators' {@code /sandbox/faults} endpoint.
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
    FaultsController sandboxFaultsController(Faults faults) {
        return new FaultsController(faults);
    }
}
