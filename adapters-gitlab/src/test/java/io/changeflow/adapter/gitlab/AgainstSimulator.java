package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.MergeRequests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class against the shared simulator through one adapter of its own, wired as the application wires it
 * ({@link AdapterContext#against}); each test works in a {@link #project} of its own.
 */
abstract class AgainstSimulator {

    static SimulatorServer server;
    static AdapterContext adapter;
    static MergeRequests gitlab;

    String project;

    @BeforeAll
    static void startAdapter() {
        server = SimulatorServer.get();
        adapter = AdapterContext.against(server);
        gitlab = adapter.mergeRequests();
    }

    @AfterAll
    static void closeAdapter() {
        adapter.close();
    }
}
