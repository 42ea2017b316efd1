package io.changeflow.domain.request;

import java.util.Locale;
import java.util.Optional;

/**
 * How a per-target setting names an enum value: its constant name in lower case with {@code -} for {@code _}
 * ({@code MANUAL_COUNTS} is {@code manual-counts}); read with case and surrounding whitespace ignored, {@code _} read
 * as {@code -}.
 */
final class SettingNames {

    private SettingNames() {
    }

    /** The setting name of {@code value}, e.g. {@code manual-counts}. */
    static String of(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The value of {@code values} whose setting name {@code raw} is; empty for a missing, blank or unknown text. */
    static <E extends Enum<E>> Optional<E> named(E[] values, String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        var text = raw.strip().toLowerCase(Locale.ROOT).replace('_', '-');
        for (var value : values) {
            if (of(value).equals(text)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
