package io.changeflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Figures;
import io.changeflow.systemtest.harness.GitLabCalls;
import io.changeflow.systemtest.harness.InstanceSettings;
import io.changeflow.systemtest.harness.Invariants;
import io.changeflow.systemtest.harness.Poll;
import io.changeflow.systemtest.harness.RequestView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The main journey on the packaged application: one instance (production profile) on a real
 * database, the simulators in their own host. A request goes from submission to VALIDATED in both
 * step orders; the order is switched at runtime through the dynamic configuration file, and the
 * request submitted before the switch keeps its order. {@link Observability}: the exposition an operator's
 * alerts and dashboard read, checked with promtool. {@link Tracing}: a submission's W3C trace followed through its
 * durable steps and their calls.
 */
class RequestLifecycleSystemTest {

    @RegisterExtension
    static final ChangeflowCluster cluster = ChangeflowCluster.create().withPlainTargets(1)
            // every step run logs a line ("KIND:ref runs, attempt n"), for Tracing's look at the step lines
            .withInstanceProperty("logging.level.io.changeflow.adapter.scheduler.WorkflowStepTask", "DEBUG")
            .withInstances("solo");

    @Test
    void aRequestReachesValidatedInBothStepOrdersWithTheOrderSwitchedAtRuntime() {
        var alice = cluster.client("solo", "alice");
        var otto = cluster.client("solo", "otto");
        assertThat(otto.configEntry("workflow.approveFirst").path("resolved").asString())
                .as("the step order before the switch").isIn("false", "off", "OFF");

        var gitlabCallsBefore = cluster.sims().gitlabCalls().all().size();
        var createFirst = submit(alice, "db-prod-readonly", "svc-create-first");
        assertThat(createFirst.stepOrder()).isEqualTo("CREATE_FIRST");

        cluster.writeDynamicConfig(Map.of("workflow.approveFirst", "true"));
        var entry = Poll.until("/ops/config to show workflow.approveFirst=true from the file", Duration.ofSeconds(15),
                () -> otto.configEntry("workflow.approveFirst"),
                e -> "true".equals(e.path("raw").asString(null)) && "file".equals(e.path("source").asString(null))
                        && e.path("resolved").asString("").equalsIgnoreCase("true"));
        Figures.record("workflow.approveFirst after the switch", entry.toString());

        // another target (another grant file): requests for one target are ConcurrentRequestsSystemTest's
        var approveFirst = submit(alice, InstanceSettings.plainTargetKey(1), "svc-approve-first");
        assertThat(approveFirst.stepOrder()).isEqualTo("APPROVE_FIRST");

        // both orders live at once: the request submitted before the switch keeps its order
        var started = System.nanoTime();
        var doneCreateFirst = awaitValidated(alice, createFirst.operationId());
        var doneApproveFirst = awaitValidated(alice, approveFirst.operationId());
        Figures.record("submit to VALIDATED, both orders in flight together",
                "create first and approve first both VALIDATED " + (System.nanoTime() - started) / 1_000_000
                        + " ms after the second submission");

        recordGitLabCallsPerRequest(cluster.sims().gitlabCalls().all(), gitlabCallsBefore, 2);

        assertThat(doneCreateFirst.stepOrder()).isEqualTo("CREATE_FIRST");
        assertThat(doneApproveFirst.stepOrder()).isEqualTo("APPROVE_FIRST");
        for (var view : new RequestView[] {doneCreateFirst, doneApproveFirst}) {
            assertThat(Invariants.deliveredOnItsOwnMergeRequest(cluster.sims(), view)).as(view.toString()).isEmpty();
            assertThat(view.hint()).isEqualTo("NONE");
        }
        assertThat(doneCreateFirst.mergeRequestIid()).isNotEqualTo(doneApproveFirst.mergeRequestIid());
        assertThat(Invariants.repeatedApprovalAttempts(cluster.sims().gitlabCalls())).isEmpty();
    }

    /**
     * The instances run the production profile (the simulators live in the test's own host): fault
     * injection and the simulators' APIs are not there for anyone, operators included.
     */
    @Test
    void theProductionProfileServesNeitherFaultInjectionNorSimulators() {
        var otto = cluster.client("solo", "otto");
        for (var path : List.of("/sandbox/faults", "/sandbox/faults/approval/controls", "/sandbox/faults/deploy/controls",
                "/sim/gitlab/api/v4/projects", "/sim/gitlab/_control/timings", "/sim/approval/api/approvals",
                "/sim/approval/inbox")) {
            var read = otto.get(path);
            var write = otto.put(path, Map.of("errorRate", 1.0));
            assertThat(read.status()).as("GET " + path + ": " + read).isIn(401, 403, 404);
            assertThat(write.status()).as("PUT " + path + ": " + write).isIn(401, 403, 404, 405);
            assertThat(read.body() + write.body()).doesNotContainIgnoringCase("errorRate").doesNotContain("Exception");
        }
    }

    /**
     * The OpenAPI document a production instance serves to operators is the checked-in one (the sandbox profile's)
     * without the sandbox's paths, its demo sign-in scheme and what only they use (issue 16: the production variant).
     */
    @Test
    void theProductionInstanceServesTheCheckedInContractWithoutTheSandboxParts() throws IOException {
        var served = cluster.client("solo", "otto").get("/v3/api-docs", Map.of("Accept", "application/json"));
        assertThat(served.status()).as(served.toString()).isEqualTo(200);
        var expected = ProductionContract.of(Files.readString(Path.of("..", "docs", "openapi.json")));
        assertThat(ProductionContract.canonical(served.json())).isEqualTo(ProductionContract.canonical(expected));
        assertThat(served.body()).doesNotContain("/sandbox/").doesNotContain("/sim/").doesNotContain("demoUserCookie");
    }

    /**
     * Monitoring is not public and shows no file system path (reliability finding 4): anonymous health is the
     * status only, the scrape needs an operator; what the operator reads carries no path either.
     */
    @Test
    void healthAndMetricsShowNoFileSystemPaths() {
        var anonymous = cluster.client("solo", null);
        var operator = cluster.client("solo", "otto");
        var repository = java.nio.file.Path.of("").toAbsolutePath().getParent().toString();
        for (var path : List.of("/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness")) {
            var status = anonymous.get(path, Map.of("Accept", "*/*"));
            assertThat(status.status()).as(path).isEqualTo(200);
            assertThat(status.json().path("status").asString("")).as(path).isEqualTo("UP");
            assertThat(status.body()).as(path + ": the status only").doesNotContain("components").doesNotContain("details")
                    .doesNotContain("http");
        }
        assertThat(anonymous.get("/actuator/prometheus", Map.of("Accept", "*/*")).status()).isEqualTo(401);
        assertThat(cluster.client("solo", "alice").get("/actuator/prometheus", Map.of("Accept", "*/*")).status()).isEqualTo(403);
        for (var path : List.of("/actuator/health", "/actuator/prometheus")) {
            var response = operator.get(path, Map.of("Accept", "*/*"));
            assertThat(response.status()).as(path).isEqualTo(200);
            assertThat(response.body()).as(path).isNotBlank().doesNotContain(repository).doesNotContain("diskSpace")
                    .doesNotContain("disk_free_bytes");
        }
        assertThat(operator.get("/actuator/health").json().path("components").has("db")).as("details for operators").isTrue();
        // an empty Accept header means "anything" (it made the Prometheus scrape fail with a 500)
        var scrape = operator.get("/actuator/prometheus", Map.of("Accept", ""));
        assertThat(scrape.status()).as(scrape.toString()).isEqualTo(200);
    }

    private static RequestView submit(ApiClient client, String target, String subject) {
        var response = client.submit(target, subject, "system test");
        assertThat(response.status()).as(response.toString()).isEqualTo(202);
        assertThat(response.code()).isEqualTo("ACCEPTED");
        assertThat(response.header("Location")).endsWith("/api/requests/" + response.data().path("operationId").asString());
        return new RequestView(response.data());
    }

    private static RequestView awaitValidated(ApiClient client, String operationId) {
        return Poll.until("request " + operationId + " to be VALIDATED", Duration.ofSeconds(60),
                () -> client.request(operationId), v -> "VALIDATED".equals(v.status()) || v.isAtRest());
    }

    /**
     * What an operator alerts on (issue 16), on this class's instance (so that CI starts no instance for it): after
     * one request ran to VALIDATED and one callback came with a forged signature, the real exposition of {@code /actuator/prometheus} has the meters with
     * their tags, {@code promtool check metrics} finds nothing to say about any {@code changeflow_*} metric (help text
     * included), the alert rules of {@code ops/prometheus} pass {@code promtool check rules} and their unit tests, and
     * every metric named by the rules and the Grafana dashboard is in the exposition.
     *
     * <p>Needs {@code promtool} (Debian's {@code prometheus} package; CI's {@code .ci/run} installs it): without it the
     * test fails, it never skips.
     */
    @Nested
    class Observability {

        static final Path OPS = Path.of("..", "ops").toAbsolutePath().normalize();
        static final Path RULES = OPS.resolve("prometheus/changeflow-alerts.yml");
        static final Path RULE_TESTS = OPS.resolve("prometheus/changeflow-alerts.test.yml");
        static final Path DASHBOARD = OPS.resolve("grafana/changeflow-dashboard.json");
        static final String MISSING = "these checks need promtool on the PATH or at /usr/bin/promtool (install it: "
                + "apt-get install -y prometheus; CI's .ci/run does)";

        private static final Pattern METRIC = Pattern.compile("\\b((?:changeflow|resilience4j|http_server)_[a-z0-9_]+)\\b");

        private static String exposition;

        @BeforeAll
        static void oneRequestAndOneForgedCallback() {
            var alice = cluster.client("solo", "alice");
            var submitted = alice.submit("db-prod-readonly", "svc-observed", "observability system test");
            assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
            var id = submitted.data().path("operationId").asString();
            Poll.until("request " + id + " to be VALIDATED", Duration.ofSeconds(60), () -> alice.request(id),
                    RequestView::isAtRest);
            assertThat(alice.request(id).status()).isEqualTo("VALIDATED");
            var forged = cluster.client("solo", null).send("POST", "/callbacks/approval",
                    Map.of("requestId", "forged", "result", "APPROVED"), Map.of("webhook-id", "msg_forged",
                            "webhook-timestamp", "1", "webhook-signature", "v1,Zm9yZ2Vk"));
            assertThat(forged.status()).as(forged.toString()).isEqualTo(401);
            // every recurring job has run once since the start (their first run is due at once)
            exposition = Poll.until("every recurring job to have run once", Duration.ofSeconds(60),
                    Observability::scrape, text -> text.contains("changeflow_jobs_runs_seconds_count{job=\"sweep-stuck-requests\"")
                            && text.contains("changeflow_jobs_runs_seconds_count{job=\"reconcile-deployments\""));
        }

        private static String scrape() {
            var response = cluster.client("solo", "otto").get("/actuator/prometheus", Map.of("Accept", "text/plain"));
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
            return response.body();
        }

        @Test
        void theMetersAnOperatorAlertsOnAreThereWithBoundedTags() {
            assertThat(exposition)
                    .contains("changeflow_external_calls_seconds_count{operation=\"merge\",outcome=\"success\",system=\"gitlab\"}")
                    .contains("changeflow_external_calls_seconds_count{operation=\"submit\",outcome=\"success\",system=\"approval\"}")
                    .contains("resilience4j_circuitbreaker_state{name=\"gitlab\",state=\"closed\"} 1.0")
                    .contains("resilience4j_circuitbreaker_state{name=\"gitlab-preview\",state=\"closed\"} 1.0")
                    .contains("resilience4j_circuitbreaker_state{name=\"approval\",state=\"closed\"} 1.0")
                    .contains("changeflow_scheduler_steps_waiting ")
                    .contains("changeflow_scheduler_steps_running ")
                    .contains("changeflow_scheduler_steps_failing ")
                    .contains("changeflow_scheduler_backlog_capacity ")
                    .contains("changeflow_requests_in_status{status=\"APPROVAL_SENT\"}")
                    .contains("changeflow_requests_overdue ")
                    .contains("changeflow_requests_overdue_oldest_seconds ")
                    .contains("changeflow_callbacks_refused_total{reason=\"invalid_signature\",source=\"approval\"} 1.0")
                    .contains("changeflow_jobs_results_total{job=\"reconcile-deployments\",result=\"examined\"}")
                    .contains("changeflow_jobs_results_total{job=\"sweep-stuck-requests\",result=\"rescheduled\"}")
                    .contains("http_server_requests_seconds_count{")
                    .doesNotContain("changeflow_api_requests");
            var validated = Pattern.compile("(?m)^changeflow_requests_in_status\\{status=\"VALIDATED\"} (\\S+)$").matcher(exposition);
            assertThat(validated.find()).isTrue();
            assertThat(Double.parseDouble(validated.group(1))).as("NaN while the gauges cannot read the database").isGreaterThanOrEqualTo(1);
            var operations = Pattern.compile("changeflow_external_calls_seconds_count\\{operation=\"([^\"]+)\"").matcher(exposition)
                    .results().map(m -> m.group(1)).collect(Collectors.toCollection(TreeSet::new));
            Figures.record("external call operations seen in one request's life", operations.toString());
            assertThat(operations).allMatch(op -> op.matches("[a-zA-Z]+"));
        }

        @Test
        void promtoolFindsNothingToSayAboutAnyChangeflowMetric() throws Exception {
            var file = cluster.outputDir().resolve("exposition.txt");
            Files.writeString(file, exposition, StandardCharsets.UTF_8);
            var lint = promtool(file, "check", "metrics");
            var ours = lint.lines().filter(line -> line.startsWith("changeflow_")).toList();
            Figures.record("promtool check metrics on the exposition", lint.lines().count() + " remarks, " + ours.size()
                    + " about changeflow_* metrics");
            assertThat(ours).as("promtool check metrics (help text, units, counter names)").isEmpty();
            assertThat(exposition).contains("# HELP changeflow_external_calls_seconds Calls to GitLab and the approval system");
        }

        @Test
        void theAlertRulesPassPromtoolAndTheirUnitTests() throws Exception {
            assertThat(promtool(null, "check", "rules", RULES.toString())).contains("SUCCESS");
            assertThat(promtool(null, "test", "rules", RULE_TESTS.toString())).contains("SUCCESS");
        }

        @Test
        void theDashboardQueriesAreValidPromQl() throws Exception {
            var queries = dashboardQueries();
            assertThat(queries).hasSizeGreaterThanOrEqualTo(10);
            // promtool checks PromQL only in rule files: every panel query as a recording rule
            var rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
            for (var i = 0; i < queries.size(); i++) {
                rules.append("      - record: dashboard:query").append(i).append("\n        expr: '")
                        .append(queries.get(i).replace("'", "''")).append("'\n");
            }
            var file = cluster.outputDir().resolve("dashboard-queries.yml");
            Files.writeString(file, rules, StandardCharsets.UTF_8);
            assertThat(promtool(null, "check", "rules", file.toString())).contains("SUCCESS: " + queries.size() + " rules found");
        }

        @Test
        void everyMetricTheRulesAndTheDashboardNameIsInTheExposition() throws IOException {
            var named = new TreeSet<String>();
            for (var path : List.of(RULES, DASHBOARD)) {
                METRIC.matcher(Files.readString(path)).results().map(m -> m.group(1)).forEach(named::add);
            }
            assertThat(named).contains("changeflow_requests_overdue_oldest_seconds", "resilience4j_circuitbreaker_state",
                    "changeflow_scheduler_steps_waiting", "changeflow_callbacks_refused_total", "http_server_requests_seconds_count");
            Set<String> exposed = exposition.lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                    .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toSet());
            assertThat(named).as("metrics named in %s and %s", RULES.getFileName(), DASHBOARD.getFileName())
                    .allSatisfy(metric -> assertThat(exposed).as(metric).contains(metric));
        }

        private static List<String> dashboardQueries() throws IOException {
            var json = io.changeflow.systemtest.harness.ApiClient.JSON.readTree(Files.readString(DASHBOARD));
            var queries = new ArrayList<String>();
            json.path("panels").forEach(panel -> panel.path("targets").forEach(t -> queries.add(t.path("expr").asString())));
            return queries;
        }

        /** Runs promtool with {@code args} (stdin from {@code input} when not null); its output, asserting exit 0. */
        private static String promtool(Path input, String... args) throws Exception {
            var command = new ArrayList<String>();
            command.add(promtoolExecutable());
            command.addAll(List.of(args));
            var builder = new ProcessBuilder(command).redirectErrorStream(true);
            if (input != null) {
                builder.redirectInput(input.toFile());
            }
            var process = builder.start();
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("promtool finished").isTrue();
            // check metrics exits 1 when it has remarks (any metric); the caller judges those
            if (!(args.length > 1 && args[1].equals("metrics"))) {
                assertThat(process.exitValue()).as(String.join(" ", args) + ":\n" + output).isZero();
            }
            return output;
        }

        private static String promtoolExecutable() {
            for (var dir : (System.getenv().getOrDefault("PATH", "") + ":/usr/bin").split(":")) {
                var candidate = Path.of(dir.isEmpty() ? "." : dir, "promtool");
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
            throw new AssertionError(MISSING);
        }
    }
    /**
     * Issue 16, item 2, on this class's instance: a submission with a given {@code traceparent} is answered with that
     * trace id ({@code X-Trace-Id}); every log line of its steps carries the trace id and the operationId (the
     * instance's log, plain text, {@code [traceId] [operationId] }); the simulated GitLab and approval system
     * received its calls in that trace; nothing is exported and nothing complains about a missing collector.
     */
    @Nested
    class Tracing {

        @Test
        void aSubmissionsTraceparentIsContinuedByEveryStepAndEveryCallOut() throws IOException {
            var traceId = java.util.HexFormat.of().formatHex(java.security.SecureRandom.getSeed(16));
            var traceparent = "00-" + traceId + "-00f067aa0ba902b7-01";
            var alice = cluster.client("solo", "alice");
            var id = java.util.UUID.randomUUID().toString();
            var submitted = alice.send("POST", "/api/requests", Map.of("operationId", id, "targetKey", "db-prod-readonly",
                    "subjectId", "svc-traced", "reason", "tracing system test"), Map.of("traceparent", traceparent));
            assertThat(submitted.status()).as(submitted.toString()).isEqualTo(202);
            assertThat(submitted.header("X-Trace-Id")).as("the answer names the caller's trace").isEqualTo(traceId);
            assertThat(awaitValidated(alice, id).status()).isEqualTo("VALIDATED");

            var received = cluster.sims().receivedTraces().inTrace(traceId);
            Figures.record("calls the simulators received in one submission's trace", received.size() + ": "
                    + received.stream().map(r -> r.system() + " " + r.method()).collect(Collectors.groupingBy(x -> x,
                    java.util.TreeMap::new, Collectors.counting())));
            assertThat(received).as("the approval form").anySatisfy(call -> {
                assertThat(call.system()).isEqualTo("approval");
                assertThat(call.method()).isEqualTo("POST");
            });
            assertThat(received).extracting(r -> r.method() + " " + r.path())
                    .as("the merge request opened, approved and merged in the trace")
                    .anyMatch(call -> call.startsWith("POST /sim/gitlab/api/v4/projects/") && call.endsWith("/merge_requests"))
                    .anyMatch(call -> call.startsWith("POST ") && call.endsWith("/approve"))
                    .anyMatch(call -> call.startsWith("PUT ") && call.endsWith("/merge"));

            var log = Files.readAllLines(cluster.instance("solo").logFile(), StandardCharsets.UTF_8);
            var run = Pattern.compile(".* ([A-Z_]+):" + Pattern.quote(id) + " r(?:uns|an)\\b.*");
            var stepLines = log.stream().filter(line -> line.contains("WorkflowStepTask") && run.matcher(line).matches())
                    .toList();
            assertThat(stepLines).as("every step of the request logged its run").isNotEmpty()
                    .allSatisfy(line -> assertThat(line).contains("[" + traceId + "] [" + id + "] "));
            var kinds = stepLines.stream().map(line -> run.matcher(line).replaceAll("$1"))
                    .collect(Collectors.toCollection(TreeSet::new));
            Figures.record("steps of one submission in its trace", kinds + ", " + stepLines.size() + " log lines");
            assertThat(kinds).contains("SUBMIT_APPROVAL", "CREATE", "HANDLE");
            assertThat(log).as("no exporter configured: nothing tried to reach a collector")
                    .noneMatch(line -> line.contains("Failed to export") || line.contains(":4318") || line.contains(":4317"));
        }
    }

    /**
     * Issue 15: GitLab calls per VALIDATED request, counted by the simulator (every API call it answered from the first
     * submission until both requests were VALIDATED, over the two requests), by kind. Printed, not asserted: the call
     * budget is the next step (docs/benchmarks.md).
     */
    private static void recordGitLabCallsPerRequest(List<GitLabCalls.Call> all, int from, int requests) {
        Figures.record("GitLab calls per VALIDATED request (simulator counters)",
                GitLabCalls.perRequest(all, from, requests, "VALIDATED requests"));
    }
}
