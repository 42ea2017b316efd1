package io.changeflow.adapter.local;

import io.changeflow.application.port.out.ConfigSources;
import io.changeflow.application.port.out.DynamicConfig;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.env.Environment;

/**
 * The embedded configuration center: a watched properties file ({@code config/dynamic.properties}
 * under the working directory by default, {@code changeflow.dynamic-config.file}), with Spring's
 * {@link Environment} as the second source so a Spring Cloud Config, Consul or Nacos refresh
 * applies as well.
 *
 * <p>Precedence, per key: a non-blank value in the file wins; otherwise the Environment's value
 * (which itself follows Spring's order: command line, system properties, OS environment,
 * application properties, ...); otherwise the key is missing. A blank value counts as not set.
 *
 * <p>Hot reload: a single daemon thread polls the file's modification time, size and identity every
 * {@code changeflow.dynamic-config.poll-interval} (default 2 s) and swaps in a new snapshot when
 * they change; reads never touch the disk. On first start a missing file is created with every key
 * commented out (so every key is missing and takes its documented default).
 *
 * <p>Failure behaviour: never throws. A file that is missing, empty, unreadable, larger than 1 MiB,
 * not UTF-8 or not parsable as properties reads as "no keys from the file" (each key's fallback
 * then applies, unless the Environment has it); a file that cannot be created is logged and read as
 * missing. Recovery is automatic on the next poll after the file is fixed.
 */
public final class FileDynamicConfig implements DynamicConfig, ConfigSources, AutoCloseable {

    static final String FILE_SOURCE = "file";
    static final String ENVIRONMENT_SOURCE = "environment";

    private static final Logger log = LoggerFactory.getLogger(FileDynamicConfig.class);
    private static final long MAX_FILE_BYTES = 1024 * 1024;
    /** File timestamps are coarse: a file modified this recently is re-read even if its stamp looks unchanged. */
    private static final long RACY_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final Path file;
    private final Environment environment;
    private final Duration pollInterval;
    private final String template;
    private final ScheduledExecutorService watcher;
    private volatile Snapshot snapshot = new Snapshot(Map.of(), FileStamp.MISSING);

    private record Snapshot(Map<String, String> values, FileStamp stamp) {}

    private record FileStamp(boolean exists, long modifiedNanos, long size, Object fileKey) {
        static final FileStamp MISSING = new FileStamp(false, 0, 0, null);
    }

    public FileDynamicConfig(Path file, Environment environment, Duration pollInterval, String template) {
        this.file = file.toAbsolutePath().normalize();
        this.environment = environment;
        this.pollInterval = pollInterval;
        this.template = template;
        this.watcher = Executors.newSingleThreadScheduledExecutor(task -> {
            var thread = new Thread(task, "dynamic-config-watch");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Creates the file with commented defaults if missing, loads it, and starts watching it. */
    public FileDynamicConfig start() {
        createIfMissing();
        refresh();
        var millis = Math.max(50, pollInterval.toMillis());
        watcher.scheduleWithFixedDelay(this::refresh, millis, millis, TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public Optional<String> get(String key) {
        try {
            var fromFile = snapshot.values().get(key);
            if (fromFile != null && !fromFile.isBlank()) {
                return Optional.of(fromFile);
            }
            var fromEnvironment = environment.getProperty(key);
            return fromEnvironment == null || fromEnvironment.isBlank() ? Optional.empty() : Optional.of(fromEnvironment);
        } catch (RuntimeException e) {
            log.debug("dynamic config key {} unreadable; treated as missing", key, e);
            return Optional.empty();
        }
    }

    /** Which source answers {@code key}: {@value #FILE_SOURCE}, {@value #ENVIRONMENT_SOURCE}, or empty when missing. */
    @Override
    public Optional<String> sourceOf(String key) {
        var fromFile = snapshot.values().get(key);
        if (fromFile != null && !fromFile.isBlank()) {
            return Optional.of(FILE_SOURCE);
        }
        return get(key).map(v -> ENVIRONMENT_SOURCE);
    }

    public Path file() {
        return file;
    }

    /**
     * Re-reads the file if it changed since the last look (or was modified so recently that two
     * edits could share one timestamp). Never throws. Synchronized: the watcher and a direct caller (a test, an
     * operator's refresh) never interleave, so an older read can never replace a newer snapshot.
     */
    public synchronized void refresh() {
        try {
            var stamp = stamp();
            var previous = snapshot;
            var racy = stamp.exists() && System.currentTimeMillis() * 1_000_000 - stamp.modifiedNanos() < RACY_NANOS;
            if (stamp.equals(previous.stamp()) && !racy) {
                return;
            }
            var values = stamp.exists() ? load() : Map.<String, String>of();
            snapshot = new Snapshot(values, stamp);
            if (!values.equals(previous.values()) || stamp.exists() != previous.stamp().exists()) {
                log.info("dynamic config {}: {} key(s) set in the file", file, values.size());
            }
        } catch (RuntimeException e) {
            log.warn("dynamic config {} could not be checked; keeping the last snapshot", file, e);
        }
    }

    private FileStamp stamp() {
        try {
            var attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return new FileStamp(true, attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS), attributes.size(),
                    attributes.fileKey());
        } catch (IOException e) {
            return FileStamp.MISSING;
        }
    }

    private Map<String, String> load() {
        try {
            if (!Files.isRegularFile(file)) {
                log.warn("dynamic config {} is not a regular file; all keys read as missing", file);
                return Map.of();
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                log.warn("dynamic config {} is larger than {} bytes; all keys read as missing", file, MAX_FILE_BYTES);
                return Map.of();
            }
            var text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
            var properties = new Properties();
            properties.load(new StringReader(text));
            var values = new HashMap<String, String>();
            properties.forEach((k, v) -> values.put(String.valueOf(k).strip(), String.valueOf(v).strip()));
            return Map.copyOf(values);
        } catch (CharacterCodingException e) {
            log.warn("dynamic config {} is not valid UTF-8; all keys read as missing", file);
            return Map.of();
        } catch (IOException | IllegalArgumentException e) {
            log.warn("dynamic config {} is unreadable or garbled; all keys read as missing", file, e);
            return Map.of();
        }
    }

    private void createIfMissing() {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            var parent = Objects.requireNonNullElse(file.getParent(), Path.of("."));
            Files.createDirectories(parent);
            Files.writeString(file, template, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
            log.info("dynamic config {} created with commented defaults", file);
        } catch (IOException | RuntimeException e) {
            log.warn("dynamic config {} could not be created; all keys read as missing until it exists", file, e);
        }
    }

    @Override
    public void close() {
        watcher.shutdownNow();
    }
}
