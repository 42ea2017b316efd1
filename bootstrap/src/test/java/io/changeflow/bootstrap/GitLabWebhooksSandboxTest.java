package io.changeflow.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.Operations;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.request.Submission;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.testsupport.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue 33 item 3 in one process: the sandbox's GitLab simulator posts its project hook's events to this app's
 * {@code /callbacks/gitlab}, and a request's pipeline wait is woken by them. The fallback polling is set to 10 minutes,
 * so a request that reaches MERGED within the bound below did so by the events, not by polling.
 */
@ExtendWith(GitLabWebhooksSandboxTest.AfterTheApp.class)
@SpringBootTest(classes = ChangeflowApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"changeflow.embedded-db.enabled=false", "changeflow.batch.round-interval=1h",
                "changeflow.shutdown.drain-delay=0s", "changeflow.gitlab.webhooks.fallback-poll-interval=10m"})
@ActiveProfiles("sandbox")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class GitLabWebhooksSandboxTest {

    private static final TestDatabase DB = TestDatabase.freshSchema();
    private static final Path WORK = Path.of("target", "gitlab-webhooks-sandbox");

    @Autowired
    SubmitChangeRequest submit;
    @Autowired
    Operations operations;
    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DB.open(GitLabWebhooksSandboxTest.class.getSimpleName()).jdbcUrl());
        registry.add("spring.datasource.username", DB::user);
        registry.add("spring.datasource.password", DB::password);
        registry.add("changeflow.dynamic-config.file", () -> WORK.resolve("dynamic.properties").toAbsolutePath().toString());
    }

    /** Drops the schema after the app is closed. */
    static final class AfterTheApp implements AfterAllCallback {

        @Override
        public void afterAll(ExtensionContext context) {
            DB.close();
        }
    }

    @Test
    void theSimulatorsPipelineEventsWakeTheWaitSoARequestIsMergedLongBeforeTheSlowPollingWouldLook() throws Exception {
        var id = UUID.randomUUID().toString();
        var answer = submit.submit(new SubmitChangeRequest.Command(
                new Submission(id, "db-prod-readonly", "alice", "issue 33 webhooks", null), "alice"));
        assertThat(answer).isInstanceOf(SubmitChangeRequest.Result.Accepted.class);
        var started = System.nanoTime();

        var deadline = started + TimeUnit.SECONDS.toNanos(120);
        Optional<BindingStatus> status = Optional.empty();
        while (System.nanoTime() < deadline) {
            status = operations.find(OperationId.of(id)).flatMap(op -> op.binding());
            if (status.isPresent() && Set.of(BindingStatus.MERGED, BindingStatus.VALIDATED).contains(status.get())) {
                break;
            }
            Thread.sleep(200);
        }

        var took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(status).as("merged within %s, with the pipeline wait polling only every 10 minutes", took)
                .hasValueSatisfying(s -> assertThat(s).isIn(BindingStatus.MERGED, BindingStatus.VALIDATED));
        assertThat(took).isLessThan(Duration.ofMinutes(5));
        try (var connection = dataSource.getConnection();
             var count = connection.prepareStatement("select count(*) from callback_delivery where source = 'gitlab'");
             var rows = count.executeQuery()) {
            rows.next();
            assertThat(rows.getInt(1)).as("GitLab webhook deliveries processed").isPositive();
        }
    }
}
