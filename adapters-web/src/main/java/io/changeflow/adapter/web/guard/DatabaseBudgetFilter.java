package io.changeflow.adapter.web.guard;

import io.changeflow.application.port.out.DatabaseBudgets;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Objects;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every request runs inside its overall database budget ({@link DatabaseBudgets#apiRequest()}): however many round
 * trips it makes, a slow database costs it the budget plus one pool wait, then it answers 503 UNAVAILABLE with
 * {@code Retry-After} like any database that does not answer (issue 34).
 */
public final class DatabaseBudgetFilter extends OncePerRequestFilter {

    private final DatabaseBudgets budgets;

    public DatabaseBudgetFilter(DatabaseBudgets budgets) {
        this.budgets = Objects.requireNonNull(budgets, "budgets");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try (var budget = budgets.apiRequest()) {
            chain.doFilter(request, response);
        }
    }
}
