package io.changeflow.domain.config;

import java.util.Locale;

/**
 * What counts as readable configuration text. Surrounding whitespace is ignored; a value that
 * contains control characters (other than tab, line feed and carriage return, which files and
 * consoles produce) is never trusted: it reads as invalid, so each key's fail-safe fallback applies.
 * Java's {@code strip()} alone would silently remove some control characters (U+001C-U+001F) and
 * turn {@code "OPEN\u001f"} into {@code OPEN}.
 *
 * <p>Keywords (modes, scopes, switches, days) are ASCII: {@link #keyword} compares them only after checking
 * that. Java's case mapping folds look-alikes into ASCII ({@code "TE\u017FT_WINDOW".toUpperCase()} is
 * {@code TEST_WINDOW}: U+017F, the long s, upper-cases to S; the Kelvin sign lower-cases to k), so a
 * value that only looks like a keyword would count as one.
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
