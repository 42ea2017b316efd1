package io.changeflow.domain.config;

import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Parses configuration integers strictly: optional sign and ASCII digits only (no other Unicode
 * digits, no control characters), saturating at {@code Long.MIN_VALUE}/{@code Long.MAX_VALUE} so a
 * huge value keeps its sign instead of reading as garbage.
 */
final class StrictInteger {

    private static final Pattern FORMAT = Pattern.compile("^[+-]?[0-9]+$");

    private StrictInteger() {
    }

    /**
     * The value of a configured, not blank {@code text}: surrounding whitespace removed; empty when it has control
     * characters or is not an integer.
     */
    static OptionalLong parseSetting(String text) {
        return ConfigText.hasControlCharacters(text) ? OptionalLong.empty() : parse(text.strip());
    }

    /** The value of already stripped {@code text}, or empty when it is not an integer. */
    static OptionalLong parse(String text) {
        if (!FORMAT.matcher(text).matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException overflow) {
            return OptionalLong.of(text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE);
        }
    }
}
