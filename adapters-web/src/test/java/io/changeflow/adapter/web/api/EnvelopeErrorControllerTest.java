package io.changeflow.adapter.web.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.adapter.web.metrics.MeterNames;
import io.changeflow.adapter.web.metrics.SafeMeters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.RequestDispatcher;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class EnvelopeErrorControllerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EnvelopeErrorController controller = new EnvelopeErrorController(new ApiExceptionHandler(new SafeMeters(registry)));

    @Test
    void aFilterThatFoundNoDatabaseConnectionIs503WithRetryAfterNot500() {
        var request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);
        request.setAttribute(RequestDispatcher.ERROR_REQUEST_URI, "/api/requests");
        request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException(
                new SQLTransientConnectionException("HikariPool-1 - Connection is not available")));

        var answer = controller.error(request);

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("Retry-After")).isEqualTo("5");
        assertThat(answer.getBody().code()).isEqualTo(ErrorCode.UNAVAILABLE.name());
        assertThat(registry.find(MeterNames.DATABASE_UNAVAILABLE).tag("reason", "pool_wait").counter().count()).isEqualTo(1);
    }

    @Test
    void anyOtherFilterFailureStaysA500() {
        var request = new MockHttpServletRequest("GET", "/error");
        request.setAttribute(RequestDispatcher.ERROR_STATUS_CODE, 500);
        request.setAttribute(RequestDispatcher.ERROR_EXCEPTION, new IllegalStateException("a bug"));

        assertThat(controller.error(request).getStatusCode().value()).isEqualTo(500);
    }
}
