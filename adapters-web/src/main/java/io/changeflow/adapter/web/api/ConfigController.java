package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.application.port.out.ConfigSources;
import io.changeflow.application.settings.Settings;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ops/config}: every dynamic setting as the service sees it right now: raw value,
 * resolved value, the fallback rule that produced it, and which source answered (file, environment,
 * or none). Protected by the operations authorization like every {@code /ops/**} path.
 */
@RestController
public final class ConfigController {

    /** One setting. {@code raw} and {@code source} are null when the key is missing. */
    record ConfigEntry(String key, @Nullable String raw, String resolved, @Nullable String rule, @Nullable String source) {}

    private final Settings settings;
    private final ConfigSources sources;

    public ConfigController(Settings settings, ConfigSources sources) {
        this.settings = settings;
        this.sources = sources;
    }

    @Answers(summary = "Every dynamic setting as resolved now")
    @GetMapping("/ops/config")
    ApiResponse<List<ConfigEntry>> config() {
        return ApiResponse.ok(settings.describeAll().stream()
                .map(d -> new ConfigEntry(d.key(), d.raw().orElse(null), d.resolved(), d.rule(),
                        sources.sourceOf(d.key()).orElse(null)))
                .toList());
    }
}
