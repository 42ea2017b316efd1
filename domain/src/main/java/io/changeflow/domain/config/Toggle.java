package io.changeflow.domain.config;

import java.util.Optional;

/** An on/off switch that is off unless it says exactly {@code true} (trimmed, any case). */
public final class Toggle {

    private Toggle() {
    }

    public static Resolved<Boolean> resolve(Optional<String> raw) {
        if (Resolved.blank(raw)) {
            return new Resolved<>(raw, false, "missing: off");
        }
        if (ConfigText.hasControlCharacters(raw.get())) {
            return new Resolved<>(raw, false, "control characters: off");
        }
        return switch (ConfigText.keyword(raw.get())) {
            case "TRUE" -> new Resolved<>(raw, true, "configured");
            case "FALSE" -> new Resolved<>(raw, false, "configured");
            default -> new Resolved<>(raw, false, "unknown value: off");
        };
    }
}
