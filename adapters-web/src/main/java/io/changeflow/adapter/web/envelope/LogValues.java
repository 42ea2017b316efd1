package io.changeflow.adapter.web.envelope;

/**
 * Request values made safe for a log line or an audit entry: every control character (CR, LF, TAB,
 * U+0085...), line or paragraph separator (U+2028, U+2029) and invisible format character is written
 * as a visible escape ({@code \n}, {@code \r}, {@code \t}, else {@code \}{@code uXXXX}), so a value can
 * never start a line of its own or hide text, in plain text as in JSON logs.
 */
public final class LogValues {

    private LogValues() {
    }

    /** {@code value} with its control characters escaped; {@code "null"} for null. */
    public static String escaped(Object value) {
        var text = String.valueOf(value);
        StringBuilder out = null;
        for (var i = 0; i < text.length(); i++) {
            var c = text.charAt(i);
            if (!needsEscape(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            switch (c) {
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out == null ? text : out.toString();
    }

    private static boolean needsEscape(char c) {
        var type = Character.getType(c);
        return Character.isISOControl(c) || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.FORMAT;
    }
}
