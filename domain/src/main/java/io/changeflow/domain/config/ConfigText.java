package io.changeflow.domain.config;

/**
 * What counts as readable configuration text. Surrounding whitespace is ignored; a value that
 * contains control characters (other than tab, line feed and carriage return, which files and
 * consoles produce) is never trusted: it reads as invalid, so each key's fail-safe fallback applies.
 * Java's {@code strip()} alone would silently remove some control characters (U+001C-U+001F) and
 * turn {@code "OPEN\u001f"} into {@code OPEN}.
 */
final class ConfigText {

    private ConfigText() {
    }

    static boolean hasControlCharacters(String text) {
        return text.codePoints().anyMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }
}
