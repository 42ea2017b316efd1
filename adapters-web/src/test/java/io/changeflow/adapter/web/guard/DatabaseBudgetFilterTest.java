package io.changeflow.adapter.web.guard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.DatabaseBudgets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

/** Issue 34: every request's database work runs inside its API budget, closed when the request ends, even by a failure. */
class DatabaseBudgetFilterTest {

    private final AtomicInteger open = new AtomicInteger();
    private final DatabaseBudgets budgets = new DatabaseBudgets() {
        @Override
        public Scope apiRequest() {
            open.incrementAndGet();
            return open::decrementAndGet;
        }

        @Override
        public Scope longJob() {
            throw new AssertionError("a request is not a long job");
        }
    };

    @Test
    void theRequestRunsInsideItsBudgetWhichEndsWithIt() throws Exception {
        var inside = new AtomicInteger(-1);
        var chain = new MockFilterChain(new jakarta.servlet.http.HttpServlet() {
            @Override
            protected void service(jakarta.servlet.http.HttpServletRequest req, jakarta.servlet.http.HttpServletResponse resp) {
                inside.set(open.get());
            }
        });
        new DatabaseBudgetFilter(budgets).doFilter(new MockHttpServletRequest("GET", "/api/requests/x"),
                new MockHttpServletResponse(), chain);
        assertThat(inside.get()).isEqualTo(1);
        assertThat(open.get()).isZero();
    }

    @Test
    void theBudgetEndsWhenTheRequestFails() {
        var chain = new MockFilterChain(new jakarta.servlet.http.HttpServlet() {
            @Override
            protected void service(jakarta.servlet.http.HttpServletRequest req, jakarta.servlet.http.HttpServletResponse resp) {
                throw new IllegalStateException("boom");
            }
        });
        assertThatThrownBy(() -> new DatabaseBudgetFilter(budgets).doFilter(new MockHttpServletRequest("POST", "/api/requests"),
                new MockHttpServletResponse(), chain)).hasMessageContaining("boom");
        assertThat(open.get()).isZero();
    }
}
