package io.changeflow.domain.config;

import java.util.Locale;

/**
 * What counts as readable configuration text: stripped, never trusted with control characters in it (tab, line feed
 * and carriage return aside), and a keyword only when it is printable ASCII ({@link #keyword}), so a look-alike that
 * Java's case mapping folds into ASCII never counts as one. Why: docs/configuration.md, "What counts as readable text".
 */
final class ConfigText {

    private ConfigText() {
    }

    /**
     * {@code text} as an upper-case ASCII keyword: surrounding whitespace removed ({@code strip()}), then
     * upper-cased only if every remaining character is printable ASCII; empty (so no keyword matches and the
     * fail-safe fallback applies) when any other character is in it.
     */
    static String keyword(String text) {
        var trimmed = text.strip();
        for (int i = 0; i < trimmed.length(); i++) {
            var c = trimmed.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return "";
            }
        }
        return trimmed.toUpperCase(Locale.ROOT);
    }

    static boolean hasControlCharacters(String text) {
        return text.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }
}
