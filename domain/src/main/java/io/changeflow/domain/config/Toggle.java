package io.changeflow.domain.config;

/** An on/off switch that is off unless it says exactly {@code true} (trimmed, any case). */
public final class Toggle {

    private Toggle() {
    }

    public static Resolved<Boolean> resolve(RawValue raw) {
        if (raw.isBlank()) {
            return new Resolved<>(raw.text(), false, "missing: off");
        }
        if (ConfigText.hasControlCharacters(raw.get())) {
            return new Resolved<>(raw.text(), false, "control characters: off");
        }
        return switch (ConfigText.keyword(raw.get())) {
            case "TRUE" -> new Resolved<>(raw.text(), true, "configured");
            case "FALSE" -> new Resolved<>(raw.text(), false, "configured");
            default -> new Resolved<>(raw.text(), false, "unknown value: off");
        };
    }
}
