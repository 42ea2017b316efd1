package io.changeflow.systemtest.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The previous release's executable jar, built from this repository's history: the commit recorded in
 * {@code system-tests/previous-release.properties} ({@code commit}, {@code version}; the commit and not the tag, so a
 * clone without tags works). The first call builds it and keeps it at
 * {@code target/previous-release/<commit>/changeflow.jar}; later calls (and later builds that keep {@code target/})
 * reuse it.
 *
 * <p>The build: {@code git archive <commit>} into {@code target/previous-release/<commit>/src}, the current tree's
 * {@code frontend/node_modules} and {@code api-contract/node_modules} copied in as hard links (the old build finds
 * its npm dependencies installed and needs no network when the lock files are the same), then
 * {@code ./mvnw -B -q package -DskipTests -Dfrontend.skipTests=true -pl bootstrap -am} there, offline when the outer
 * build is ({@code -Dchangeflow.previousRelease.offline=offline=true}, the pom passes {@code offline=${settings.offline}}). It never
 * installs anything into the local repository. Any failure throws with the build's log: a missing previous release is
 * a failed test, never a skipped one.
 *
 * <p>System properties (the pom sets them): {@code changeflow.previousRelease.file} (the properties file),
 * {@code changeflow.previousRelease.dir} (where jars are kept), {@code changeflow.repositoryRoot}.
 */
public final class PreviousRelease {

    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(20);

    private final String version;
    private final String commit;
    private final Path repositoryRoot;
    private final Path home;

    private PreviousRelease(String version, String commit, Path repositoryRoot, Path home) {
        this.version = version;
        this.commit = commit;
        this.repositoryRoot = repositoryRoot;
        this.home = home;
    }

    /** The recorded previous release, from the system properties (defaults: run from the system-tests folder). */
    public static PreviousRelease recorded() {
        var file = Path.of(System.getProperty("changeflow.previousRelease.file", "previous-release.properties"))
                .toAbsolutePath().normalize();
        var properties = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the previous release's record " + file, e);
        }
        var commit = properties.getProperty("commit", "").strip();
        var version = properties.getProperty("version", "").strip();
        if (!commit.matches("[0-9a-f]{40}") || version.isEmpty()) {
            throw new IllegalStateException(file + " must name the previous release's full commit (40 hex digits) and"
                    + " its version; found commit='" + commit + "' version='" + version + "'");
        }
        var root = Path.of(System.getProperty("changeflow.repositoryRoot", "..")).toAbsolutePath().normalize();
        var home = Path.of(System.getProperty("changeflow.previousRelease.dir", "target/previous-release"))
                .toAbsolutePath().normalize();
        return new PreviousRelease(version, commit, root, home);
    }

    public String version() {
        return version;
    }

    public String commit() {
        return commit;
    }

    /** The folder of this release's build: {@code <dir>/<commit>}. */
    public Path folder() {
        return home.resolve(commit);
    }

    /** The jar, built first when it is not there yet. */
    public synchronized Path jar() {
        var jar = folder().resolve("changeflow.jar");
        if (Files.isRegularFile(jar)) {
            return jar;
        }
        build(jar);
        return jar;
    }

    private void build(Path jar) {
        var folder = folder();
        var src = folder.resolve("src");
        var log = folder.resolve("build.log");
        var started = System.nanoTime();
        try {
            deleteTree(src);
            Files.createDirectories(src);
            var tar = folder.resolve("src.tar");
            run(List.of("git", "-C", repositoryRoot.toString(), "archive", "--format=tar", "-o", tar.toString(), commit),
                    folder, log, Duration.ofMinutes(2),
                    "git cannot export the previous release's commit " + commit + " (a shallow clone? fetch the history:"
                            + " git fetch --unshallow)");
            run(List.of("tar", "-xf", tar.toString(), "-C", src.toString()), folder, log, Duration.ofMinutes(2),
                    "cannot unpack the previous release's tree");
            Files.delete(tar);
            for (var npmProject : List.of("frontend", "api-contract")) {
                var modules = repositoryRoot.resolve(npmProject).resolve("node_modules");
                if (Files.isDirectory(modules) && Files.isDirectory(src.resolve(npmProject))) {
                    // hard links: fast, and an `npm ci` of the old build replaces files, it never writes through them
                    run(List.of("cp", "-al", modules.toString(), src.resolve(npmProject).toString() + "/"), folder, log,
                            Duration.ofMinutes(2), "cannot copy " + modules);
                }
            }
            var command = new ArrayList<>(List.of("./mvnw", "-B", "-q"));
            if (System.getProperty("changeflow.previousRelease.offline", "").endsWith("true")) {
                command.add("-o");
            }
            // the exported tree has no .git (git there would answer this checkout's HEAD): the commit is given
            command.addAll(List.of("package", "-DskipTests", "-Dfrontend.skipTests=true", "-Djacoco.skip=true",
                    "-Dcf.commit=" + commit, "-pl", "bootstrap", "-am"));
            run(command, src, log, BUILD_TIMEOUT, "the previous release " + version + " (" + commit + ") does not build");
            var built = src.resolve("bootstrap").resolve("target").resolve("changeflow.jar");
            if (!Files.isRegularFile(built)) {
                throw new IllegalStateException("the previous release's build left no " + built + "; log " + log);
            }
            var temp = folder.resolve("changeflow.jar.tmp");
            Files.copy(built, temp, StandardCopyOption.REPLACE_EXISTING);
            Files.move(temp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            deleteTree(src);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build the previous release in " + folder, e);
        }
        Figures.record("previous release " + version + " (" + commit.substring(0, 12) + ") built from the repository",
                "in " + Duration.ofNanos(System.nanoTime() - started).toSeconds() + " s; kept as " + jar);
    }

    private static void run(List<String> command, Path dir, Path log, Duration timeout, String failure) {
        var builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()));
        // the build runs on the JDK of the tests (21+, as the enforcer demands)
        builder.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
        // git stops looking for a repository above the exported tree (else it finds this checkout's)
        builder.environment().put("GIT_CEILING_DIRECTORIES", dir.getParent().toString());
        try {
            Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            var process = builder.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(failure + ": no end within " + timeout.toMinutes() + " min; log " + log
                        + ":\n" + tail(log));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(failure + " (exit " + process.exitValue() + "); log " + log + ":\n"
                        + tail(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(failure + ": cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(failure + ": interrupted", e);
        }
    }

    private static String tail(Path log) {
        try {
            var lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(log not readable: " + e + ")";
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (var path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
