package io.changeflow.sandbox.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class CallbackEndpointTest {

    @Test
    void defaultsToTheApplicationsOwnPortOnceTheServerRuns() {
        var environment = new MockEnvironment().withProperty("server.port", "0");
        var endpoint = new CallbackEndpoint(environment);
        environment.setProperty("local.server.port", "51234");

        assertThat(endpoint.resolve("/callbacks/approval")).isEqualTo(URI.create("http://localhost:51234/callbacks/approval"));
    }

    @Test
    void followsTheContextPathAndFallsBackToTheConfiguredPort() {
        var environment = new MockEnvironment().withProperty("server.port", "9090")
                .withProperty("server.servlet.context-path", "/changeflow");

        assertThat(new CallbackEndpoint(environment).resolve("/callbacks/deploy"))
                .isEqualTo(URI.create("http://localhost:9090/changeflow/callbacks/deploy"));
    }

    @Test
    void usesTheConfiguredBaseUrl() {
        var environment = new MockEnvironment().withProperty("sandbox.callback-base-url", "https://changeflow.test/ ");

        assertThat(new CallbackEndpoint(environment).resolve("/callbacks/deploy"))
                .isEqualTo(URI.create("https://changeflow.test/callbacks/deploy"));
    }
}
