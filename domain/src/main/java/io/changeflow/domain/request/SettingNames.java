package io.changeflow.domain.request;

import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/** How a per-target setting's text names an enum value: case and surrounding whitespace ignored, {@code _} read as {@code -}. */
final class SettingNames {

    private SettingNames() {
    }

    /** The value of {@code values} whose setting name {@code raw} is; empty for a missing, blank or unknown text. */
    static <E extends Enum<E>> Optional<E> named(E[] values, Function<E, String> settingName, String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        var text = raw.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (var value : values) {
            if (settingName.apply(value).equals(text)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
