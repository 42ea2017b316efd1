package io.changeflow.systemtest.harness;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.sandbox.deploy.DeployPipelineSimulator;
import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.fault.ReceivedTraces;
import io.changeflow.sandbox.gitlab.GitLabRateLimit;
import io.changeflow.sandbox.gitlab.GitLabSimulator;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The outside world of every app instance of a test, in the test JVM: ONE Spring Boot web app on a
 * free loopback port running the sandbox module's GitLab, approval system and deploy pipeline
 * simulators, so that all instances share their state. Instances run without the sandbox profile
 * and are pointed here by {@link InstanceSettings#simulators(SimulatorHost)}.
 *
 * <p>The simulators' callbacks go through the {@link #relay() relay} ({@code /relay/callbacks/...})
 * to whichever instances are alive. Java access to the simulators' state ({@link #gitlab()},
 * {@link #faults()}, {@link #approval()}, {@link #mergeLog()}, {@link #gitlabCalls()}) is for
 * assertions and fault injection; the same is reachable over HTTP (docs/api.md "Sandbox only";
 * {@code /sandbox/faults/**} is not authorized here, it is a test host).
 *
 * <pre>{@code
 * try (var sims = SimulatorHost.start()) {
 *     sims.faults(Faults.GITLAB, new FaultSettings(0, 0.2, 0.1, 0, 0, 0, 0));
 *     sims.gitlab().approvedBy("platform/access-config", 3);
 * }
 * }</pre>
 */
public final class SimulatorHost implements AutoCloseable {

    /** The project of the sandbox catalog. */
    public static final String PROJECT = "platform/access-config";

    /** A GitLab account of the simulator that is not Changeflow's: a person merging by hand. */
    public static final String MAINTAINER = "maintainer";
    public static final String MAINTAINER_TOKEN = "maintainer-token";

    private static final String GITLAB_PROJECT_API = "/sim/gitlab/api/v4/projects/" + PROJECT.replace("/", "%2F");

    private final ConfigurableApplicationContext context;
    private final int port;

    private SimulatorHost(ConfigurableApplicationContext context, int port) {
        this.context = context;
        this.port = port;
    }

    /** Starts with the defaults of {@link #defaults(int)}. */
    public static SimulatorHost start() {
        return start(Map.of());
    }

    /**
     * Starts on a free port.
     *
     * @param overrides Spring properties replacing or adding to {@link #defaults(int)}
     */
    public static SimulatorHost start(Map<String, ?> overrides) {
        var port = FreePorts.pick();
        var properties = new LinkedHashMap<String, Object>(defaults(port));
        properties.putAll(overrides);
        // as command-line arguments: they must win over sandbox-defaults.properties (a @PropertySource)
        var args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        var context = new SpringApplicationBuilder(SimulatorHostApplication.class)
                .web(WebApplicationType.SERVLET)
                .run(args);
        return new SimulatorHost(context, port);
    }

    /**
     * Short timings so that a request reaches VALIDATED in a few seconds: approvals decided after
     * 1 s, pipelines of 2 s, mergeability checks and rebases of 300 ms, deploy callbacks 500 ms after
     * a merge; callbacks retried up to 8 times from 500 ms (an instance may be down meanwhile).
     * The GitLab simulator knows a third account, {@link #MAINTAINER}, for changes "by hand".
     */
    public static Map<String, Object> defaults(int port) {
        var base = "http://127.0.0.1:" + port;
        var p = new LinkedHashMap<String, Object>();
        p.put("server.port", port);
        p.put("server.address", "127.0.0.1");
        p.put("spring.main.banner-mode", "off");
        p.put("spring.application.name", "simulator-host");
        p.put("spring.threads.virtual.enabled", "true");
        p.put("sandbox.callback-base-url", base + CallbackRelay.PREFIX);
        p.put("sandbox.approval.mode", "auto");
        p.put("sandbox.approval.auto-delay", "1s");
        p.put("sandbox.deploy.delay", "500ms");
        p.put("sandbox.deploy.lost-share", "0");
        p.put("sandbox.deploy.include-operation-ids", "true");
        p.put("sandbox.webhook.max-attempts", "8");
        p.put("sandbox.webhook.retry-backoff", "500ms");
        p.put("sandbox.gitlab.checking-duration", "300ms");
        p.put("sandbox.gitlab.pipeline-duration", "2s");
        p.put("sandbox.gitlab.rebase-duration", "300ms");
        p.put("sandbox.gitlab.web-url", base + "/sim/gitlab");
        p.put("sandbox.gitlab.author.username", "changeflow-bot");
        p.put("sandbox.gitlab.author.token", "author-bot-token");
        p.put("sandbox.gitlab.approvers[0].username", "approval-bot-1");
        p.put("sandbox.gitlab.approvers[0].token", "approval-bot-1-token");
        p.put("sandbox.gitlab.approvers[1].username", "approval-bot-2");
        p.put("sandbox.gitlab.approvers[1].token", "approval-bot-2-token");
        p.put("sandbox.gitlab.approvers[2].username", MAINTAINER);
        p.put("sandbox.gitlab.approvers[2].token", MAINTAINER_TOKEN);
        p.put("logging.level.org.springframework", "WARN");
        p.put("logging.level.org.apache", "WARN");
        return p;
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>} */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** What {@code changeflow.gitlab.base-url} of an instance must be. */
    public String gitlabBaseUrl() {
        return baseUrl() + "/sim/gitlab";
    }

    /** What {@code changeflow.approval.base-url} of an instance must be. */
    public String approvalBaseUrl() {
        return baseUrl() + "/sim/approval";
    }

    /** The secret the approval simulator signs with ({@code changeflow.callbacks.approval.secrets}). */
    public String approvalSecret() {
        return property("sandbox.webhook.approval-secret");
    }

    /** The secret the deploy simulator signs with ({@code changeflow.callbacks.deploy.secrets}). */
    public String deploySecret() {
        return property("sandbox.webhook.deploy-secret");
    }

    /** A setting of the simulator host (e.g. {@code sandbox.gitlab.author.token}). */
    public String property(String key) {
        return context.getEnvironment().getRequiredProperty(key);
    }

    public GitLabSimulator gitlab() {
        return context.getBean(GitLabSimulator.class);
    }

    /**
     * The GitLab simulator's API rate limit ({@code sandbox.gitlab.rate-limit-per-minute} over
     * {@code sandbox.gitlab.rate-limit-period}): how many calls it answered 429, and switching it at runtime
     * (off for a test's own checks through the REST API, which count like any account's calls).
     */
    public GitLabRateLimit gitlabRateLimit() {
        return context.getBean(GitLabRateLimit.class);
    }

    public ApprovalSimulator approval() {
        return context.getBean(ApprovalSimulator.class);
    }

    public DeployPipelineSimulator deploy() {
        return context.getBean(DeployPipelineSimulator.class);
    }

    public Faults faults() {
        return context.getBean(Faults.class);
    }

    /** Sets the fault injection of {@code system} ({@link Faults#GITLAB}, {@link Faults#APPROVAL}, {@link Faults#DEPLOY}). */
    public void faults(String system, FaultSettings settings) {
        faults().configure(system, settings);
    }

    /** No faults anywhere. */
    public void clearFaults() {
        faults().clear();
    }

    public CallbackRelay relay() {
        return context.getBean(CallbackRelay.class);
    }

    public MergeLog mergeLog() {
        return context.getBean(MergeLog.class);
    }

    /** The W3C trace of every call the simulators received (the last 2,000), by trace id. */
    public ReceivedTraces receivedTraces() {
        return context.getBean(ReceivedTraces.class);
    }

    public GitLabCalls gitlabCalls() {
        return context.getBean(GitLabCalls.class);
    }

    /** The content of {@code path} on the default branch of {@link #PROJECT}. */
    public Optional<String> fileOnMain(String path) {
        return gitlab().file(PROJECT, "main", path);
    }

    /** How many lines of {@code path} on main name {@code op=<operationId>}: 1 for a merged grant. */
    public long grantLinesOnMain(String path, String operationId) {
        return fileOnMain(path).map(content -> content.lines()
                .filter(line -> line.strip().endsWith("op=" + operationId)).count()).orElse(0L);
    }

    /** A client of the simulator host's own HTTP API (no identity needed). */
    public ApiClient client() {
        return new ApiClient(baseUrl(), null);
    }

    /**
     * Merges merge request {@code iid} of {@link #PROJECT} by hand, as the {@link #MAINTAINER} would
     * in GitLab's UI (through the simulator's REST API, so the deploy pipeline hears of it).
     *
     * @return the HTTP status GitLab answered (200 merged; 405 not open or conflicting; ...)
     */
    public int mergeByHand(long iid) {
        return client().send("PUT", GITLAB_PROJECT_API + "/merge_requests/" + iid + "/merge", null,
                Map.of("PRIVATE-TOKEN", MAINTAINER_TOKEN)).status();
    }

    /**
     * The merge requests of {@link #PROJECT} from {@code sourceBranch}, any state, as GitLab's REST API
     * lists them (newest first). Goes through fault injection like any GitLab call: clear the faults first.
     */
    public List<JsonNode> mergeRequestsFrom(String sourceBranch) {
        var response = client().send("GET", GITLAB_PROJECT_API + "/merge_requests?state=all&per_page=100&source_branch="
                + URLEncoder.encode(sourceBranch, StandardCharsets.UTF_8), null, Map.of("PRIVATE-TOKEN", MAINTAINER_TOKEN));
        if (response.status() != 200 || !response.json().isArray()) {
            throw new IllegalStateException("GitLab simulator: listing merge requests from " + sourceBranch + ": " + response);
        }
        var list = new ArrayList<JsonNode>();
        response.json().forEach(list::add);
        return list;
    }

    /** Merge request numbers of {@link #PROJECT}, oldest first. */
    public List<Long> mergeRequestIids() {
        return gitlab().mergeRequestIids(PROJECT);
    }

    @Override
    public void close() {
        context.close();
    }
}
