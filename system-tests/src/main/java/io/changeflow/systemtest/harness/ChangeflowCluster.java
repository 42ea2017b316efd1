package io.changeflow.systemtest.harness;

import io.changeflow.testsupport.ClassScoped;
import io.changeflow.testsupport.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Everything a multi-instance system test needs, for one test class: a fresh schema on the test
 * database server ({@link TestDatabase}: {@code DB_URL}, else Testcontainers, else embedded MariaDB),
 * one {@link SimulatorHost} shared by all instances, and any number of {@link AppInstance}s pointed at
 * both ({@link InstanceSettings#clusterDefaults()} plus this cluster's properties). Register it as a
 * static extension; everything is torn down after the class (instances killed, simulators stopped,
 * schema dropped), also when a test fails.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final ChangeflowCluster cluster = ChangeflowCluster.create()
 *         .withInstanceProperty("changeflow.batch.round-interval", "1h")
 *         .withInstances("a", "b");                     // started before the first test, in parallel
 *
 * @Test void something() {
 *     var alice = cluster.client("a", "alice");
 *     cluster.instance("b").kill();
 *     cluster.sims().gitlab().approvedBy(SimulatorHost.PROJECT, 1);
 * }
 * }</pre>
 *
 * <p>Outside JUnit (a benchmark's main method): {@link #open(String)} and {@link #close()}. Output
 * (instance logs and working directories) goes to {@code <system.output>/<class>/}, by default
 * {@code target/system-tests/<class>/}.
 */
public final class ChangeflowCluster implements ClassScoped {

    private final TestDatabase database = TestDatabase.freshSchema().withMaxPoolSize(4);
    private final Map<String, Object> simulatorProperties = new LinkedHashMap<>();
    private final Map<String, String> instanceProperties = new LinkedHashMap<>();
    private final Map<String, String> dynamicConfig = new LinkedHashMap<>();
    private final List<String> initialInstances = new ArrayList<>();
    private int plainTargets;
    private final Map<String, AppInstance> instances = new LinkedHashMap<>();
    private SimulatorHost sims;
    private Path outputDir;

    private ChangeflowCluster() {
    }

    public static ChangeflowCluster create() {
        return new ChangeflowCluster();
    }

    /** A setting of the simulator host, replacing one of {@link SimulatorHost#defaults(int)}. */
    public ChangeflowCluster withSimulatorProperty(String key, Object value) {
        simulatorProperties.put(key, value);
        return this;
    }

    /** A Spring property of every instance, over {@link InstanceSettings#clusterDefaults()}. */
    public ChangeflowCluster withInstanceProperty(String key, Object value) {
        instanceProperties.put(key, String.valueOf(value));
        return this;
    }

    /** A key of every instance's dynamic configuration file at start. */
    public ChangeflowCluster withDynamicConfig(String key, String value) {
        dynamicConfig.put(key, value);
        return this;
    }

    /** Adds {@code count} plain targets to every instance's catalog ({@link InstanceSettings#plainTargets(int)}). */
    public ChangeflowCluster withPlainTargets(int count) {
        plainTargets = count;
        return this;
    }

    /** Instances started (in parallel) before the first test. */
    public ChangeflowCluster withInstances(String... names) {
        initialInstances.addAll(List.of(names));
        return this;
    }

    /** Creates the schema, starts the simulators and the initial instances. */
    @Override
    public synchronized ChangeflowCluster open(String name) {
        if (sims != null) {
            return this;
        }
        outputDir = Path.of(System.getProperty("system.output", "target/system-tests")).resolve(name).toAbsolutePath();
        database.open(name);
        // which server the packaged app runs on (DB_URL, e.g. CI's MariaDB 10.11 pass, or the embedded one)
        System.out.println("cluster " + name + ": schema " + database.schema() + " on " + database.server().kind()
                + " " + database.server().address());
        try {
            sims = SimulatorHost.start(simulatorProperties);
            if (!initialInstances.isEmpty()) {
                startAll(initialInstances.toArray(String[]::new));
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        return this;
    }

    /** The settings a new instance gets: cluster defaults, this database and simulators, this cluster's properties. */
    public InstanceSettings settings() {
        var settings = InstanceSettings.clusterDefaults()
                .database(database.jdbcUrl(), database.user(), database.password())
                .simulators(sims)
                .plainTargets(plainTargets);
        instanceProperties.forEach(settings::set);
        dynamicConfig.forEach(settings::dynamic);
        return settings;
    }

    /** Starts instance {@code name} (waits for health UP) and routes callbacks to it. */
    public AppInstance start(String name) {
        return start(name, settings -> { });
    }

    /** Starts instance {@code name} with its settings adjusted by {@code customize}. */
    public AppInstance start(String name, Consumer<InstanceSettings> customize) {
        var instance = prepare(name, ChangeflowJar.locate(), customize);
        instance.start();
        return instance;
    }

    /** Starts instance {@code name} from another executable jar (e.g. the {@link PreviousRelease}'s), with the same settings. */
    public AppInstance start(String name, Path jar) {
        var instance = prepare(name, jar, settings -> { });
        instance.start();
        return instance;
    }

    /** Starts several instances at once (in parallel: a rolling start on one fresh schema). */
    public List<AppInstance> startAll(String... names) {
        return startAll(ChangeflowJar.locate(), names);
    }

    /** {@link #startAll(String...)} from another executable jar (e.g. the {@link PreviousRelease}'s). */
    public List<AppInstance> startAll(Path jar, String... names) {
        var prepared = new ArrayList<AppInstance>();
        for (var name : names) {
            prepared.add(prepare(name, jar, settings -> { }));
        }
        var starts = prepared.stream().map(i -> CompletableFuture.runAsync(i::start)).toList();
        try {
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        return prepared;
    }

    private synchronized AppInstance prepare(String name, Path jar, Consumer<InstanceSettings> customize) {
        if (instances.containsKey(name)) {
            throw new IllegalStateException("instance " + name + " exists; start it again with instance(name).start()");
        }
        var settings = settings();
        customize.accept(settings);
        var relay = sims.relay();
        var instance = AppInstance.prepare(name, settings, outputDir, jar, new AppInstance.Listener() {
            @Override
            public void up(AppInstance i) {
                relay.add(i.baseUrl());
            }

            @Override
            public void down(AppInstance i) {
                relay.remove(i.baseUrl());
            }
        });
        instances.put(name, instance);
        return instance;
    }

    public synchronized AppInstance instance(String name) {
        var instance = instances.get(name);
        if (instance == null) {
            throw new IllegalArgumentException("no instance " + name + "; known: " + instances.keySet());
        }
        return instance;
    }

    public synchronized List<AppInstance> instances() {
        return List.copyOf(instances.values());
    }

    /** The instances whose process runs. */
    public synchronized List<AppInstance> liveInstances() {
        return instances.values().stream().filter(AppInstance::isAlive).toList();
    }

    /** A client of instance {@code name} speaking as {@code user}. */
    public ApiClient client(String name, String user) {
        return instance(name).client(user);
    }

    /** Replaces the dynamic configuration file of every instance: the cluster's keys plus {@code overrides}. */
    public void writeDynamicConfig(Map<String, String> overrides) {
        for (var instance : instances()) {
            var keys = instance.settings().dynamicConfig();
            keys.putAll(overrides);
            instance.writeDynamicConfig(keys);
        }
    }

    public SimulatorHost sims() {
        return sims;
    }

    public TestDatabase database() {
        return database;
    }

    /** A small pool on the cluster's schema, for assertions straight on the tables. */
    public DataSource dataSource() {
        return database.dataSource();
    }

    public Path outputDir() {
        return outputDir;
    }

    /** Kills every instance, stops the simulators, drops the schema. Idempotent. */
    @Override
    public synchronized void close() {
        for (var instance : instances.values()) {
            try {
                instance.close();
            } catch (RuntimeException e) {
                System.err.println("cannot stop " + instance + ": " + e);
            }
        }
        instances.clear();
        if (sims != null) {
            sims.close();
            sims = null;
        }
        database.close();
    }

    /** The timeout most waits of a test on this cluster use. */
    public static Duration defaultTimeout() {
        return Duration.ofSeconds(Long.getLong("system.timeoutSeconds", 90));
    }
}
