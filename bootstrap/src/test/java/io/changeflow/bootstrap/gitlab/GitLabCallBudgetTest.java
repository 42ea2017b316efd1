package io.changeflow.bootstrap.gitlab;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.changeflow.adapter.gitlab.GitLabConfiguration;
import io.changeflow.adapter.persistence.PersistenceConfiguration;
import io.changeflow.application.port.out.DynamicConfig;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.testsupport.TestDatabase;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jooq.autoconfigure.JooqAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * {@code changeflow.gitlab.max-calls-per-minute} across instances: two GitLab adapters (two instances) share one
 * budget in the real database, so together they never make more calls a minute than configured; a call over the
 * budget is not made and fails at once as RATE_LIMITED with the wait until a slot frees up (the step runs again
 * after it), never counted against the breaker.
 */
class GitLabCallBudgetTest {

    @RegisterExtension
    static final TestDatabase db = TestDatabase.freshSchema();

    private static final int BUDGET = 10;

    private final AtomicInteger gitlabCalls = new AtomicInteger();
    private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();
    private HttpServer gitlab;

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
            TransactionAutoConfiguration.class, FlywayAutoConfiguration.class, JooqAutoConfiguration.class})
    @Import(PersistenceConfiguration.class)
    static class SharedDatabase {
    }

    @Configuration(proxyBeanMethods = false)
    @Import(GitLabConfiguration.class)
    static class Instance {

        @Bean
        DynamicConfig dynamicConfig() {
            return key -> Optional.empty();
        }
    }

    @BeforeEach
    void fakeGitLab() throws IOException {
        gitlab = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        gitlab.createContext("/api/v4/projects/", exchange -> {
            gitlabCalls.incrementAndGet();
            var body = "{\"id\":7,\"path_with_namespace\":\"platform/budget\",\"default_branch\":\"main\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        gitlab.setExecutor(Executors.newFixedThreadPool(4));
        gitlab.start();
    }

    @AfterEach
    void stop() {
        contexts.forEach(ConfigurableApplicationContext::close);
        gitlab.stop(0);
    }

    @Test
    void twoInstancesSharingTheDatabaseStayUnderTheBudgetTogether() throws Exception {
        var database = start(new SpringApplicationBuilder(SharedDatabase.class),
                "spring.datasource.url=" + db.jdbcUrl(), "spring.datasource.username=" + db.user(),
                "spring.datasource.password=" + db.password());
        var first = instance(database);
        var second = instance(database);

        var refusals = new ConcurrentLinkedQueue<ExternalCallException>();
        var made = new AtomicInteger();
        var pool = Executors.newFixedThreadPool(4);
        var done = new CountDownLatch(4);
        for (var thread = 0; thread < 4; thread++) {
            var adapter = (thread % 2 == 0 ? first : second).getBean(MergeRequests.class);
            pool.execute(() -> {
                try {
                    for (var call = 0; call < 8; call++) {
                        try {
                            assertThat(adapter.defaultBranch("platform/budget")).isEqualTo("main");
                            made.incrementAndGet();
                        } catch (ExternalCallException e) {
                            refusals.add(e);
                        }
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
        pool.shutdown();

        assertThat(gitlabCalls.get()).isEqualTo(BUDGET);
        assertThat(made.get()).isEqualTo(BUDGET);
        for (var instance : List.of(first, second)) {
            var health = instance.getBean("gitlab", HealthIndicator.class).health();
            assertThat(health.getDetails()).containsEntry("circuitBreaker", "CLOSED");
        }
        assertThat(refusals).hasSize(4 * 8 - BUDGET).allSatisfy(e -> {
            assertThat(e.kind()).isEqualTo(ExternalCallException.Kind.RATE_LIMITED);
            assertThat(e.isTransient()).isTrue();
            assertThat(e.retryAfter()).hasValueSatisfying(wait ->
                    assertThat(wait).isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(Duration.ofMinutes(1)));
        });
    }

    private ConfigurableApplicationContext instance(ConfigurableApplicationContext database) {
        var context = start(new SpringApplicationBuilder(Instance.class).parent(database),
                "changeflow.gitlab.base-url=http://127.0.0.1:" + gitlab.getAddress().getPort(),
                "changeflow.gitlab.author.account=changeflow-bot", "changeflow.gitlab.author.token=t",
                "changeflow.gitlab.max-calls-per-minute=" + BUDGET,
                // every defaultBranch a GitLab call (issue 33's project cache off): the budget is counted in calls
                "changeflow.gitlab.project-cache-ttl=0s",
                // a breaker that would open on a handful of failures: refusals must not count
                "changeflow.gitlab.circuit-breaker.minimum-number-of-calls=2",
                "changeflow.gitlab.circuit-breaker.sliding-window-size=4");
        return context;
    }

    private ConfigurableApplicationContext start(SpringApplicationBuilder builder, String... properties) {
        var context = builder.web(WebApplicationType.NONE).logStartupInfo(false)
                .properties("spring.main.banner-mode=off")
                .properties(properties)
                .run();
        contexts.add(context);
        return context;
    }
}
