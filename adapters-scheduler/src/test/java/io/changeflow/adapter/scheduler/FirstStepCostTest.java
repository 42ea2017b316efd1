package io.changeflow.adapter.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.changeflow.domain.polling.ExponentialBackoff;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 33 item 2: the first step of a request just opened ({@code WorkQueue.scheduleFirst}) is one insert, with the
 * backlog counted only near its bound and a refusal always decided by an exact count. Statements counted on the
 * queue's own DataSource, never timed.
 */
class FirstStepCostTest {

    @RegisterExtension
    static final Schema schema = Schema.onFreshDatabase();

    private final List<String> statements = new ArrayList<>();

    @Test
    void theFirstStepOfANewRequestIsOneInsertOnceTheBacklogWasCounted() {
        var queue = queue(10_000);
        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-0"))).isTrue();
        assertThat(statements).containsExactly("select count", "insert into scheduled_tasks");
        statements.clear();

        var step = Step.first(StepKind.SUBMIT_APPROVAL, "op-1");
        assertThat(queue.scheduleFirst(step)).isTrue();

        assertThat(statements).containsExactly("insert into scheduled_tasks");
        var row = schema.row(StepKind.SUBMIT_APPROVAL, "op-1").orElseThrow();
        assertThat(Schema.step(row)).isEqualTo(step);
        assertThat(row.isPicked()).isFalse();
        assertThat(row.getExecutionTime()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
        assertThat(queue.isScheduled(StepKind.SUBMIT_APPROVAL, "op-1")).isTrue();
    }

    @Test
    void aFirstStepWhoseInstanceHasAPendingRowReplacesItAsScheduleDoes() {
        var queue = queue(10_000);
        queue.schedule(new Step(StepKind.CREATE, "op-1", 2, Map.of("v", "1")), Duration.ofHours(1));

        var step = Step.first(StepKind.CREATE, "op-1");
        assertThat(queue.scheduleFirst(step)).isTrue();

        assertThat(schema.workflowRows()).hasSize(1);
        var row = schema.row(StepKind.CREATE, "op-1").orElseThrow();
        assertThat(Schema.step(row)).isEqualTo(step);
        assertThat(row.getExecutionTime()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
    }

    @Test
    void theBacklogBoundRefusesByAnExactCountAndNeverOvershootsFromOneInstance() {
        var queue = queue(3);

        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-1"))).isTrue();
        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-2"))).isTrue();
        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-3"))).isTrue();
        statements.clear();
        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-4"))).isFalse();

        assertThat(statements).contains("select count");
        assertThat(schema.workflowRows()).hasSize(3);
        assertThat(queue.isScheduled(StepKind.SUBMIT_APPROVAL, "op-4")).isFalse();
    }

    @Test
    void rowsAnotherInstanceAddedBehindTheEstimateOvershootByTheEstimatesRoomAtMostThenTheExactCountRefuses() {
        var queue = queue(10);
        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-0"))).isTrue();
        var other = queue(10);
        for (var i = 1; i < 10; i++) {
            assertThat(other.schedule(Step.first(StepKind.CREATE, "other-" + i), Duration.ofHours(1))).isTrue();
        }

        var admitted = 0;
        for (var i = 1; i <= 10; i++) {
            if (queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-" + i))) {
                admitted++;
            }
        }

        // counted 0 and added 1: the estimate has room for 10 - headroom(10) - 1 = 8 more without a count (fewer if
        // the count grew older than COUNT_FRESH_FOR meanwhile); the exact count then sees the other instance's rows
        assertThat(admitted).isLessThanOrEqualTo(10 - StepPlacement.headroom(10) - 1);
        assertThat(queue.scheduleFirst(Step.first(StepKind.SUBMIT_APPROVAL, "op-late"))).isFalse();
        assertThat(queue.isScheduled(StepKind.SUBMIT_APPROVAL, "op-late")).isFalse();
    }

    private DbSchedulerWorkQueue queue(int capacity) {
        var task = new WorkflowStepTask(() -> {
            throw new IllegalStateException("nothing runs here");
        }, new ExponentialBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)), "cost");
        var queue = new DbSchedulerWorkQueue(counted(schema.db().dataSource()), task, capacity, Clock.systemUTC());
        statements.clear();
        return queue;
    }

    /** {@code dataSource} with every prepared statement's execution recorded as its first two words (and table). */
    private DataSource counted(DataSource dataSource) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    var result = invoke(dataSource, method, args);
                    return result instanceof Connection connection ? counted(connection) : result;
                });
    }

    private Connection counted(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    var result = invoke(connection, method, args);
                    if (result instanceof PreparedStatement statement && method.getName().equals("prepareStatement")) {
                        return counted(statement, (String) args[0]);
                    }
                    return result;
                });
    }

    private PreparedStatement counted(PreparedStatement statement, String sql) {
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
                    if (method.getName().startsWith("execute")) {
                        statements.add(shape(sql));
                    }
                    return invoke(statement, method, args);
                });
    }

    private static String shape(String sql) {
        var words = sql.strip().toLowerCase(java.util.Locale.ROOT).split("[\\s(]+");
        return words[0].equals("insert") ? "insert into " + words[2] : words[0] + " " + words[1];
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
