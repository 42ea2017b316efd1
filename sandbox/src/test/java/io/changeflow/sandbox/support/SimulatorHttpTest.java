package io.changeflow.sandbox.support;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A test of the simulators over HTTP ({@link SimulatorTest}): {@link #http} talks to the random port they listen on. */
@SimulatorTest
public abstract class SimulatorHttpTest {

    @LocalServerPort
    protected int port;

    protected Http http;

    @BeforeEach
    void connect() {
        http = new Http(port);
    }
}
