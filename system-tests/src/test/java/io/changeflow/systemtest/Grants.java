package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/** What the grant system tests do over the API: submit a grant for the caller, wait for a status, read a binding. */
final class Grants {

    private Grants() {
    }

    /** A grant of the caller on {@code target} until {@code until} (null: for good), accepted (202). */
    static RequestView submit(ApiClient client, String target, Instant until) {
        var response = client.submit(UUID.randomUUID().toString(), target, client.user(), "system test",
                until == null ? null : until.toString());
        assertThat(response.status()).as(response.toString()).isEqualTo(202);
        assertThat(response.code()).isEqualTo("ACCEPTED");
        return new RequestView(response.data());
    }

    /** Waits until the request is {@code status} (or at rest in another state, which fails). */
    static RequestView awaitStatus(ApiClient client, RequestView request, String status, Duration within) {
        var done = Poll.until("request " + request.operationId() + " to be " + status, within,
                () -> client.request(request.operationId()), v -> status.equals(v.status()) || v.isAtRest());
        assertThat(done.status()).as(done.toString()).isEqualTo(status);
        return done;
    }

    /** The caller's relationship with {@code target} as My bindings lists it. */
    static Optional<JsonNode> binding(ApiClient client, String target) {
        for (var row : client.bindings()) {
            if (row.path("targetKey").asString().equals(target)) {
                return Optional.of(row);
            }
        }
        return Optional.empty();
    }
}
