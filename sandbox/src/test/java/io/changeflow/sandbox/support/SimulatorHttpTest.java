package io.changeflow.sandbox.support;

import io.changeflow.sandbox.fault.Faults;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

/**
 * A test of the simulators over HTTP ({@link SimulatorTest}): {@link #http} talks to the random port they listen on;
 * {@link #faults} and {@link #recorder} are the shared context's (a test clears what it set).
 */
@SimulatorTest
public abstract class SimulatorHttpTest {

    /** How long a test waits for the callbacks it expects. */
    protected static final Duration WAIT = Duration.ofSeconds(15);
    protected static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    protected int port;
    @Autowired
    protected Faults faults;
    @Autowired
    protected CallbackRecorder recorder;

    protected Http http;

    @BeforeEach
    void connect() {
        http = new Http(port);
    }
}
