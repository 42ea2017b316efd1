package io.changeflow.adapter.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.settings.Settings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class FileDynamicConfigTest {

    @TempDir
    Path dir;

    private final StandardEnvironment environment = new StandardEnvironment();

    private FileDynamicConfig start(Path file) {
        return new FileDynamicConfig(file, environment, Duration.ofHours(1), template()).start();
    }

    private static String template() {
        try (var in = FileDynamicConfigTest.class.getResourceAsStream("/io/changeflow/adapter/local/dynamic-defaults.properties")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void onFirstStartTheFileIsCreatedWithEveryKeyCommentedOut() throws IOException {
        var file = dir.resolve("config/dynamic.properties");
        try (var config = start(file)) {
            var text = Files.readString(file);
            for (var described : new Settings(config).describeAll()) {
                assertThat(text).contains("#" + described.key() + "=");
                assertThat(config.get(described.key())).isEmpty();
            }
            assertThat(text).contains("#" + Settings.RATE_LIMIT_SCOPE + "=").contains("#" + Settings.RATE_LIMIT_WINDOW_SECONDS + "=");
        }
    }

    @Test
    void anExistingFileIsNeverOverwritten() throws IOException {
        var file = dir.resolve("dynamic.properties");
        Files.writeString(file, "ACCESS_MODE=OPEN\n");
        try (var config = start(file)) {
            assertThat(config.get("ACCESS_MODE")).hasValue("OPEN");
            assertThat(Files.readString(file)).isEqualTo("ACCESS_MODE=OPEN\n");
        }
    }

    @Test
    void aPathThatIsADirectoryReadsAsMissing() throws IOException {
        var file = dir.resolve("dynamic.properties");
        Files.createDirectories(file);
        try (var config = start(file)) {
            assertThat(config.get("ACCESS_MODE")).isEmpty();
        }
    }

    @Test
    void anOversizedFileReadsAsMissing() throws IOException {
        var file = dir.resolve("dynamic.properties");
        Files.writeString(file, "ACCESS_MODE=OPEN\n#" + "x".repeat(1_100_000) + "\n");
        try (var config = start(file)) {
            assertThat(config.get("ACCESS_MODE")).isEmpty();
        }
    }

    @Test
    void theFileWinsOverTheEnvironmentWhichAnswersWhatTheFileLacks() throws IOException {
        environment.getPropertySources().addFirst(new MapPropertySource("center", Map.of("ACCESS_MODE", "CLOSED", "approver.mode", "DIRECT_HTTP")));
        var file = dir.resolve("dynamic.properties");
        Files.writeString(file, "ACCESS_MODE=OPEN\napprover.mode=\n");
        try (var config = start(file)) {
            assertThat(config.get("ACCESS_MODE")).hasValue("OPEN");
            assertThat(config.sourceOf("ACCESS_MODE")).hasValue(FileDynamicConfig.FILE_SOURCE);
            assertThat(config.get("approver.mode")).hasValue("DIRECT_HTTP");
            assertThat(config.sourceOf("approver.mode")).hasValue(FileDynamicConfig.ENVIRONMENT_SOURCE);
            assertThat(config.sourceOf("workflow.approveFirst")).isEmpty();
        }
    }

    @Test
    void aRefreshedEnvironmentAppliesWithoutAnyReload() throws IOException {
        var center = new java.util.HashMap<String, Object>();
        environment.getPropertySources().addFirst(new MapPropertySource("center", center));
        try (var config = start(dir.resolve("dynamic.properties"))) {
            assertThat(config.get("APPLY_RATE_LIMIT")).isEmpty();
            center.put("APPLY_RATE_LIMIT", "4");
            assertThat(config.get("APPLY_RATE_LIMIT")).hasValue("4");
        }
    }

    @Test
    void anEnvironmentThatThrowsReadsAsMissing() {
        environment.getPropertySources().addFirst(new MapPropertySource("broken", Map.of("ACCESS_MODE", "${undefined.placeholder}")));
        try (var config = start(dir.resolve("dynamic.properties"))) {
            assertThat(config.get("ACCESS_MODE")).isEmpty();
        }
    }

    @Test
    void twoQuickEditsOfTheSameSizeAreBothSeen() throws IOException {
        var file = dir.resolve("dynamic.properties");
        Files.writeString(file, "ACCESS_MODE=OPEN\n");
        try (var config = start(file)) {
            Files.writeString(file, "ACCESS_MODE=SHUT\n");
            config.refresh();
            assertThat(config.get("ACCESS_MODE")).hasValue("SHUT");
        }
    }
}
