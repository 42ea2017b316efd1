package io.changeflow.adapter.persistence;

import java.util.ArrayList;
import java.util.List;

/**
 * MySQL script text as statements of tokens, enough for {@link ExpandOnlyMigrations}: comments ({@code --}, {@code #},
 * block comments) are left out, a quoted string stays one token with its quotes, a back-quoted name loses its quotes,
 * and each of {@code ( ) , . ; =} is a token of its own.
 */
final class SqlTokens {

    private SqlTokens() {}

    /** The statements of a script (split at {@code ;}), each as its tokens; empty statements left out. */
    static List<List<String>> statements(String script) {
        var statements = new ArrayList<List<String>>();
        var current = new ArrayList<String>();
        for (var token : tokens(script)) {
            if (";".equals(token)) {
                if (!current.isEmpty()) {
                    statements.add(List.copyOf(current));
                }
                current.clear();
            } else {
                current.add(token);
            }
        }
        if (!current.isEmpty()) {
            statements.add(List.copyOf(current));
        }
        return statements;
    }

    /** The parts of a token list separated by commas outside parentheses. */
    static List<List<String>> splitTopLevel(List<String> tokens) {
        var parts = new ArrayList<List<String>>();
        var current = new ArrayList<String>();
        int depth = 0;
        for (var token : tokens) {
            if (",".equals(token) && depth == 0) {
                parts.add(List.copyOf(current));
                current.clear();
                continue;
            }
            if ("(".equals(token)) {
                depth++;
            } else if (")".equals(token)) {
                depth--;
            }
            current.add(token);
        }
        parts.add(List.copyOf(current));
        return parts;
    }

    /** The index of the parenthesis closing the one at {@code open}. */
    static int closing(List<String> tokens, int open) {
        int depth = 0;
        for (int i = open; i < tokens.size(); i++) {
            if ("(".equals(tokens.get(i))) {
                depth++;
            } else if (")".equals(tokens.get(i)) && --depth == 0) {
                return i;
            }
        }
        throw new IllegalArgumentException("unbalanced parentheses: " + String.join(" ", tokens));
    }

    private static List<String> tokens(String text) {
        var tokens = new ArrayList<String>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '#' || c == '-' && text.startsWith("--", i)) {
                i = endOf(text, "\n", i);
            } else if (c == '/' && text.startsWith("/*", i)) {
                i = endOf(text, "*/", i + 2) + 1;
            } else if (c == '\'' || c == '"') {
                int end = endOfString(text, c, i);
                tokens.add(text.substring(i, end));
                i = end;
            } else if (c == '`') {
                int end = text.indexOf('`', i + 1);
                tokens.add(text.substring(i + 1, end));
                i = end + 1;
            } else if ("(),.;=".indexOf(c) >= 0) {
                tokens.add(String.valueOf(c));
                i++;
            } else {
                int start = i;
                while (i < text.length() && !Character.isWhitespace(text.charAt(i))
                        && "(),.;=`'\"".indexOf(text.charAt(i)) < 0) {
                    i++;
                }
                tokens.add(text.substring(start, i));
            }
        }
        return tokens;
    }

    private static int endOf(String text, String end, int from) {
        int at = text.indexOf(end, from);
        return at < 0 ? text.length() : at + 1;
    }

    /** Past the closing quote; a doubled quote or a backslash escape stays inside. */
    private static int endOfString(String text, char quote, int open) {
        int i = open + 1;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote && i + 1 < text.length() && text.charAt(i + 1) == quote) {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return text.length();
    }
}
