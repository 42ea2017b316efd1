package io.changeflow.bootstrap.e2e;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.assertions.LocatorAssertions;
import com.microsoft.playwright.assertions.PlaywrightAssertions;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.Cookie;
import io.changeflow.bootstrap.ChangeflowApplication;
import io.changeflow.sandbox.gitlab.GitLabSimulator;
import io.changeflow.testsupport.TestDatabase;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The web app in real headless Chromium (Playwright for Java, the system's Chromium) against the real
 * app on a random port with the sandbox profile (GitLab, approval and deploy simulators in the same
 * process), a fresh schema on the test database server, and a dynamic configuration file of its own.
 * Timings are short; approvals are manual (the approver inbox, or the inbox API as amy) so each journey
 * decides when its request is approved; a failing GitLab call fails its step within two seconds
 * ({@code transient-retries=0}, {@code transient-deadline=2s}) so a stuck request is quick to make; batch rounds and reconciliation
 * run only when an operator starts them (reconciliation looks at requests merged more than 2 s ago); a
 * pipeline still running after 8 s has timed out (a batch is BLOCKED then).
 *
 * <p>Screenshots of the main pages go to {@code target/screenshots/}. Without {@code /usr/bin/chromium}
 * the browser tests are skipped with a message (CI installs it); the smoke script test runs anyway.
 */
@ExtendWith(BrowserJourneysTest.AfterTheApp.class)
@SpringBootTest(classes = ChangeflowApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "changeflow.embedded-db.enabled=false",
                "changeflow.shutdown.drain-delay=0s",
                "changeflow.dynamic-config.poll-interval=200ms",
                "changeflow.scheduler.polling-interval=200ms",
                "changeflow.scheduler.threads=4",
                "changeflow.workflow.pipeline.short-interval=300ms",
                "changeflow.workflow.rebase.short-interval=300ms",
                "changeflow.workflow.merge-retry-delay=300ms",
                "changeflow.workflow.approval-backoff-base=300ms",
                "changeflow.workflow.transient-retries=0",
                "changeflow.workflow.transient-deadline=2s",
                // A batch whose pipeline never finishes is BLOCKED after this (the sandbox's 1 s pipelines never reach it).
                "changeflow.workflow.pipeline.timeout=8s",
                // Reconciliation only when an operator runs it, over merged requests unchanged for 2 s.
                "changeflow.workflow.reconciliation.every=1h",
                "changeflow.workflow.reconciliation.min-age=2s",
                // the reconciliation journey infers "in effect" from a later report: a project that allows it
                "changeflow.workflow.reconciliation.matching=watermark",
                "changeflow.gitlab.circuit-breaker.wait-duration-in-open-state=1s",
                "changeflow.batch.round-interval=1h",
                "sandbox.approval.mode=manual",
                "sandbox.approval.auto-delay=200ms",
                "sandbox.gitlab.checking-duration=200ms",
                "sandbox.gitlab.pipeline-duration=1s",
                "sandbox.gitlab.rebase-duration=200ms",
                "sandbox.deploy.delay=300ms",
                "sandbox.webhook.retry-backoff=200ms"
        })
@ActiveProfiles("sandbox")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BrowserJourneysTest {

    private static final TestDatabase DB = TestDatabase.freshSchema();
    private static final Path WORK = Path.of("target", "e2e-work", UUID.randomUUID().toString().substring(0, 8));
    private static final Path DYNAMIC_CONFIG = WORK.resolve("config").resolve("dynamic.properties");
    private static final Duration JOURNEY = Duration.ofSeconds(60);
    private static final String PROJECT = "platform/access-config";
    private static final Set<String> FAILED = Set.of("CREATE_FAILED", "HANDLE_FAILED", "APPROVAL_FAILED");

    private static Chromium chromium;

    @LocalServerPort
    int port;

    /** The sandbox's GitLab in the app: a maintainer's push to main (the drift journey). */
    @Autowired
    GitLabSimulator gitlab;

    private final List<BrowserContext> contexts = new ArrayList<>();
    /** What Chromium reported as blocked by the Content-Security-Policy: every journey runs with the policy on. */
    private final List<String> policyViolations = new CopyOnWriteArrayList<>();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> DB.open(BrowserJourneysTest.class.getSimpleName()).jdbcUrl());
        registry.add("spring.datasource.username", DB::user);
        registry.add("spring.datasource.password", DB::password);
        registry.add("changeflow.dynamic-config.file", () -> DYNAMIC_CONFIG.toAbsolutePath().toString());
    }

    @BeforeAll
    static void start() throws IOException {
        Files.createDirectories(DYNAMIC_CONFIG.getParent());
        Files.writeString(DYNAMIC_CONFIG, "APPLY_RATE_LIMIT=100\n");
        PlaywrightAssertions.setDefaultAssertionTimeout(15_000);
        if (Chromium.installed()) {
            chromium = Chromium.launch();
        }
    }

    /**
     * Drops the schema and closes the browser after the app is closed (its scheduler uses the schema until
     * then): declared before {@code @SpringBootTest}, so JUnit registers it before the SpringExtension and
     * runs its afterAll after the SpringExtension's, which closes the context ({@code @DirtiesContext}).
     */
    static final class AfterTheApp implements AfterAllCallback {

        @Override
        public void afterAll(ExtensionContext extensionContext) throws IOException {
            try {
                DB.close();
            } finally {
                if (chromium != null) {
                    chromium.close();
                    chromium = null;
                }
                try (var files = Files.walk(WORK)) {
                    for (var file : files.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(file);
                    }
                }
            }
        }
    }

    @AfterEach
    void closeBrowsers() {
        contexts.forEach(BrowserContext::close);
        contexts.clear();
        var violations = List.copyOf(policyViolations);
        policyViolations.clear();
        Assertions.assertThat(violations).as("Content-Security-Policy violations in the browser").isEmpty();
    }

    // ------------------------------------------------------------------ journeys

    /**
     * a. Sign in as alice, pick a target in the catalog, see the preview of the grant line, submit;
     * amy approves in the approver inbox; alice's request page follows it by itself to "in effect"
     * (VALIDATED) with the merge request link and the timeline; the link opens the simulator's merge
     * request page with the merged grant line.
     */
    @Test
    @Order(1)
    void requesterSubmitsApproverApprovesAndThePageFollowsTheRequestToInEffect() {
        var alice = newPage(null, false);
        alice.navigate(base() + "/");
        alice.getByTestId("sign-in-as-alice").click();
        assertThat(alice.getByTestId("current-user")).hasText("alice");

        alice.locator("[data-testid=catalog-target][data-target=db-prod-readonly] button").click();
        assertThat(alice.getByTestId("field-target")).hasValue("db-prod-readonly");
        var operationId = alice.getByTestId("operation-id").textContent().trim();
        alice.getByTestId("field-reason").fill("On-call this week");
        assertThat(alice.getByTestId("preview")).hasAttribute("data-preview-state", "ready");
        assertThat(alice.getByTestId("preview")).containsText("grants/db-prod-readonly.txt");
        assertThat(alice.getByTestId("preview")).containsText("alice");
        assertThat(alice.getByTestId("preview")).containsText("op=" + operationId);
        Chromium.screenshot(alice, "request-form");

        alice.getByTestId("submit-request").click();
        alice.waitForURL("**/requests/" + operationId);
        assertThat(alice.getByTestId("request-page")).hasAttribute("data-operation-id", operationId);
        assertThat(alice.getByTestId("request-status")).hasAttribute("data-status", "APPROVAL_SENT", within(JOURNEY));

        // her home says what is pending and who acts next (issue 32, item 7)
        var aliceHome = newPage("alice", false);
        aliceHome.navigate(base() + "/");
        var pending = aliceHome.locator("[data-testid=open-request][data-operation-id='" + operationId + "']");
        assertThat(pending.getByTestId("open-request-next")).hasText("Next: the approver");
        assertThat(aliceHome.locator("[data-testid=my-access-grant][data-target=db-prod-readonly]")).hasCount(0);
        Chromium.screenshot(aliceHome, "home-pending");

        var amy = newPage("amy", false);
        amy.navigate(base() + "/inbox");
        var item = amy.locator("[data-testid=inbox-item][data-operation-id='" + operationId + "']");
        assertThat(item).containsText("db-prod-readonly");
        assertThat(item).containsText("On-call this week");
        Chromium.screenshot(amy, "inbox");
        item.getByTestId("approve").click();
        assertThat(amy.getByTestId("inbox-status")).containsText("Approved");
        assertThat(item).hasCount(0);

        assertThat(alice.getByTestId("request-status")).hasAttribute("data-status", "VALIDATED", within(JOURNEY));
        assertThat(alice.getByTestId("poll-status")).hasAttribute("data-phase", "stopped");
        assertThat(alice.getByTestId("mr-link")).hasAttribute("href", mergeRequestUrl());
        assertThat(alice.locator("[data-testid=timeline-step][data-step=IN_EFFECT]")).hasAttribute("data-state", "done");
        for (var step : List.of("SUBMITTED", "APPROVAL_SENT", "APPROVED", "MR_READY", "MERGED")) {
            assertThat(alice.locator("[data-testid=timeline-step][data-step=" + step + "]")).hasAttribute("data-state", "done");
        }
        assertThat(alice.getByTestId("events")).containsText("DEPLOYED");
        Chromium.screenshot(alice, "request-in-effect");

        aliceHome.reload();
        // the target's default end (7 days in the sandbox catalog) as its last day and what is left
        assertThat(aliceHome.locator("[data-testid=my-access-grant][data-target=db-prod-readonly]")
                .getByTestId("my-access-until")).hasText(java.util.regex.Pattern.compile("^until .+ \\(expires in [67] days\\)$"));
        assertThat(pending).hasCount(0);
        Chromium.screenshot(aliceHome, "home-my-access");

        var mergeRequest = alice.waitForPopup(() -> alice.getByTestId("mr-link").click());
        assertThat(mergeRequest.getByTestId("mr-state")).hasText("merged");
        assertThat(mergeRequest.getByTestId("mr-approvals")).hasAttribute("data-count", "2");
        assertThat(mergeRequest.getByTestId("mr-pipeline")).hasAttribute("data-status", "success");
        assertThat(mergeRequest.locator("[data-testid=mr-diff][data-path='grants/db-prod-readonly.txt']"))
                .containsText("op=" + operationId);
        Chromium.screenshot(mergeRequest, "merge-request");
    }

    /**
     * b. The answer to the first submission is lost (the server accepted it; the browser saw the
     * connection drop), the person submits again: the same operationId is sent, the server answers
     * DUPLICATE_SUBMIT, and the form stays locked with a link to the original instead of a new request.
     */
    @Test
    @Order(2)
    void aRetriedSubmissionWhoseFirstAnswerWasLostKeepsTheFormLocked() {
        var page = newPage("alice", false);
        var posted = new CopyOnWriteArrayList<String>();
        var firstAnswer = new AtomicReference<String>();
        var firstStatus = new AtomicInteger();
        page.route("**/api/requests", route -> {
            if (!route.request().method().equals("POST")) {
                route.resume();
                return;
            }
            posted.add(route.request().postData());
            if (posted.size() == 1) {
                var response = route.fetch();
                firstStatus.set(response.status());
                firstAnswer.set(response.text());
                route.abort("connectionreset");
            } else {
                route.resume();
            }
        });
        page.navigate(base() + "/");
        page.getByTestId("open-request-form").click();
        var operationId = page.getByTestId("operation-id").textContent().trim();
        page.getByTestId("field-target").selectOption("dashboards-viewer");
        page.getByTestId("field-subject").fill("svc-e2e-dup");
        page.getByTestId("field-reason").fill("Dashboards for the service account");

        page.getByTestId("submit-request").click();
        assertThat(page.getByTestId("submit-error")).hasAttribute("data-code", "NETWORK_ERROR");
        Assertions.assertThat(firstStatus.get()).as("the server accepted the first submission").isEqualTo(202);
        Assertions.assertThat(firstAnswer.get()).contains("\"ACCEPTED\"");
        assertThat(page.getByTestId("submit-request")).hasText("Submit again");

        page.getByTestId("submit-request").click();
        assertThat(page.getByTestId("duplicate-notice")).containsText("Already submitted");
        assertThat(page.getByTestId("duplicate-link")).hasAttribute("href", "/requests/" + operationId);
        assertThat(page.getByTestId("submit-request")).isDisabled();
        assertThat(page.getByTestId("field-reason")).isDisabled();
        assertThat(page.getByTestId("operation-id")).hasText(operationId);
        Assertions.assertThat(page.url()).isEqualTo(base() + "/");
        Assertions.assertThat(posted).hasSize(2)
                .allSatisfy(body -> Assertions.assertThat(AppClient.JSON.readTree(body).get("operationId").asString())
                        .isEqualTo(operationId));

        var mine = api("alice").get("/api/requests?page=0&size=100").data().path("items");
        Assertions.assertThat(mine.valueStream().filter(r -> r.path("subjectId").asString().equals("svc-e2e-dup")).toList())
                .as("exactly one request exists for it").hasSize(1)
                .allSatisfy(r -> Assertions.assertThat(r.path("operationId").asString()).isEqualTo(operationId));

        page.getByTestId("duplicate-link").click();
        assertThat(page.getByTestId("request-page")).hasAttribute("data-operation-id", operationId);
    }

    /**
     * c. GitLab fails every call, so a new request stops at a failure state; the fault is cleared; the
     * operator (otto) finds it among the stuck requests, sees both state layers and the history,
     * re-triggers the step from the console, and the request goes on to VALIDATED; the audit shows the
     * re-trigger by otto.
     */
    @Test
    @Order(3)
    void theOperatorReTriggersAStuckRequestFromTheConsole() {
        var otto = api("otto");
        var operationId = UUID.randomUUID().toString();
        String failedStatus;
        Assertions.assertThat(otto.put("/sandbox/faults/gitlab", Map.of("errorRate", 1.0)).status()).isEqualTo(200);
        try {
            var submitted = api("alice").post("/api/requests", Map.of("operationId", operationId,
                    "targetKey", "db-prod-readonly", "subjectId", "svc-e2e-stuck", "reason", "Reporting job"));
            Assertions.assertThat(submitted.code()).isEqualTo("ACCEPTED");
            failedStatus = api("alice").await("/api/requests/" + operationId,
                    a -> FAILED.contains(a.data().path("status").asString("")), JOURNEY).data().path("status").asString();
        } finally {
            Assertions.assertThat(otto.put("/sandbox/faults/gitlab", Map.of("errorRate", 0.0)).status()).isEqualTo(200);
        }

        var page = newPage("otto", false);
        page.navigate(base() + "/console/stuck");
        page.getByLabel("Unchanged for at least (seconds)").fill("0");
        page.getByLabel("Status", new Page.GetByLabelOptions().setExact(true)).selectOption(failedStatus);
        page.getByTestId("ops-find").click();
        var row = page.locator("[data-testid=ops-result][data-operation-id='" + operationId + "']");
        assertThat(row).containsText("svc-e2e-stuck");
        row.getByRole(AriaRole.LINK).click();

        assertThat(page.getByTestId("ops-operation-page")).hasAttribute("data-operation-id", operationId);
        assertThat(page.getByTestId("ops-external-state")).hasText(failedStatus);
        assertThat(page.getByTestId("ops-binding")).hasAttribute("data-status", failedStatus);
        assertThat(page.getByTestId("history-entry").first()).isVisible();
        assertThat(page.getByTestId("ops-retrigger")).isEnabled();
        page.getByTestId("ops-retrigger").click();
        assertThat(page.locator("[data-testid=ops-action-result] p")).hasAttribute("data-code", "RETRIGGERED");

        approve(operationId);
        var reload = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reload").setExact(true));
        eventually(JOURNEY, "the operation page shows VALIDATED", () -> {
            reload.click();
            page.waitForTimeout(300);
            return "VALIDATED".equals(page.getByTestId("ops-external-state").textContent());
        });
        assertThat(page.getByTestId("request-status")).hasAttribute("data-status", "VALIDATED");
        assertThat(page.getByTestId("mr-link")).hasAttribute("href", mergeRequestUrl());
        assertThat(page.getByTestId("audit-entry").filter(new Locator.FilterOptions().setHasText("RETRIGGER")).first())
                .containsText("otto");
        Chromium.screenshot(page, "ops-operation-detail");
    }

    /**
     * The batch console: an approved request of a batchable target waits for a round; the operator starts
     * one, and the batch lists its members as requests (a link to each operation and its status). Also
     * the resolved configuration page.
     */
    @Test
    @Order(4)
    void theOperatorStartsABatchRoundAndSeesItsMembersAsRequests() {
        var operationId = UUID.randomUUID().toString();
        var submitted = api("bob").post("/api/requests", Map.of("operationId", operationId,
                "targetKey", "vpn-staging", "reason", "Staging tests"));
        Assertions.assertThat(submitted.code()).isEqualTo("ACCEPTED");
        approve(operationId);
        api("bob").await("/api/requests/" + operationId,
                a -> a.data().path("status").asString("").equals("BATCH_WAITING"), JOURNEY);

        var page = newPage("otto", false);
        page.navigate(base() + "/console/batches");
        assertThat(page.getByTestId("ops-batches-page")).isVisible();
        page.getByTestId("ops-start-round").click();
        assertThat(page.locator("[data-testid=batch-action-result] p")).hasAttribute("data-code", "CLAIMED");
        assertThat(page.getByTestId("batch-action-result")).containsText("took 1 request(s)");
        var member = page.locator("[data-testid=batch] [data-testid=batch-member][data-operation-id='" + operationId + "']");
        assertThat(member).isVisible();
        assertThat(member.getByRole(AriaRole.LINK)).hasAttribute("href", "/console/operations/" + operationId);
        assertThat(member.locator("[data-status]")).hasAttribute("data-status", Pattern.compile("BATCH_WAITING|BATCHED|MERGED|VALIDATED"));
        assertThat(member).containsText("vpn-staging");
        Assertions.assertThat(page.getByTestId("ops-batches-page").textContent()).doesNotContain("[object Object]");
        Chromium.screenshot(page, "batches");

        member.getByRole(AriaRole.LINK).click();
        assertThat(page.getByTestId("ops-operation-page")).hasAttribute("data-operation-id", operationId);
        assertThat(page.getByTestId("batch-id")).not().isEmpty();

        page.navigate(base() + "/console/config");
        var rateLimit = page.locator("[data-testid=config-entry][data-key=APPLY_RATE_LIMIT]");
        assertThat(rateLimit).containsText("100");
        assertThat(rateLimit.getByTestId("config-source")).hasText("file");
        assertThat(page.locator("[data-testid=config-entry][data-key=ACCESS_MODE]")).containsText("OPEN");
        Chromium.screenshot(page, "config");
    }

    /**
     * e. Errors as people read them: the operations pages answer alice 403 "Access denied" (code and
     * traceId shown, the traceId the one the server sent); a session that ends shows 401 as such; over
     * the submission quota (APPLY_RATE_LIMIT=1 in the dynamic configuration file) the form says when to
     * retry and keeps the button disabled until then.
     */
    @Test
    @Order(5)
    void errorsShowMessageCodeAndTraceIdAccessDeniedAndWhenToRetry() throws IOException {
        var alice = newPage("alice", false);
        alice.navigate(base() + "/");
        assertThat(alice.getByTestId("current-user")).hasText("alice");
        assertThat(alice.getByTestId("nav-ops")).hasCount(0);
        var aliceApiPageLoad = alice.navigate(base() + "/ops/config");
        Assertions.assertThat(aliceApiPageLoad.status()).isEqualTo(403);
        Assertions.assertThat(aliceApiPageLoad.headerValue("content-type")).startsWith("application/json");
        var denied = alice.waitForResponse(r -> r.url().endsWith("/ops/config"),
                () -> alice.navigate(base() + "/console/config"));
        Assertions.assertThat(denied.status()).isEqualTo(403);
        assertThat(alice.getByTestId("error")).hasAttribute("data-code", "ACCESS_DENIED");
        assertThat(alice.getByTestId("error-message")).hasText("Access denied");
        assertThat(alice.getByTestId("error-trace-id")).hasText(denied.headerValue("x-trace-id"));
        Chromium.screenshot(alice, "access-denied");
        alice.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Batches")).click();
        assertThat(alice.getByTestId("error")).hasAttribute("data-code", "ACCESS_DENIED");
        alice.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Stuck requests")).click();
        alice.getByTestId("ops-find").click();
        assertThat(alice.getByTestId("error")).hasAttribute("data-code", "ACCESS_DENIED");

        var otto = newPage("otto", false);
        // Why the console is under /console: a page load under the server's /ops/ API never gets the app.
        var apiPageLoad = otto.navigate(base() + "/ops/config");
        Assertions.assertThat(apiPageLoad.headerValue("content-type")).startsWith("application/json");
        Assertions.assertThat(apiPageLoad.status()).as("the API's own answer, the configuration as JSON").isEqualTo(200);
        assertThat(otto.locator("#root")).hasCount(0);
        otto.navigate(base() + "/console/config");
        assertThat(otto.getByTestId("config-entry").first()).isVisible();
        otto.context().clearCookies();
        otto.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reload").setExact(true)).click();
        assertThat(otto.getByTestId("error")).hasAttribute("data-code", "UNAUTHENTICATED");
        assertThat(otto.getByTestId("error-message")).not().isEmpty();
        assertThat(otto.getByTestId("error-trace-id")).hasText(Pattern.compile("\\S+"));

        setRateLimit("1");
        try {
            // One attempt in the window (bob may have used his one already: then this is refused too).
            var first = api("bob").post("/api/requests", Map.of("operationId", UUID.randomUUID().toString(),
                    "targetKey", "db-prod-readonly", "subjectId", "svc-e2e-rate", "reason", "First"));
            Assertions.assertThat(first.code()).isIn("ACCEPTED", "RATE_LIMITED");

            var bob = newPage("bob", false);
            bob.navigate(base() + "/");
            bob.getByTestId("open-request-form").click();
            bob.getByTestId("field-target").selectOption("vpn-staging");
            bob.getByTestId("field-reason").fill("Second, over the quota");
            bob.getByTestId("submit-request").click();
            assertThat(bob.getByTestId("submit-error")).hasAttribute("data-code", "RATE_LIMITED");
            assertThat(bob.getByTestId("submit-error").getByTestId("error-trace-id")).hasText(Pattern.compile("\\S+"));
            assertThat(bob.getByTestId("retry-after")).hasAttribute("data-seconds", Pattern.compile("[1-9]\\d*"));
            assertThat(bob.getByTestId("retry-after")).containsText("You can try again in");
            assertThat(bob.getByTestId("submit-request")).isDisabled();
            Chromium.screenshot(bob, "rate-limited");
        } finally {
            setRateLimit("100");
        }
    }

    /**
     * f. At phone width (390 x 844) the main pages fit without horizontal scrolling, and a request can
     * be submitted with the keyboard alone (Tab, typing, Enter); the request page's heading takes the focus.
     */
    @Test
    @Order(6)
    void atPhoneWidthPagesFitAndTheSubmitFlowWorksWithTheKeyboardAlone() {
        var page = newPage("alice", true);
        page.navigate(base() + "/");
        assertThat(page.getByTestId("catalog-target").first()).isVisible();
        assertNoHorizontalScroll(page, "/");
        Chromium.screenshot(page, "phone-home");

        tabTo(page, "open-request-form");
        page.keyboard().press("Enter");
        assertThat(page.getByTestId("field-target")).isFocused();
        page.keyboard().type("VPN");
        assertThat(page.getByTestId("field-target")).hasValue("vpn-staging");
        tabTo(page, "field-subject");
        page.keyboard().type("svc-e2e-keys");
        tabTo(page, "field-reason");
        page.keyboard().type("Typed with the keyboard");
        assertNoHorizontalScroll(page, "/ (form open)");
        tabTo(page, "submit-request");
        page.keyboard().press("Enter");
        page.waitForURL(Pattern.compile(".*/requests/[0-9a-f-]{36}$"));
        assertThat(page.getByTestId("request-page")).isVisible();
        assertThat(page.locator("h1")).isFocused();
        assertThat(page.getByTestId("request-status")).isVisible();
        assertNoHorizontalScroll(page, "/requests/<id>");
        Chromium.screenshot(page, "phone-request");

        for (var path : List.of("/records", "/bindings")) {
            page.navigate(base() + path);
            assertThat(page.getByTestId(path.substring(1) + "-page")).isVisible();
            assertThat(page.getByTestId("loading")).hasCount(0);
            assertNoHorizontalScroll(page, path);
        }
        var operator = newPage("otto", true);
        for (var path : List.of("/console", "/console/stuck", "/console/batches", "/console/config", "/inbox")) {
            operator.navigate(base() + path);
            assertThat(operator.locator("h1")).isVisible();
            assertThat(operator.getByTestId("loading")).hasCount(0);
            assertNoHorizontalScroll(operator, path);
        }
    }

    /**
     * d. A release while a page is open: build A's page is loaded, the server switches to build B (A's
     * chunks are gone), a navigation needs A's lazily loaded OpsApp chunk: 404 JSON, exactly one automatic
     * reload with {@code _r} into build B, which works. The server switches again (C); a second chunk
     * failure within 30 s shows the "Refresh page" button instead of reloading (no loop), and the button
     * loads the current build.
     */
    @Test
    @Order(7)
    void anOpenPageOfAnOldBuildReloadsOnceIntoTheNewOneAndThenOffersRefreshInsteadOfLooping() {
        try (var releases = SpaReleases.open()) {
            releases.deploy("A");
            var page = newPage("otto", false);
            var documents = new CopyOnWriteArrayList<String>();
            page.onRequest(request -> {
                if (request.isNavigationRequest() && request.frame() == page.mainFrame()) {
                    documents.add(request.url());
                }
            });
            page.navigate(base() + "/");
            assertThat(page.getByTestId("current-user")).hasText("otto");
            Assertions.assertThat(build(page)).isEqualTo("A");

            releases.deploy("B");
            var missing = page.waitForResponse(r -> r.url().endsWith("/" + releases.assetOf("A", "OpsApp")),
                    () -> page.getByTestId("nav-ops").click());
            Assertions.assertThat(missing.status()).isEqualTo(404);
            Assertions.assertThat(missing.headerValue("content-type")).startsWith("application/json");
            Assertions.assertThat(missing.headerValue("cache-control")).contains("no-store");

            assertThat(page.getByTestId("ops-overview-page")).isVisible();
            Assertions.assertThat(build(page)).isEqualTo("B");
            Assertions.assertThat(documents).hasSize(2);
            Assertions.assertThat(documents.get(1)).matches(Pattern.quote(base()) + "/console\\?_r=\\d+");
            Assertions.assertThat(page.url()).as("_r is removed after the reload").isEqualTo(base() + "/console");

            releases.deploy("C");
            page.getByTestId("nav-inbox").click();
            assertThat(page.getByTestId("refresh-banner")).isVisible();
            assertThat(page.getByTestId("refresh-page")).isVisible();
            page.waitForTimeout(2_000);
            Assertions.assertThat(documents).as("no second automatic reload").hasSize(2);
            Assertions.assertThat(build(page)).isEqualTo("B");
            Chromium.screenshot(page, "release-refresh-banner");

            page.getByTestId("refresh-page").click();
            assertThat(page.getByTestId("inbox-page")).isVisible();
            Assertions.assertThat(build(page)).isEqualTo("C");
            Assertions.assertThat(documents).hasSize(3);
            Assertions.assertThat(documents.get(2)).matches(Pattern.quote(base()) + "/inbox\\?_r=\\d+");
        }
        var afterwards = newPage("otto", false);
        afterwards.navigate(base() + "/");
        Assertions.assertThat(build(afterwards)).as("the packaged build is served again").isNull();
    }

    /**
     * The release smoke script against this running app: every check passes; against a base URL that does
     * not serve the app, it fails with one line per failed check and a non-zero exit.
     */
    @Test
    @Order(8)
    void theStaticAssetSmokeScriptPassesAgainstTheRunningApp() throws Exception {
        var script = Path.of("").toAbsolutePath().getParent().resolve("scripts").resolve("smoke-static.sh");
        Assertions.assertThat(script).as("the release smoke script").isRegularFile();
        Assertions.assertThat(onPath("bash") && onPath("curl")).as("the smoke script needs bash and curl").isTrue();

        var passing = run(script, base());
        Assertions.assertThat(passing.output()).contains("all ").contains(" checks passed").doesNotContain("FAIL");
        Assertions.assertThat(passing.exitCode()).as(passing.output()).isZero();

        var failing = run(script, base() + "/sim/gitlab");
        Assertions.assertThat(failing.exitCode()).as(failing.output()).isEqualTo(1);
        Assertions.assertThat(failing.output()).contains("FAIL  index.html (GET /): expected HTTP 200, got 404")
                .contains("checks FAILED");
    }

    /**
     * The approver rejects in the approver inbox; the requester's page follows the request to REJECTED
     * by itself (the approval milestone "stopped here", merging will not happen) and offers to apply
     * again; "Apply again" opens a new form pre-filled with target, subject and reason under a new
     * operationId, and submitting it is accepted as a new request, which replaces the rejected one.
     */
    @Test
    @Order(9)
    void theApproverRejectsInTheInboxAndTheRequesterAppliesAgainAsANewRequest() {
        var rejectedId = UUID.randomUUID().toString();
        var reason = "Incident review access";
        var submitted = api("alice").post("/api/requests", Map.of("operationId", rejectedId,
                "targetKey", "db-prod-readonly", "subjectId", "svc-e2e-reject", "reason", reason));
        Assertions.assertThat(submitted.code()).isEqualTo("ACCEPTED");

        var alice = newPage("alice", false);
        alice.navigate(base() + "/requests/" + rejectedId);
        assertThat(alice.getByTestId("request-status")).hasAttribute("data-status", "APPROVAL_SENT", within(JOURNEY));

        var amy = newPage("amy", false);
        amy.navigate(base() + "/inbox");
        var item = amy.locator("[data-testid=inbox-item][data-operation-id='" + rejectedId + "']");
        assertThat(item).containsText("svc-e2e-reject");
        assertThat(item).containsText(reason);
        var ticket = item.getAttribute("data-ticket");
        item.getByTestId("reject").click();
        assertThat(amy.getByTestId("inbox-status")).containsText("Rejected ticket " + ticket);
        assertThat(amy.getByTestId("error")).hasCount(0);
        assertThat(item).hasCount(0);
        Chromium.screenshot(amy, "inbox-rejected");

        assertThat(alice.getByTestId("request-status")).hasAttribute("data-status", "REJECTED", within(JOURNEY));
        assertThat(alice.getByTestId("poll-status")).hasAttribute("data-phase", "stopped");
        assertThat(alice.getByTestId("hint")).hasAttribute("data-hint", "CAN_REAPPLY");
        var approval = alice.locator("[data-testid=timeline-step][data-step=APPROVED]");
        assertThat(approval).hasAttribute("data-state", "failed");
        assertThat(approval).containsText("The approver rejected the request.");
        // Whether its merge request was created before the approval depends on the step order; merging never happens.
        for (var step : List.of("MERGED", "IN_EFFECT")) {
            assertThat(alice.locator("[data-testid=timeline-step][data-step=" + step + "]")).hasAttribute("data-state", "skipped");
        }
        assertThat(alice.getByTestId("apply-again")).isVisible();
        Chromium.screenshot(alice, "request-rejected");

        alice.getByTestId("apply-again").click();
        alice.waitForURL(base() + "/");
        assertThat(alice.getByTestId("request-form")).isVisible();
        assertThat(alice.getByTestId("field-target")).hasValue("db-prod-readonly");
        assertThat(alice.getByTestId("field-subject")).hasValue("svc-e2e-reject");
        assertThat(alice.getByTestId("field-reason")).hasValue(reason);
        assertThat(alice.getByTestId("operation-id")).hasText(Pattern.compile("^[0-9a-f-]{36}$"));
        var newId = alice.getByTestId("operation-id").textContent().trim();
        Assertions.assertThat(newId).as("a new request gets a new operationId").isNotEqualTo(rejectedId);
        Chromium.screenshot(alice, "apply-again-form");

        var answer = alice.waitForResponse(
                r -> r.url().equals(base() + "/api/requests") && r.request().method().equals("POST"),
                () -> alice.getByTestId("submit-request").click());
        Assertions.assertThat(answer.status()).isEqualTo(202);
        var body = AppClient.JSON.readTree(answer.text());
        Assertions.assertThat(body.path("code").asString()).isEqualTo("ACCEPTED");
        Assertions.assertThat(body.path("data").path("operationId").asString()).isEqualTo(newId);
        alice.waitForURL(base() + "/requests/" + newId);
        assertThat(alice.getByTestId("request-page")).hasAttribute("data-operation-id", newId);
        assertThat(alice.getByTestId("request-status")).hasAttribute("data-status", "APPROVAL_SENT", within(JOURNEY));

        var replaced = api("alice").get("/api/requests/" + rejectedId).data();
        Assertions.assertThat(replaced.path("status").isNull()).as("the re-application replaced it: " + replaced).isTrue();
        Assertions.assertThat(replaced.path("hint").path("code").asString()).isEqualTo("CAN_REAPPLY");
        api("amy").await("/sim/approval/inbox", a -> a.data().valueStream()
                .anyMatch(i -> i.path("operationId").asString("").equals(newId)), JOURNEY);
    }

    /**
     * The deploy report of a merged request is lost (the deploy simulator drops the next callback); a later
     * merge request of the same project is reported deployed. The operator finds the request among the
     * stuck MERGED ones, runs reconciliation from the console and sees its answer, exactly the counts the
     * server answered the browser (one advanced at least); the request is in effect (VALIDATED) with the
     * note that reconciliation inferred it, and is no longer among the stuck merged requests.
     */
    @Test
    @Order(10)
    void theOperatorRunsReconciliationFromTheConsoleAndItAdvancesARequestWhoseDeployReportWasLost() {
        var otto = api("otto");
        var lostBefore = otto.get("/sandbox/faults/deploy/controls").data().path("lostCallbacks").asInt();
        var lostId = UUID.randomUUID().toString();
        Assertions.assertThat(otto.put("/sandbox/faults/deploy/controls", Map.of("loseNext", 1)).status()).isEqualTo(200);
        try {
            var submitted = api("alice").post("/api/requests", Map.of("operationId", lostId,
                    "targetKey", "db-prod-readonly", "subjectId", "svc-e2e-lost", "reason", "Reporting"));
            Assertions.assertThat(submitted.code()).isEqualTo("ACCEPTED");
            approve(lostId);
            api("alice").await("/api/requests/" + lostId, a -> a.data().path("status").asString("").equals("MERGED"), JOURNEY);
            otto.await("/sandbox/faults/deploy/controls",
                    a -> a.data().path("lostCallbacks").asInt() == lostBefore + 1, Duration.ofSeconds(10));
        } finally {
            Assertions.assertThat(otto.put("/sandbox/faults/deploy/controls", Map.of("loseNext", 0)).status()).isEqualTo(200);
        }

        // A later merge request of the same project whose deploy report arrives: reconciliation's watermark.
        var deliveredId = UUID.randomUUID().toString();
        Assertions.assertThat(api("alice").post("/api/requests", Map.of("operationId", deliveredId,
                "targetKey", "db-prod-readonly", "subjectId", "svc-e2e-delivered", "reason", "Reporting")).code())
                .isEqualTo("ACCEPTED");
        approve(deliveredId);
        api("alice").await("/api/requests/" + deliveredId,
                a -> a.data().path("status").asString("").equals("VALIDATED"), JOURNEY);
        // Unchanged for longer than reconciliation's min-age (2 s), by the database clock.
        otto.await("/ops/operations?status=MERGED&stuckForSeconds=3", a -> a.data().valueStream()
                .anyMatch(r -> r.path("operationId").asString("").equals(lostId)), JOURNEY);
        Assertions.assertThat(api("alice").get("/api/requests/" + lostId).data().path("status").asString())
                .as("its deploy report never came").isEqualTo("MERGED");

        var page = newPage("otto", false);
        page.navigate(base() + "/console/stuck");
        page.getByLabel("Unchanged for at least (seconds)").fill("3");
        page.getByLabel("Status", new Page.GetByLabelOptions().setExact(true)).selectOption("MERGED");
        page.getByTestId("ops-find").click();
        var row = page.locator("[data-testid=ops-result][data-operation-id='" + lostId + "']");
        assertThat(row).containsText("svc-e2e-lost");

        var answer = page.waitForResponse(r -> r.url().startsWith(base() + "/ops/reconciliation-runs"),
                () -> page.getByTestId("ops-reconcile").click());
        Assertions.assertThat(answer.status()).isEqualTo(200);
        var body = AppClient.JSON.readTree(answer.text());
        Assertions.assertThat(body.path("code").asString()).isEqualTo("RECONCILED");
        var examined = body.path("data").path("examined").asInt();
        var advanced = body.path("data").path("advanced").asInt();
        Assertions.assertThat(advanced).as("the request whose report was lost: " + body).isGreaterThanOrEqualTo(1);
        Assertions.assertThat(examined).isGreaterThanOrEqualTo(advanced);
        var result = page.locator("[data-testid=reconcile-result] p");
        assertThat(result).hasAttribute("data-code", "RECONCILED");
        assertThat(result).hasAttribute("data-tone", "success");
        assertThat(result).containsText("Examined " + examined + ", advanced " + advanced + ".");
        assertThat(page.getByTestId("ops-reconcile")).isEnabled();
        Chromium.screenshot(page, "ops-reconciliation");

        var reconciled = api("alice").get("/api/requests/" + lostId).data();
        Assertions.assertThat(reconciled.path("status").asString()).as(reconciled.toString()).isEqualTo("VALIDATED");
        var search = page.waitForResponse(r -> r.url().startsWith(base() + "/ops/operations?"),
                () -> page.getByTestId("ops-find").click());
        Assertions.assertThat(search.status()).isEqualTo(200);
        assertThat(page.getByTestId("loading")).hasCount(0);
        assertThat(row).hasCount(0);

        var alice = newPage("alice", false);
        alice.navigate(base() + "/requests/" + lostId);
        assertThat(alice.getByTestId("request-status")).hasAttribute("data-status", "VALIDATED");
        assertThat(alice.getByTestId("request-detail")).containsText("inferred by reconciliation");
        assertThat(alice.locator("[data-testid=timeline-step][data-step=IN_EFFECT]")).hasAttribute("data-state", "done");
    }

    /**
     * A batch whose merge request's pipeline never finishes times out and is BLOCKED (it keeps its
     * partition's slot); the operator settles it from the batch console: its merge request is closed,
     * the answer says the outcome (FAILED), the batch's status, the failure kind (TRANSIENT: the pipeline
     * never answered) and what became of the members (all wait for a later round), the batch shows
     * FAILED without a settle button, and its member waits for a round again.
     */
    @Test
    @Order(11)
    void theOperatorSettlesABlockedBatchFromTheConsole() {
        var memberId = UUID.randomUUID().toString();
        Assertions.assertThat(api("bob").post("/api/requests", Map.of("operationId", memberId,
                "targetKey", "dashboards-viewer", "subjectId", "svc-e2e-settle", "reason", "Dashboards")).code())
                .isEqualTo("ACCEPTED");
        approve(memberId);
        api("bob").await("/api/requests/" + memberId,
                a -> a.data().path("status").asString("").equals("BATCH_WAITING"), JOURNEY);

        var otto = api("otto");
        var timings = "/sim/gitlab/_control/timings";
        var pipelineMillis = otto.get(timings).json().path("pipeline_millis").asLong();
        // Pipelines created from now on run for 10 minutes: the batch's times out (8 s) and it is BLOCKED.
        Assertions.assertThat(otto.put(timings, Map.of("pipeline_millis", 600_000)).status()).isEqualTo(200);
        try {
            var page = newPage("otto", false);
            page.navigate(base() + "/console/batches");
            assertThat(page.getByTestId("ops-batches-page")).isVisible();
            var round = page.waitForResponse(r -> r.url().startsWith(base() + "/ops/batch-rounds"),
                    () -> page.getByTestId("ops-start-round").click());
            var roundBody = AppClient.JSON.readTree(round.text());
            Assertions.assertThat(roundBody.path("code").asString()).as(roundBody.toString()).isEqualTo("CLAIMED");
            Assertions.assertThat(roundBody.path("data").path("members").valueStream().map(m -> m.asString()).toList())
                    .containsExactly(memberId);
            var batchId = roundBody.path("data").path("batchId").asString();
            assertThat(page.locator("[data-testid=batch-action-result] p")).hasAttribute("data-code", "CLAIMED");

            var blocked = otto.await("/ops/batches", a -> batchOf(a, batchId).path("status").asString("").equals("BLOCKED"),
                    JOURNEY);
            var mergeRequest = batchOf(blocked, batchId).path("mergeRequest");
            Assertions.assertThat(mergeRequest.path("iid").isNumber()).as(blocked.json().toString()).isTrue();
            page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Reload").setExact(true)).click();
            var card = page.locator("[data-testid=batch][data-batch-id='" + batchId + "']");
            assertThat(card).hasAttribute("data-status", "BLOCKED");
            assertThat(card.locator("[data-testid=batch-member][data-operation-id='" + memberId + "']")).isVisible();
            Chromium.screenshot(page, "batch-blocked");

            var settled = page.waitForResponse(r -> r.url().equals(base() + "/ops/batches/" + batchId + "/settle"),
                    () -> card.getByTestId("ops-settle").click());
            Assertions.assertThat(settled.status()).isEqualTo(200);
            var settledBody = AppClient.JSON.readTree(settled.text());
            Assertions.assertThat(settledBody.path("code").asString()).as(settledBody.toString()).isEqualTo("SETTLED");
            var settlement = settledBody.path("data");
            Assertions.assertThat(settlement.path("outcome").asString()).isEqualTo("FAILED");
            Assertions.assertThat(settlement.path("batchStatus").asString()).isEqualTo("FAILED");
            Assertions.assertThat(settlement.path("failureKind").asString()).isEqualTo("TRANSIENT");
            Assertions.assertThat(settlement.path("plan").asString()).isEqualTo("REQUEUE_ALL");

            var result = page.locator("[data-testid=batch-action-result] p");
            assertThat(result).hasAttribute("data-code", "SETTLED");
            assertThat(result).hasAttribute("data-tone", "info");
            assertThat(result).containsText("Outcome: FAILED. Batch now FAILED. Failure: TRANSIENT. "
                    + "Members: all wait for a later round (REQUEUE_ALL).");
            assertThat(card).hasAttribute("data-status", "FAILED");
            assertThat(card.getByTestId("ops-settle")).hasCount(0);
            Chromium.screenshot(page, "batch-settled");

            var closed = otto.get("/sim/gitlab/_control/projects/platform%2Faccess-config/merge_requests/"
                    + mergeRequest.path("iid").asLong());
            Assertions.assertThat(closed.json().path("state").asString()).as(closed.json().toString()).isEqualTo("closed");
            api("bob").await("/api/requests/" + memberId,
                    a -> a.data().path("status").asString("").equals("BATCH_WAITING"), Duration.ofSeconds(10));
        } finally {
            Assertions.assertThat(otto.put(timings, Map.of("pipeline_millis", pipelineMillis)).status()).isEqualTo(200);
        }
    }

    /**
     * The console opens on the overview: for a seeded set (two requests waiting for the approver, one taken to
     * in effect) the states chart, the longest-wait row and the 24-hour totals show the server's figures grown
     * by exactly the seeded requests; the waiting row's number leads to the stuck list of that state, which lists
     * both seeded requests.
     */
    @Test
    @Order(12)
    void theOverviewShowsTheSeededRequestsAndItsNumbersLeadToTheirLists() {
        var otto = api("otto");
        var before = otto.get("/ops/overview").data();
        var waitingIds = List.of(UUID.randomUUID().toString(), UUID.randomUUID().toString());
        var doneId = UUID.randomUUID().toString();
        for (var id : List.of(waitingIds.get(0), waitingIds.get(1), doneId)) {
            Assertions.assertThat(api("alice").post("/api/requests", Map.of("operationId", id, "targetKey", "db-prod-readonly",
                    "subjectId", "svc-e2e-overview-" + id.substring(0, 6), "reason", "Overview")).code()).isEqualTo("ACCEPTED");
        }
        approve(doneId);
        api("alice").await("/api/requests/" + doneId, a -> a.data().path("status").asString("").equals("VALIDATED"), JOURNEY);
        for (var id : waitingIds) {
            api("alice").await("/api/requests/" + id, a -> a.data().path("status").asString("").equals("APPROVAL_SENT"), JOURNEY);
        }

        var page = newPage("otto", false);
        page.navigate(base() + "/console");
        assertThat(page.getByTestId("ops-overview-page")).isVisible();
        assertThat(page.locator("[data-testid=overview-states-chart-row][data-key=APPROVAL_SENT]"))
                .hasAttribute("data-value", String.valueOf(stateCount(before, "APPROVAL_SENT") + 2));
        assertThat(page.locator("[data-testid=overview-states-chart-row][data-key=VALIDATED]"))
                .hasAttribute("data-value", String.valueOf(stateCount(before, "VALIDATED") + 1));
        var completedBefore = before.path("hours").valueStream().mapToLong(h -> h.path("completed").asLong()).sum();
        assertThat(page.getByTestId("overview-hours-chart-totals")).containsText("In 24 hours: " + (completedBefore + 1) + " completed");
        var waitingRow = page.locator("[data-testid=overview-waiting-row][data-status=APPROVAL_SENT]");
        assertThat(waitingRow).containsText("the approver");
        assertThat(page.locator("[data-testid=overview-dependency]")).hasCount(3);
        assertThat(page.locator("[data-testid=overview-slot][data-partition=global]")).isVisible();
        Chromium.screenshot(page, "ops-overview");

        waitingRow.getByRole(AriaRole.LINK).first().click();
        assertThat(page).hasURL(base() + "/console/stuck?status=APPROVAL_SENT&stuckFor=0");
        for (var id : waitingIds) {
            assertThat(page.locator("[data-testid=ops-result][data-operation-id='" + id + "']")).isVisible();
        }
        page.reload();
        assertThat(page.locator("[data-testid=ops-result][data-operation-id='" + waitingIds.get(0) + "']")).isVisible();

        var phone = newPage("otto", true);
        phone.navigate(base() + "/console");
        assertThat(phone.getByTestId("overview-states")).isVisible();
        assertNoHorizontalScroll(phone, "/console (overview)");
        Chromium.screenshot(phone, "phone-ops-overview");
    }

    /**
     * My records keep page and filters in the URL: filters chosen in the page are written to the URL, a reload
     * shows the same filtered list, back returns to the list before, a shared link opens filtered; the stuck list
     * filters by target the same way.
     */
    @Test
    @Order(13)
    void aListsUrlRestoresItsFiltersAfterReloadAndBack() {
        var ids = new ArrayList<String>();
        for (var target : List.of("dashboards-viewer", "dashboards-viewer", "db-prod-readonly")) {
            var id = UUID.randomUUID().toString();
            ids.add(id);
            Assertions.assertThat(api("alice").post("/api/requests", Map.of("operationId", id, "targetKey", target,
                    "subjectId", "svc-e2e-list-" + id.substring(0, 6), "reason", "List filters")).code()).isEqualTo("ACCEPTED");
        }
        for (var id : ids) {
            api("alice").await("/api/requests/" + id, a -> a.data().path("status").asString("").equals("APPROVAL_SENT"), JOURNEY);
        }

        var page = newPage("alice", false);
        page.navigate(base() + "/records");
        assertThat(page.getByTestId("records-page")).isVisible();
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(2) + "']")).isVisible();
        page.getByTestId("records-target").selectOption("dashboards-viewer");
        assertThat(page).hasURL(base() + "/records?target=dashboards-viewer");
        page.getByTestId("records-status").selectOption("APPROVAL_SENT");
        assertThat(page).hasURL(base() + "/records?target=dashboards-viewer&status=APPROVAL_SENT");
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(2) + "']")).hasCount(0);
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(0) + "']")).isVisible();
        Assertions.assertThat(page.locator("[data-testid=record] td:nth-child(2)").allTextContents())
                .isNotEmpty().allSatisfy(target -> Assertions.assertThat(target).isEqualTo("dashboards-viewer"));

        page.reload();
        assertThat(page.getByTestId("records-target")).hasValue("dashboards-viewer");
        assertThat(page.getByTestId("records-status")).hasValue("APPROVAL_SENT");
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(1) + "']")).isVisible();
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(2) + "']")).hasCount(0);
        Chromium.screenshot(page, "records-filtered");

        page.goBack();
        assertThat(page).hasURL(base() + "/records?target=dashboards-viewer");
        assertThat(page.getByTestId("records-status")).hasValue("");
        assertThat(page.getByTestId("records-target")).hasValue("dashboards-viewer");
        page.goBack();
        assertThat(page).hasURL(base() + "/records");
        assertThat(page.getByTestId("records-target")).hasValue("");
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(2) + "']")).isVisible();
        page.goForward();
        assertThat(page.getByTestId("records-target")).hasValue("dashboards-viewer");
        assertThat(page.locator("[data-testid=record][data-operation-id='" + ids.get(2) + "']")).hasCount(0);

        var shared = newPage("alice", true);
        shared.navigate(base() + "/records?status=APPROVAL_SENT&target=db-prod-readonly");
        assertThat(shared.getByTestId("records-status")).hasValue("APPROVAL_SENT");
        assertThat(shared.locator("[data-testid=record][data-operation-id='" + ids.get(2) + "']")).isVisible();
        assertThat(shared.locator("[data-testid=record][data-operation-id='" + ids.get(0) + "']")).hasCount(0);
        assertNoHorizontalScroll(shared, "/records (filtered)");
        Chromium.screenshot(shared, "phone-records-filtered");

        var otto = newPage("otto", false);
        otto.navigate(base() + "/console/stuck?status=APPROVAL_SENT&stuckFor=0");
        assertThat(otto.locator("[data-testid=ops-result][data-operation-id='" + ids.get(2) + "']")).isVisible();
        otto.getByTestId("ops-target").selectOption("dashboards-viewer");
        otto.getByTestId("ops-find").click();
        assertThat(otto).hasURL(base() + "/console/stuck?status=APPROVAL_SENT&target=dashboards-viewer&stuckFor=0");
        assertThat(otto.locator("[data-testid=ops-result][data-operation-id='" + ids.get(0) + "']")).isVisible();
        assertThat(otto.locator("[data-testid=ops-result][data-operation-id='" + ids.get(2) + "']")).hasCount(0);
        otto.reload();
        assertThat(otto.getByTestId("ops-target")).hasValue("dashboards-viewer");
        assertThat(otto.locator("[data-testid=ops-result][data-operation-id='" + ids.get(1) + "']")).isVisible();
        otto.goBack();
        assertThat(otto).hasURL(base() + "/console/stuck?status=APPROVAL_SENT&stuckFor=0");
        assertThat(otto.getByTestId("ops-target")).hasValue("");
        assertThat(otto.locator("[data-testid=ops-result][data-operation-id='" + ids.get(2) + "']")).isVisible();
    }

    /**
     * axe-core finds no serious or critical violation on any page of the requester (alice), the approver (amy)
     * and the operator (otto), at desktop and at phone width; each is saved as a screenshot of both widths.
     */
    @Test
    @Order(14)
    void axeFindsNoSeriousViolationOnAnyPageAtDesktopAndPhoneWidth() {
        var id = UUID.randomUUID().toString();
        Assertions.assertThat(api("alice").post("/api/requests", Map.of("operationId", id, "targetKey", "db-prod-readonly",
                "subjectId", "svc-e2e-axe", "reason", "Accessibility")).code()).isEqualTo("ACCEPTED");
        api("alice").await("/api/requests/" + id, a -> a.data().path("status").asString("").equals("APPROVAL_SENT"), JOURNEY);

        record Screen(String user, String path, String testId, String name) {}
        var screens = List.of(
                new Screen("alice", "/", "catalog", "home"),
                new Screen("alice", "/records", "records-page", "records"),
                new Screen("alice", "/bindings", "bindings-page", "bindings"),
                new Screen("alice", "/requests/" + id, "request-page", "request"),
                new Screen("alice", "/no-such-page", "not-found", "not-found"),
                new Screen("amy", "/inbox", "inbox-page", "inbox"),
                new Screen("otto", "/console", "ops-overview-page", "ops-overview"),
                new Screen("otto", "/console/stuck?stuckFor=0", "ops-operations-page", "ops-stuck"),
                new Screen("otto", "/console/operations/" + id, "ops-operation-page", "ops-operation"),
                new Screen("otto", "/console/batches", "ops-batches-page", "ops-batches"),
                new Screen("otto", "/console/config", "ops-config-page", "ops-config"));
        for (var phone : List.of(false, true)) {
            var pages = new java.util.HashMap<String, Page>();
            for (var screen : screens) {
                var page = pages.computeIfAbsent(screen.user(), user -> newPage(user, phone));
                page.navigate(base() + screen.path());
                assertThat(page.getByTestId(screen.testId())).isVisible();
                assertThat(page.getByTestId("loading")).hasCount(0);
                var width = phone ? "phone" : "desktop";
                Accessibility.assertNoSeriousViolations(page, screen.path() + " at " + width + " width");
                Chromium.screenshot(page, "a11y-" + screen.name() + "-" + width);
            }
        }

        var signIn = newPage(null, false);
        signIn.navigate(base() + "/");
        assertThat(signIn.getByTestId("sign-in-as-alice")).isVisible();
        Accessibility.assertNoSeriousViolations(signIn, "the sign-in page");
        Chromium.screenshot(signIn, "a11y-sign-in-desktop");
    }

    /**
     * The overview by keyboard alone: from the skip link, Tab reaches the figures' links in reading order, each
     * shows a visible focus ring, and Enter on the waiting row's number opens the matching list.
     */
    @Test
    @Order(15)
    void theOverviewWorksWithTheKeyboardAlone() {
        var page = newPage("otto", false);
        page.navigate(base() + "/console");
        assertThat(page.locator("[data-testid=overview-waiting-row][data-status=APPROVAL_SENT]")).isVisible();
        page.keyboard().press("Tab");
        Assertions.assertThat(page.evaluate("() => document.activeElement.className")).isEqualTo("skip-link");
        page.keyboard().press("Enter");
        Assertions.assertThat(page.evaluate("() => document.activeElement.id || document.activeElement.closest('main')?.id"))
                .as("the skip link moves the focus to the content").isEqualTo("main");

        String inWaitingRow = "() => !!document.activeElement.closest('[data-testid=overview-waiting-row][data-status=APPROVAL_SENT]')"
                + " && document.activeElement.tagName === 'A'";
        var stops = new ArrayList<String>();
        for (int i = 0; i < 80 && !Boolean.TRUE.equals(page.evaluate(inWaitingRow)); i++) {
            page.keyboard().press("Tab");
            stops.add(String.valueOf(page.evaluate("() => document.activeElement.getAttribute('aria-label')"
                    + " || document.activeElement.textContent.trim().slice(0, 30)")));
        }
        Assertions.assertThat(page.evaluate(inWaitingRow)).as("Tab reaches the waiting row's link; stops: %s", stops)
                .isEqualTo(true);
        var ring = String.valueOf(page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                + " return s.outlineStyle + ' ' + s.outlineWidth; }"));
        Assertions.assertThat(ring).as("the focused link shows a focus ring").doesNotStartWith("none").doesNotEndWith(" 0px");
        Chromium.screenshot(page, "ops-overview-keyboard-focus");
        page.keyboard().press("Enter");
        assertThat(page).hasURL(Pattern.compile("^http://localhost:" + port + "/console/stuck\\?status=APPROVAL_SENT.*"));
        assertThat(page.getByTestId("ops-results")).isVisible();
    }

    private static long stateCount(JsonNode overview, String status) {
        return overview.path("states").valueStream().filter(s -> s.path("status").asString("").equals(status))
                .findFirst().orElseThrow().path("count").asLong();
    }

    // ------------------------------------------------------------------ helpers

    private String base() {
        return "http://localhost:" + port;
    }

    /** Merge request links point at this server's GitLab simulator, on the port it actually listens on. */
    private Pattern mergeRequestUrl() {
        // No Pattern.quote: Playwright hands the pattern to the browser's RegExp, which has no \Q...\E quoting.
        return Pattern.compile("^http://localhost:" + port + "/sim/gitlab/platform/access-config/-/merge_requests/\\d+$");
    }

    /**
     * The app runs under its Content-Security-Policy: the page is served with it (no inline script but the
     * release guard, by its hash; no framing), the app renders and signs in, and Chromium blocks nothing
     * (checked after every journey as well).
     */
    /**
     * Drift (issue 36): a maintainer writes a note into a grant file on main by hand; within one detection run (the
     * sandbox's 30 s) the console's Drift page lists it as content that is not a grant, with the pushing commit as
     * evidence, and the operator acknowledges it with a reason: the page shows the outcome and the item ACKNOWLEDGED by
     * otto, as the API does; the note stays on main (drift handling never removes what is not a grant).
     */
    @Test
    @Order(16)
    void aNoteWrittenByHandOnMainIsOnTheDriftPageAndTheOperatorAcknowledgesIt() {
        var file = "grants/db-prod-readonly.txt";
        var note = "# svc-e2e-drift keeps its access until the audit, ask Dana " + UUID.randomUUID().toString().substring(0, 8);
        var content = gitlab.file(PROJECT, "main", file).orElse("");
        var sha = gitlab.push(PROJECT, "main", Map.of(file, content + note + "\n"), "A note by hand");

        var otto = api("otto");
        otto.await("/ops/drift?kind=NOT_A_GRANT", a -> a.data().valueStream()
                .anyMatch(i -> i.path("line").asString("").equals(note)), Duration.ofSeconds(75));
        var page = newPage("otto", false);
        page.navigate(base() + "/console/drift");
        assertThat(page.getByTestId("ops-drift-page")).isVisible();
        var row = page.getByTestId("ops-drift-row").filter(new Locator.FilterOptions().setHasText(note));
        assertThat(row).hasAttribute("data-kind", "NOT_A_GRANT");
        assertThat(row).hasAttribute("data-status", "OPEN");
        assertThat(row).containsText("content that is not a grant");
        assertThat(row.getByTestId("ops-drift-evidence")).containsText(sha.substring(0, 8));
        assertThat(row.getByTestId("ops-drift-remove")).hasCount(0);
        assertThat(row.getByTestId("ops-drift-acknowledge")).isDisabled();
        Chromium.screenshot(page, "drift");

        row.getByTestId("ops-drift-reason").fill("The auditors' note; it stays");
        var itemId = row.getAttribute("data-id");
        var acknowledged = page.waitForResponse(r -> r.url().equals(base() + "/ops/drift/" + itemId + "/acknowledge"),
                () -> row.getByTestId("ops-drift-acknowledge").click());
        Assertions.assertThat(acknowledged.status()).isEqualTo(200);
        assertThat(page.locator("[data-testid=ops-drift-result] p")).hasAttribute("data-code", "ACKNOWLEDGED");
        assertThat(row).hasAttribute("data-status", "ACKNOWLEDGED");
        assertThat(row).containsText("by otto");
        assertThat(row.getByTestId("ops-drift-acknowledge")).hasCount(0);
        var item = otto.get("/ops/drift?status=acknowledged&kind=NOT_A_GRANT").data().valueStream()
                .filter(i -> i.path("line").asString("").equals(note)).findFirst().orElseThrow();
        Assertions.assertThat(item.path("statusActor").asString()).isEqualTo("otto");
        Assertions.assertThat(item.path("statusNote").asString()).contains("it stays");
        Assertions.assertThat(gitlab.file(PROJECT, "main", file).orElseThrow()).as("never removed by drift handling")
                .contains(note);
    }

    /**
     * Issue 32, item 6: the operator downloads the audit export from the console; the file is the CSV of every grant
     * requested in the range, with the first journey's grant (alice's, in effect) in it.
     */
    @Test
    @Order(17)
    void theOperatorDownloadsTheAuditExportOfTheGrantsFromTheConsole() throws IOException {
        var page = newPage("otto", false);
        page.navigate(base() + "/console");
        page.getByTestId("nav-ops-audit").click();
        assertThat(page.getByTestId("ops-audit-page")).isVisible();
        var today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        page.getByTestId("audit-from").fill(today.minusDays(1).toString());
        page.getByTestId("audit-to").fill(today.toString());
        Chromium.screenshot(page, "ops-audit-export");

        var download = page.waitForDownload(() -> page.getByTestId("audit-download-csv").click());

        Assertions.assertThat(download.suggestedFilename()).startsWith("changeflow-grants-").endsWith(".csv");
        var csv = java.nio.file.Files.readString(download.path(), java.nio.charset.StandardCharsets.UTF_8);
        var rows = csv.split("\r\n");
        Assertions.assertThat(rows[0]).startsWith("operationId,kind,targetKey,subjectId,requester,reason,requestedAt");
        Assertions.assertThat(rows).anySatisfy(row -> Assertions.assertThat(row)
                .contains(",GRANT,db-prod-readonly,alice,alice,On-call this week,").contains(",VALIDATED"));
    }

    @Test
    @Order(100)
    void theAppRunsUnderItsContentSecurityPolicyAndBlocksFraming() {
        var page = newPage("otto", false);
        var response = page.navigate(base() + "/console");
        var policy = response.headers().get("content-security-policy");
        Assertions.assertThat(policy).contains("default-src 'self'").contains("frame-ancestors 'none'")
                .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval");
        Assertions.assertThat(response.headers()).containsEntry("x-content-type-options", "nosniff")
                .containsEntry("referrer-policy", "no-referrer");
        assertThat(page.getByRole(AriaRole.HEADING).first()).isVisible();
        // an inline script that is not the page's own is refused (the policy is in force, not only sent)
        page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__injected = 1';"
                + " document.head.appendChild(s); }");
        Assertions.assertThat(page.evaluate("() => window.__injected === undefined")).isEqualTo(true);
        Assertions.assertThat(policyViolations).as("the injected script is reported as blocked").isNotEmpty();
        policyViolations.clear();
    }

    private AppClient api(String user) {
        return new AppClient(base(), user);
    }

    /** A new browser context (own cookies), signed in as {@code user} when given; phone: 390 x 844. */
    private Page newPage(String user, boolean phone) {
        Assertions.assertThat(chromium).as(Chromium.MISSING).isNotNull();
        var options = new Browser.NewContextOptions().setLocale("en-GB").setTimezoneId("UTC");
        if (phone) {
            options.setViewportSize(390, 844).setIsMobile(true).setHasTouch(true).setDeviceScaleFactor(2);
        } else {
            options.setViewportSize(1280, 900);
        }
        var browserContext = chromium.browser.newContext(options);
        contexts.add(browserContext);
        browserContext.setDefaultTimeout(15_000);
        if (user != null) {
            browserContext.addCookies(List.of(new Cookie("cf_demo_user", user).setUrl(base())));
        }
        var page = browserContext.newPage();
        page.onPageError(error -> System.out.println("[browser " + user + "] page error: " + error));
        page.onConsoleMessage(message -> {
            if (message.text().contains("Content Security Policy")) {
                policyViolations.add("[" + user + "] " + page.url() + ": " + message.text());
            }
        });
        return page;
    }

    /** Approves {@code operationId} in the approval simulator's inbox API as amy, once it is there. */
    private void approve(String operationId) {
        var amy = api("amy");
        var inbox = amy.await("/sim/approval/inbox", a -> a.data().valueStream()
                .anyMatch(item -> item.path("operationId").asString("").equals(operationId)), JOURNEY);
        var ticket = inbox.data().valueStream()
                .filter(item -> item.path("operationId").asString("").equals(operationId))
                .findFirst().orElseThrow().path("ticket").asString();
        var decided = amy.post("/sim/approval/inbox/" + ticket + "/decision", Map.of("decision", "APPROVE"));
        Assertions.assertThat(decided.code()).as(decided.json().toString()).isEqualTo("DECIDED");
    }

    /** The batch {@code id} in an answer of {@code GET /ops/batches} (a missing node when it is not there). */
    private static JsonNode batchOf(AppClient.Answer batches, String id) {
        return batches.data().valueStream().filter(b -> b.path("id").asString("").equals(id)).findFirst()
                .orElse(AppClient.JSON.missingNode());
    }

    private void setRateLimit(String value) throws IOException {
        Files.writeString(DYNAMIC_CONFIG, "APPLY_RATE_LIMIT=" + value + "\n", StandardCharsets.UTF_8);
        api("otto").await("/ops/config", a -> a.data().valueStream()
                .anyMatch(e -> e.path("key").asString("").equals("APPLY_RATE_LIMIT")
                        && e.path("resolved").asString("").equals(value)), Duration.ofSeconds(10));
    }

    /** Presses Tab until the element with {@code testId} has the focus (at most 40 times). */
    private static void tabTo(Page page, String testId) {
        for (int i = 0; i < 40; i++) {
            var focused = page.evaluate("() => document.activeElement && document.activeElement.getAttribute('data-testid')");
            if (testId.equals(focused)) {
                return;
            }
            page.keyboard().press("Tab");
        }
        throw new AssertionError("the keyboard never reached " + testId);
    }

    private static void assertNoHorizontalScroll(Page page, String what) {
        var widths = page.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]").toString();
        var fits = (Boolean) page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth");
        Assertions.assertThat(fits).as("%s scrolls horizontally at phone width: [scrollWidth, innerWidth] = %s", what, widths)
                .isTrue();
    }

    /** The build a page was served from (its {@code e2e-build} meta tag), null for the packaged build. */
    private static String build(Page page) {
        return (String) page.evaluate("() => document.querySelector('meta[name=e2e-build]')?.content ?? null");
    }

    private static LocatorAssertions.HasAttributeOptions within(Duration timeout) {
        return new LocatorAssertions.HasAttributeOptions().setTimeout(timeout.toMillis());
    }

    private static void eventually(Duration timeout, String what, BooleanSupplier condition) {
        var deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
        }
    }

    record Run(int exitCode, String output) {}

    private static Run run(Path script, String base) throws IOException, InterruptedException {
        var process = new ProcessBuilder("bash", script.toString(), base).redirectErrorStream(true).start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the smoke script did not finish within 60 s:\n" + output);
        }
        System.out.println(output);
        return new Run(process.exitValue(), output);
    }

    private static boolean onPath(String command) {
        for (var dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}
