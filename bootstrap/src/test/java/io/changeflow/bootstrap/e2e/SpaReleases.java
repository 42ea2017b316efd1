package io.changeflow.bootstrap.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Simulated releases of the web app on the running server. The web adapter serves the SPA from
 * {@code classpath:/static/} (WebMvcSetup's resource handlers and SpaController's
 * {@code static/index.html}, no setting to point it elsewhere), so a release is written into a
 * {@code static/} folder in the test classes directory, which comes before the frontend jar on the
 * test classpath and is looked up on every request (no resource caching: {@code resourceChain(false)}).
 *
 * <p>A build is the packaged build (the frontend jar's {@code static/}) with every hashed asset renamed
 * for that build ({@code OpsApp-<hash>.js} becomes {@code OpsApp-<hash>-<build>.js}, and every reference in
 * {@code index.html}, scripts and styles with it) plus {@code <meta name="e2e-build" content="<build>">} in
 * its page, so each build's chunks exist only while it is deployed and a page can tell which build it is.
 * {@link #deploy} swaps the page and removes the previous build's assets, as a release to a server does.
 * {@link #close} removes the folder: the server serves the packaged build again.
 */
final class SpaReleases implements AutoCloseable {

    private static final Pattern ASSET = Pattern.compile("^assets/([A-Za-z0-9_]+-[A-Za-z0-9_-]+)\\.(js|css)$");

    private final Path root;
    /** The packaged build: path below {@code static/} to content. */
    private final Map<String, byte[]> packaged;
    private Map<String, byte[]> deployed = Map.of();

    private SpaReleases(Path root, Map<String, byte[]> packaged) {
        this.root = root;
        this.packaged = packaged;
    }

    /** Reads the packaged build from the classpath (before anything is deployed over it). */
    static SpaReleases open() {
        var root = testClassesStatic();
        delete(root);
        var packaged = new TreeMap<String, byte[]>();
        try {
            for (var resource : new PathMatchingResourcePatternResolver().getResources("classpath*:static/**/*.*")) {
                var url = resource.getURL().toString();
                var path = url.substring(url.lastIndexOf("static/") + "static/".length());
                try (var in = resource.getInputStream()) {
                    packaged.put(path, in.readAllBytes());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!packaged.containsKey("index.html") || packaged.keySet().stream().noneMatch(p -> ASSET.matcher(p).matches())) {
            throw new IllegalStateException("no built web app on the classpath (static/index.html and static/assets/*): "
                    + packaged.keySet());
        }
        return new SpaReleases(root, packaged);
    }

    /** Deploys {@code build} (a short name such as {@code A}): its assets first, then its page, then the previous build's assets go. */
    void deploy(String build) {
        var files = build(build);
        try {
            for (var entry : files.entrySet()) {
                if (!entry.getKey().equals("index.html")) {
                    write(entry.getKey(), entry.getValue());
                }
            }
            write("index.html", files.get("index.html"));
            for (var old : deployed.keySet()) {
                if (!files.containsKey(old)) {
                    Files.deleteIfExists(root.resolve(old));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        deployed = files;
    }

    /** The asset file name of {@code chunk} (e.g. {@code OpsApp}) in {@code build}. */
    String assetOf(String build, String chunk) {
        return build(build).keySet().stream()
                .filter(p -> p.startsWith("assets/" + chunk + "-"))
                .findFirst().orElseThrow(() -> new IllegalStateException("no chunk " + chunk + " in " + packaged.keySet()));
    }

    Map<String, byte[]> build(String build) {
        var renames = new LinkedHashMap<String, String>();
        for (var path : packaged.keySet()) {
            var m = ASSET.matcher(path);
            if (m.matches()) {
                renames.put(m.group(1) + "." + m.group(2), m.group(1) + "-" + build + "." + m.group(2));
            }
        }
        var files = new TreeMap<String, byte[]>();
        for (var entry : packaged.entrySet()) {
            var path = entry.getKey();
            var content = entry.getValue();
            if (path.equals("index.html") || path.endsWith(".js") || path.endsWith(".css")) {
                var text = new String(content, StandardCharsets.UTF_8);
                for (var rename : renames.entrySet()) {
                    text = text.replace(rename.getKey(), rename.getValue());
                }
                if (path.equals("index.html")) {
                    text = text.replaceFirst("(?i)<head>", "<head><meta name=\"e2e-build\" content=\"" + build + "\">");
                }
                content = text.getBytes(StandardCharsets.UTF_8);
            }
            var m = ASSET.matcher(path);
            files.put(m.matches() ? "assets/" + renames.get(m.group(1) + "." + m.group(2)) : path, content);
        }
        return files;
    }

    @Override
    public void close() {
        delete(root);
        deployed = Map.of();
    }

    private void write(String path, byte[] content) throws IOException {
        var target = root.resolve(path);
        Files.createDirectories(target.getParent());
        var temp = Files.createTempFile(target.getParent(), ".deploy", ".tmp");
        Files.write(temp, content);
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** {@code static/} in the directory this class was loaded from (target/test-classes). */
    private static Path testClassesStatic() {
        try {
            var classes = Path.of(SpaReleases.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isDirectory(classes)) {
                throw new IllegalStateException("the tests do not run from a classes directory: " + classes);
            }
            return classes.resolve("static");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (var path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
