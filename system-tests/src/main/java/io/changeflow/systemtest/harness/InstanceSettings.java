package io.changeflow.systemtest.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything an app instance is started with: Spring properties (passed as {@code --key=value}, the
 * highest precedence), the content of its dynamic configuration file, and JVM options. Mutable
 * builder; {@link #copy()} before sharing.
 *
 * <p>{@link #clusterDefaults()} is the production profile (no sandbox) with the sandbox's catalog and
 * demo permissions and timings short enough for tests: steps polled every 200 ms, a dead instance's
 * steps taken over after 5 s (heartbeat 1 s), pipelines watched every 300 ms for at most 1 minute,
 * batch rounds every 2 s, logs in plain text lines. Point it at a database and a {@link SimulatorHost} with
 * {@link #database(String, String, String)} and {@link #simulators(SimulatorHost)}.
 */
public final class InstanceSettings {

    private final LinkedHashMap<String, String> properties = new LinkedHashMap<>();
    private final LinkedHashMap<String, String> dynamic = new LinkedHashMap<>();
    private final List<String> jvmOptions = new ArrayList<>();

    private InstanceSettings() {
    }

    /** Nothing set: the jar's own defaults (e.g. for the embedded default run with the sandbox profile). */
    public static InstanceSettings empty() {
        return new InstanceSettings();
    }

    /** The production profile tuned for tests (see the class comment); still needs a database and simulators. */
    public static InstanceSettings clusterDefaults() {
        var s = new InstanceSettings();
        s.jvm("-Xmx512m").jvm("-XX:+UseSerialGC").jvm("-XX:TieredStopAtLevel=1").jvm("-Xss512k");
        // never fall back to an embedded database: every instance must share the test database
        s.set("changeflow.embedded-db.enabled", "false");
        s.set("spring.datasource.hikari.maximum-pool-size", "20");
        s.set("spring.lifecycle.timeout-per-shutdown-phase", "10s");
        // readiness DOWN while still serving at a graceful stop: short here, ShutdownSystemTest sets its own
        s.set("changeflow.shutdown.drain-delay", "1s");
        s.set("server.address", "127.0.0.1");
        // plain text lines, not production's JSON: tests read the logs line by line (RequestLifecycleSystemTest)
        s.set("logging.structured.format.console", "");
        s.set("changeflow.permissions.grants.otto", "ops.operator");
        s.set("changeflow.permissions.grants.amy", "approvals.approver");
        catalog(s);
        s.set("changeflow.scheduler.polling-interval", "200ms");
        s.set("changeflow.scheduler.heartbeat-interval", "1s");
        s.set("changeflow.scheduler.dead-execution-timeout", "5s");
        s.set("changeflow.scheduler.shutdown-max-wait", "5s");
        s.set("changeflow.scheduler.retry-initial-delay", "1s");
        s.set("changeflow.scheduler.retry-max-delay", "5s");
        s.set("changeflow.workflow.pipeline.short-interval", "300ms");
        s.set("changeflow.workflow.pipeline.short-attempts", "20");
        s.set("changeflow.workflow.pipeline.long-interval", "1s");
        s.set("changeflow.workflow.pipeline.timeout", "1m");
        s.set("changeflow.workflow.rebase.short-interval", "300ms");
        s.set("changeflow.workflow.rebase.short-attempts", "10");
        s.set("changeflow.workflow.rebase.long-interval", "1s");
        s.set("changeflow.workflow.rebase.timeout", "30s");
        s.set("changeflow.workflow.approval-backoff-base", "200ms");
        s.set("changeflow.workflow.approval-backoff-max", "2s");
        s.set("changeflow.workflow.merge-retry-delay", "1s");
        s.set("changeflow.workflow.sweep.every", "5s");
        s.set("changeflow.workflow.sweep.lost-task-after", "30s");
        s.set("changeflow.workflow.sweep.fail-after", "10m");
        s.set("changeflow.workflow.reconciliation.every", "10s");
        s.set("changeflow.workflow.reconciliation.min-age", "20s");
        s.set("changeflow.workflow.reconciliation.max-age", "1h");
        s.set("changeflow.batch.round-interval", "2s");
        s.set("changeflow.batch.sweep-interval", "2s");
        s.set("changeflow.batch.timeout", "2m");
        s.set("changeflow.batch.lost-task-after", "30s");
        s.set("changeflow.dynamic-config.poll-interval", "300ms");
        // the access switch: in the dynamic file (which wins) and as the Environment's fallback
        s.set("ACCESS_MODE", "OPEN");
        s.dynamic("ACCESS_MODE", "OPEN");
        // many submissions per person in a few seconds: no rate limiting (0 = off, docs/configuration.md)
        s.dynamic("APPLY_RATE_LIMIT", "0");
        return s;
    }

    /** How many targets the sandbox catalog has; {@link #plainTargets(int)} adds after them. */
    private static final int SANDBOX_TARGETS = 3;

    /**
     * Adds {@code count} plain (not batchable) targets {@code team-db-01}, {@code team-db-02}, ... to
     * the catalog, each with its own grant file {@code grants/team-db-NN.txt}. Tests that run many
     * requests at once spread them over these: requests for one target edit one file, and merge
     * requests editing the same file conflict with each other (see system-tests/README.md).
     */
    public InstanceSettings plainTargets(int count) {
        for (int i = 1; i <= count; i++) {
            var key = plainTargetKey(i);
            target(this, SANDBOX_TARGETS + i - 1, key, "Team database " + i + ", read-only",
                    "A test target with a grant file of its own", "grants/" + key + ".txt", false);
        }
        return this;
    }

    /** The key of the {@code n}-th (from 1) target of {@link #plainTargets(int)}. */
    public static String plainTargetKey(int n) {
        return String.format("team-db-%02d", n);
    }

    /** The catalog of {@code application-sandbox.yml}: one plain target and two batchable ones. */
    private static void catalog(InstanceSettings s) {
        target(s, 0, "db-prod-readonly", "Production database, read-only",
                "SELECT on the production reporting replica", "grants/db-prod-readonly.txt", false);
        target(s, 1, "dashboards-viewer", "Dashboards, viewer", "View the operations dashboards",
                "grants/dashboards-viewer.txt", true);
        target(s, 2, "vpn-staging", "VPN to staging", "Network access to the staging environment",
                "grants/vpn-staging.txt", true);
    }

    private static void target(InstanceSettings s, int index, String key, String name, String description,
                               String file, boolean batchable) {
        var prefix = "changeflow.catalog.targets[" + index + "].";
        s.set(prefix + "key", key);
        s.set(prefix + "name", name);
        s.set(prefix + "description", description);
        s.set(prefix + "project", SimulatorHost.PROJECT);
        s.set(prefix + "file-path", file);
        s.set(prefix + "batchable", String.valueOf(batchable));
        s.set(prefix + "ask-for", "anyone"); // people ask for the test's service accounts, as in the sandbox
    }

    /** The GitLab, approval and deploy simulators of {@code sims}, their bots and callback secrets. */
    public InstanceSettings simulators(SimulatorHost sims) {
        set("changeflow.gitlab.base-url", sims.gitlabBaseUrl());
        set("changeflow.gitlab.author.account", sims.property("sandbox.gitlab.author.username"));
        set("changeflow.gitlab.author.token", sims.property("sandbox.gitlab.author.token"));
        for (int i = 0; i < 2; i++) {
            set("changeflow.gitlab.approvers[" + i + "].account", sims.property("sandbox.gitlab.approvers[" + i + "].username"));
            set("changeflow.gitlab.approvers[" + i + "].token", sims.property("sandbox.gitlab.approvers[" + i + "].token"));
        }
        set("changeflow.approval.base-url", sims.approvalBaseUrl());
        set("changeflow.callbacks.approval.secrets", sims.approvalSecret());
        set("changeflow.callbacks.deploy.secrets", sims.deploySecret());
        return this;
    }

    /**
     * The database. {@code jdbcUrl} should carry {@code connectionTimeZone=UTC&forceConnectionTimeZoneToSession=true}
     * (test-support's URLs do).
     */
    public InstanceSettings database(String jdbcUrl, String user, String password) {
        set("spring.datasource.url", jdbcUrl);
        set("spring.datasource.username", user);
        set("spring.datasource.password", password == null ? "" : password);
        return this;
    }

    /** A Spring property; null removes it. */
    public InstanceSettings set(String key, Object value) {
        Objects.requireNonNull(key, "key");
        if (value == null) {
            properties.remove(key);
        } else {
            properties.put(key, String.valueOf(value));
        }
        return this;
    }

    /** A key of the dynamic configuration file written before start; null removes it. */
    public InstanceSettings dynamic(String key, String value) {
        if (value == null) {
            dynamic.remove(key);
        } else {
            dynamic.put(key, value);
        }
        return this;
    }

    /** A JVM option such as {@code -Xmx256m}. */
    public InstanceSettings jvm(String option) {
        jvmOptions.add(option);
        return this;
    }

    /** Drops every JVM option set so far. */
    public InstanceSettings clearJvmOptions() {
        jvmOptions.clear();
        return this;
    }

    public Map<String, String> properties() {
        return Map.copyOf(properties);
    }

    public String property(String key) {
        return properties.get(key);
    }

    /** The dynamic configuration file's keys, in order; empty: no file is written (the app creates its own). */
    public Map<String, String> dynamicConfig() {
        return new LinkedHashMap<>(dynamic);
    }

    public List<String> jvmOptions() {
        return List.copyOf(jvmOptions);
    }

    /** The command-line arguments: {@code --key=value} per property, in insertion order. */
    public List<String> arguments() {
        var args = new ArrayList<String>();
        properties.forEach((k, v) -> args.add("--" + k + "=" + v));
        return args;
    }

    public InstanceSettings copy() {
        var copy = new InstanceSettings();
        copy.properties.putAll(properties);
        copy.dynamic.putAll(dynamic);
        copy.jvmOptions.addAll(jvmOptions);
        return copy;
    }
}
