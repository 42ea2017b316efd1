package io.changeflow.domain.config;

import java.util.Optional;

/** An on/off switch that is off unless it says exactly {@code true} (trimmed, any case). */
public final class Toggle {

    private static final KeywordSetting<Boolean> SETTING = new KeywordSetting<>(Toggle::named, false, "off", false, "off");

    private Toggle() {
    }

    public static Resolved<Boolean> resolve(RawValue raw) {
        return SETTING.resolve(raw);
    }

    private static Optional<Boolean> named(String keyword) {
        return switch (keyword) {
            case "TRUE" -> Optional.of(true);
            case "FALSE" -> Optional.of(false);
            default -> Optional.empty();
        };
    }
}
