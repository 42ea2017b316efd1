package io.changeflow.bootstrap;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Changeflow: wiring and configuration only. Adapters are imported by {@link AdaptersConfiguration},
 * use cases built by {@link WorkflowConfiguration}; the simulators exist only in the sandbox profile.
 */
@SpringBootApplication
public class ChangeflowApplication {

    public static void main(String[] args) {
        SpringApplication.run(ChangeflowApplication.class, args);
    }
}
