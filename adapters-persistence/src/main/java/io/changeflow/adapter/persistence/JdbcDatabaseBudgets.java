package io.changeflow.adapter.persistence;

import io.changeflow.application.port.out.DatabaseBudgets;
import java.time.Duration;

/**
 * {@link DatabaseBudgets} kept by the {@link BudgetedDataSource} around the pool: an API request's overall budget
 * ({@code changeflow.persistence.request-budget}) and a long job's connection wait
 * ({@code changeflow.persistence.job-connection-timeout}), from {@link PoolDeadlines}.
 */
final class JdbcDatabaseBudgets implements DatabaseBudgets {

    private final Duration requestBudget;
    private final Duration jobConnectionTimeout;

    JdbcDatabaseBudgets(Duration requestBudget, Duration jobConnectionTimeout) {
        this.requestBudget = requestBudget;
        this.jobConnectionTimeout = jobConnectionTimeout;
    }

    @Override
    public Scope apiRequest() {
        return BudgetedDataSource.open(BudgetedDataSource.Budget.apiRequest(requestBudget));
    }

    @Override
    public Scope longJob() {
        return BudgetedDataSource.open(BudgetedDataSource.Budget.longJob(jobConnectionTimeout));
    }
}
