package io.changeflow.reliability.support;

import io.changeflow.sandbox.approval.ApprovalSimulator;
import io.changeflow.systemtest.harness.AppInstance;
import io.changeflow.systemtest.harness.ApiClient;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.Poll;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The cluster the edge suites (bad input, misconfiguration, security) share, started once per test
 * JVM and closed after the last test (JUnit's root store closes it): starting instances is the
 * expensive part of these suites, and none of them needs a cluster of its own.
 *
 * <ul>
 *   <li>{@value #EDGE}: the production profile, loopback a trusted proxy (the default), the dynamic
 *       configuration file polled every 50 ms, and <em>no</em> {@code ACCESS_MODE} in the Environment,
 *       so the file alone decides access (a blank or missing value there means the documented default,
 *       not the harness's fallback OPEN), {@value #ACCEPTED_EMAIL_DOMAIN} the one accepted email domain
 *       (an address of any other domain is an unverified identity), and a gateway that sends both identity
 *       headers ({@code changeflow.identity.headers}), and {@code changeflow.sandbox.demo-login=true} set by
 *       mistake (without the sandbox profile it must do nothing).</li>
 *   <li>{@value #SANDBOX}: the sandbox profile (demo sign-in, {@code /sandbox/**}, {@code /sim/**}) on the
 *       same database, with {@code changeflow.identity.trusted-proxies=10.0.0.0/8}: the tests reach it
 *       from loopback, an untrusted peer, so identity headers are ignored and only the demo cookie
 *       identifies a caller there.</li>
 * </ul>
 * The approval simulator decides nothing by itself (manual), and the baseline file sets the
 * approve-first order: a submission that gets through parks at "waiting for the approver".
 */
public final class EdgeCluster implements BeforeAllCallback {

    public static final String EDGE = "edge";
    public static final String SANDBOX = "sandbox";
    /** The CIDR the sandbox instance trusts; the tests' loopback address is outside it. */
    public static final String UNTRUSTED_PROXIES = "10.0.0.0/8";

    /** The email domain the edge instance accepts ({@code changeflow.identity.email-domains}): {@code otto@corp.example} is otto. */
    public static final String ACCEPTED_EMAIL_DOMAIN = "corp.example";

    /** The edge instance's {@code changeflow.persistence.query-timeout}. */
    public static final String QUERY_TIMEOUT = "5s";

    /** A target of the edge instance only, after the sandbox's three, without an {@code ask-for} setting. */
    public static final String SELF_ONLY_TARGET = "self-only-db";
    private static final String SELF_ONLY_PREFIX = "changeflow.catalog.targets[3].";

    private static final String KEY = EdgeCluster.class.getName();

    private ChangeflowCluster cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .computeIfAbsent(KEY, key -> startShared(), ChangeflowCluster.class);
    }

    private static ChangeflowCluster startShared() {
        var cluster = ChangeflowCluster.create()
                .withInstanceProperty("changeflow.dynamic-config.poll-interval", "50ms")
                .withDynamicConfig("workflow.approveFirst", "true")
                .open("EdgeSuites");
        try {
            cluster.sims().approval().mode(ApprovalSimulator.Mode.MANUAL);
            // the flood of SecurityReliabilityTest at CI size meets a proportionally smaller address table (the issue's
            // flood of 150,000 forged addresses against the default 50,000 in the long run)
            var addressKeys = String.valueOf(Math.max(1, Sizes.of("reliability.security.flood", 600) / 3));
            var edge = CompletableFuture.runAsync(() -> cluster.start(EDGE, s -> s.set("ACCESS_MODE", null)
                    // the production default: JSON log lines (the harness's plain lines are for the system tests)
                    .set("logging.structured.format.console", null)
                    .set("changeflow.ratelimit.max-address-keys", addressKeys)
                    .set("changeflow.identity.email-domains", ACCEPTED_EMAIL_DOMAIN)
                    // its gateway sends both identity headers (the default believes only X-Forwarded-User)
                    .set("changeflow.identity.headers", "X-Forwarded-User, X-Forwarded-Email")
                    // set by mistake on production: the sandbox profile alone enables the demo sign-in
                    .set("changeflow.sandbox.demo-login", "true")
                    // DeadlinesReliabilityTest holds a table lock past it (the default is 10 s)
                    .set("changeflow.persistence.query-timeout", QUERY_TIMEOUT)
                    // a target without the ask-for setting: who may ask for whom is the fail-safe self (issue 37)
                    .set(SELF_ONLY_PREFIX + "key", SELF_ONLY_TARGET)
                    .set(SELF_ONLY_PREFIX + "name", "Self only")
                    .set(SELF_ONLY_PREFIX + "description", "a target without an ask-for setting")
                    .set(SELF_ONLY_PREFIX + "project", io.changeflow.systemtest.harness.SimulatorHost.PROJECT)
                    .set(SELF_ONLY_PREFIX + "file-path", "grants/" + SELF_ONLY_TARGET + ".txt")));
            var sandbox = CompletableFuture.runAsync(() -> cluster.start(SANDBOX, s -> s
                    .set("spring.profiles.active", "sandbox")
                    // the sandbox profile's 2-minute deploy deadline, run by this instance on the shared database,
                    // would move the edge suites' merged requests (GrantLifeSecurityReliabilityTest's victim, held
                    // MERGED for the whole class) to DEPLOY_UNCONFIRMED on a loaded machine: the production default
                    .set("changeflow.workflow.deploy-deadline", "2h")
                    .set("changeflow.identity.trusted-proxies", UNTRUSTED_PROXIES)));
            CompletableFuture.allOf(edge, sandbox).join();
        } catch (CompletionException | IllegalStateException e) {
            cluster.close();
            throw e instanceof CompletionException c && c.getCause() instanceof RuntimeException r ? r : e;
        }
        return cluster;
    }

    public ChangeflowCluster cluster() {
        return Objects.requireNonNull(cluster, "EdgeCluster is registered as a static extension");
    }

    public AppInstance edge() {
        return cluster().instance(EDGE);
    }

    public AppInstance sandbox() {
        return cluster().instance(SANDBOX);
    }

    /** The edge suites' common starting point: access OPEN, no rate limit, approve-first. */
    public static Map<String, String> baseline() {
        var keys = new LinkedHashMap<String, String>();
        keys.put("ACCESS_MODE", "OPEN");
        keys.put("APPLY_RATE_LIMIT", "0");
        keys.put("workflow.approveFirst", "true");
        return keys;
    }

    /** Writes {@code keys} as the dynamic file of {@code instance} and waits until {@code /ops/config} shows them. */
    public static void applyDynamicConfig(AppInstance instance, ApiClient operator, Map<String, String> keys) {
        instance.writeDynamicConfig(keys);
        Poll.untilTrue("the dynamic configuration of " + instance.name() + " applied: " + keys, Duration.ofSeconds(20),
                () -> keys.entrySet().stream().allMatch(e ->
                        e.getValue().strip().equals(operator.configEntry(e.getKey()).path("raw").asString(null))));
    }
}
