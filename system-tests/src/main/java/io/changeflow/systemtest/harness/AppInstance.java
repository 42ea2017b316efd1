package io.changeflow.systemtest.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One Changeflow instance: {@code java -jar changeflow.jar} as a child process of the test JVM, on
 * a free loopback port, in its own working directory (its dynamic configuration file lives there,
 * under {@code config/dynamic.properties}), its output appended to {@code <name>.log} in the output
 * directory.
 *
 * <ul>
 *   <li>{@link #start()} launches and waits (bounded) for {@code /actuator/health} UP; it fails with
 *       the log's tail when the process dies or the deadline passes. A stopped or killed instance can
 *       be started again (same name, port and directory).</li>
 *   <li>{@link #kill()} is SIGKILL ({@link Process#destroyForcibly()} on Linux): no shutdown hook, no
 *       graceful anything, like a crashed host. {@link #stop()} is SIGTERM: the graceful shutdown.</li>
 *   <li>{@link #close()} kills whatever still runs, children included (e.g. the embedded MariaDB of
 *       the sandbox profile); {@link ChangeflowCluster} does it after each test class, and a JVM
 *       shutdown hook as a last resort.</li>
 * </ul>
 */
public final class AppInstance implements AutoCloseable {

    /** Told when an instance comes up or goes down (e.g. to route callbacks to it). */
    public interface Listener {
        void up(AppInstance instance);

        void down(AppInstance instance);
    }

    private static final List<AppInstance> LIVE = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (LIVE) {
                LIVE.forEach(AppInstance::close);
            }
        }, "system-test-instances-cleanup"));
    }

    private final String name;
    private final InstanceSettings settings;
    private final Path jar;
    private final Path workDir;
    private final Path logFile;
    private final int port;
    private final Listener listener;
    private final List<ProcessHandle> orphans = new ArrayList<>();
    private volatile Process process;
    private volatile Duration lastStartup;

    private AppInstance(String name, InstanceSettings settings, Path jar, Path workDir, Path logFile, int port,
                        Listener listener) {
        this.name = name;
        this.settings = settings;
        this.jar = jar;
        this.workDir = workDir;
        this.logFile = logFile;
        this.port = port;
        this.listener = listener;
    }

    /**
     * Prepares (does not start) an instance.
     *
     * @param name      also the scheduler's name ({@code scheduled_tasks.picked_by}) unless the settings name one
     * @param settings  copied; {@code server.port} is set here
     * @param outputDir where the working directory {@code <name>/} and the log {@code <name>.log} go
     * @param listener  may be null
     */
    public static AppInstance prepare(String name, InstanceSettings settings, Path outputDir, Listener listener) {
        return prepare(name, settings, outputDir, ChangeflowJar.locate(), listener);
    }

    /** {@link #prepare(String, InstanceSettings, Path, Listener)} of another jar (e.g. the {@link PreviousRelease}'s). */
    public static AppInstance prepare(String name, InstanceSettings settings, Path outputDir, Path jar, Listener listener) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jar, "jar");
        var port = FreePorts.pick();
        var own = settings.copy().set("server.port", port);
        if (own.property("changeflow.scheduler.name") == null && own.property("spring.datasource.url") != null) {
            own.set("changeflow.scheduler.name", name);
        }
        var workDir = outputDir.resolve(name);
        try {
            Files.createDirectories(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + workDir, e);
        }
        return new AppInstance(name, own, jar, workDir, outputDir.resolve(name + ".log"), port, listener);
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:<port>} */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * Where the actuator answers: {@code http://127.0.0.1:<management.server.port>} when the instance has a separate
     * management port, else {@link #baseUrl()}.
     */
    public URI managementUrl() {
        var management = settings.property("management.server.port");
        return management == null || management.isBlank() ? baseUrl() : URI.create("http://127.0.0.1:" + management.strip());
    }

    /** The executable jar this instance runs. */
    public Path jar() {
        return jar;
    }

    public Path workDir() {
        return workDir;
    }

    public Path logFile() {
        return logFile;
    }

    public InstanceSettings settings() {
        return settings.copy();
    }

    /** A client of this instance speaking as {@code user} ({@code X-Forwarded-User}). */
    public ApiClient client(String user) {
        return new ApiClient(baseUrl(), user);
    }

    public boolean isAlive() {
        var p = process;
        return p != null && p.isAlive();
    }

    public long pid() {
        var p = process;
        return p == null ? -1 : p.pid();
    }

    /** How long the last {@link #start()} took until health was UP. */
    public Duration lastStartup() {
        return lastStartup;
    }

    /** Starts and waits up to 120 s (or {@code -Dsystem.startTimeoutSeconds}, for a loaded machine) for health UP. */
    public AppInstance start() {
        return start(Duration.ofSeconds(Long.getLong("system.startTimeoutSeconds", 120)));
    }

    /** Starts the process and waits up to {@code healthTimeout} for {@code /actuator/health} UP (on {@link #managementUrl()}). */
    public synchronized AppInstance start(Duration healthTimeout) {
        if (isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + pid() + ")");
        }
        writeDynamicConfig(settings.dynamicConfig(), false);
        var command = new ArrayList<String>();
        command.add(javaExecutable());
        command.addAll(settings.jvmOptions());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(settings.arguments());
        var started = System.nanoTime();
        try {
            Files.writeString(logFile, "==== " + Instant.now() + " starting " + name + ": " + String.join(" ", command)
                    + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(Redirect.appendTo(logFile.toFile()))
                    .redirectInput(Redirect.from(nullDevice()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
        synchronized (LIVE) {
            LIVE.add(this);
        }
        var health = new ApiClient(managementUrl(), null).withTimeout(Duration.ofSeconds(5));
        var deadline = System.nanoTime() + healthTimeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " during start-up; log " + logFile + ":\n" + logTail(60));
            }
            try {
                var response = health.get("/actuator/health");
                if (response.status() == 200 && "UP".equals(response.json().path("status").asString(""))) {
                    break;
                }
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() - deadline >= 0) {
                var tail = logTail(60);
                kill();
                throw new IllegalStateException(name + " was not healthy within " + healthTimeout.toSeconds()
                        + " s; log " + logFile + ":\n" + tail);
            }
            Poll.pause(Duration.ofMillis(250));
        }
        lastStartup = Duration.ofNanos(System.nanoTime() - started);
        if (listener != null) {
            listener.up(this);
        }
        return this;
    }

    /**
     * SIGKILL, like a crashed host: no shutdown hook runs, steps in flight stay picked until another
     * instance's dead-execution detection takes them over. Children of the process (if any) survive,
     * as they would; {@link #close()} removes them.
     */
    public synchronized void kill() {
        var p = process;
        if (p == null) {
            return;
        }
        orphans.addAll(p.descendants().toList());
        if (listener != null) {
            listener.down(this);
        }
        p.destroyForcibly();
        waitFor(p, Duration.ofSeconds(10));
    }

    /**
     * SIGTERM: the graceful shutdown (running steps may finish, the rest is left to other instances).
     * Waits up to {@code timeout}, then kills.
     *
     * @return the exit code
     */
    public synchronized int stop(Duration timeout) {
        var p = process;
        if (p == null) {
            return -1;
        }
        var children = p.descendants().toList();
        if (listener != null) {
            listener.down(this);
        }
        p.destroy();
        if (!waitFor(p, timeout)) {
            orphans.addAll(p.descendants().toList());
            p.destroyForcibly();
            waitFor(p, Duration.ofSeconds(10));
        }
        // children (an embedded MariaDB) are stopped by the app's own shutdown hook; give them a moment
        for (var child : children) {
            child.onExit().completeOnTimeout(child, 10, TimeUnit.SECONDS).join();
            if (child.isAlive()) {
                orphans.add(child);
            }
        }
        return p.isAlive() ? -1 : p.exitValue();
    }

    /** {@link #stop(Duration)} with 30 s. */
    public int stop() {
        return stop(Duration.ofSeconds(30));
    }

    /** Children the process had when it was stopped or killed that still run. */
    public synchronized List<ProcessHandle> survivingChildren() {
        return orphans.stream().filter(ProcessHandle::isAlive).toList();
    }

    /**
     * Replaces the dynamic configuration file ({@code config/dynamic.properties} under the working
     * directory) with {@code keys}; the running instance picks it up within its poll interval.
     */
    public void writeDynamicConfig(Map<String, String> keys) {
        writeDynamicConfig(keys, true);
    }

    private void writeDynamicConfig(Map<String, String> keys, boolean evenWhenEmpty) {
        if (keys.isEmpty() && !evenWhenEmpty) {
            return;
        }
        var file = workDir.resolve("config").resolve("dynamic.properties");
        var text = new StringBuilder("# written by the system tests at ").append(Instant.now()).append('\n');
        keys.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        try {
            Files.createDirectories(file.getParent());
            // write then move: the instance never reads a half-written file
            var temp = Files.createTempFile(file.getParent(), "dynamic", ".tmp");
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** The last {@code lines} lines of the log. */
    public String logTail(int lines) {
        try {
            var all = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log not readable: " + e + ")";
        }
    }

    /** Kills the process and every child it had; idempotent. */
    @Override
    public synchronized void close() {
        var p = process;
        if (p != null && p.isAlive()) {
            kill();
        }
        for (var orphan : orphans) {
            orphan.destroyForcibly();
        }
        synchronized (LIVE) {
            LIVE.remove(this);
        }
    }

    @Override
    public String toString() {
        return name + "@" + port + (isAlive() ? " (pid " + pid() + ")" : " (down)");
    }

    private static boolean waitFor(Process p, Duration timeout) {
        try {
            return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The {@code java} of the JDK running the tests (under Maven: JAVA_HOME's, a JDK 21+ as the enforcer
     * demands), unless the system property {@code changeflow.java} names another executable.
     */
    static String javaExecutable() {
        var configured = System.getProperty("changeflow.java");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static File nullDevice() {
        return new File(System.getProperty("os.name").startsWith("Windows") ? "NUL" : "/dev/null");
    }
}
