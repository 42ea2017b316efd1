package io.changeflow.propertytesting;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Generators of plain JDK values. Numbers shrink towards 0 (or the range end nearest to it), lists
 * and strings towards shorter ones (keeping a prefix), choices towards the first element. Each mixes
 * in edge cases (range ends, 0, +-1, empty and longest lists, tricky characters).
 */
public final class Generators {

    /**
     * Characters that break parsers: ASCII and Unicode whitespace, C0/C1 controls, zero-width and
     * byte-order marks, case-mapping oddities (İ ı ſ Kelvin sign), homoglyphs of O/P (Greek,
     * Cyrillic, full-width), a non-ASCII digit, an emoji and a lone surrogate.
     */
    public static final List<Integer> TRICKY_CODE_POINTS = ("a \t\n\r\u000b\f\u0000\u0001\u001c\u001f\u007f\u0085\u00a0"
            + "\u1680\u2003\u2007\u200b\u2028\u202f\u3000\ufeff\u0130\u0131\u017f\u212a\u039f\u041e\u0420\uff2f\u0663"
            + "\ud83d\ude80\ud800").codePoints().boxed().toList();

    private Generators() {
    }

    /** Integers in {@code [min, max]}. */
    public static Generator<Integer> ints(int min, int max) {
        return longs(min, max).map(Long::intValue);
    }

    /** Longs in {@code [min, max]}; edge cases: 0 (or the end nearest to it), both ends, and +-1 of each. */
    public static Generator<Long> longs(long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
        }
        var target = Math.max(min, Math.min(max, 0));
        var below = target - min;
        var above = max - target;
        var shorter = Long.compareUnsigned(below, above) < 0 ? below : above;
        var edges = new LinkedHashSet<Long>(List.of(target, min, max));
        edges.addAll(List.of(target + 1, target - 1, min + 1, max - 1));
        var favourites = edges.stream().filter(e -> min <= e && e <= max)
                .mapToLong(e -> e >= target ? steps(e - target, shorter, true) : steps(target - e, shorter, false))
                .toArray();
        return s -> {
            var choice = s.draw(max - min + 1, favourites);
            if (below == 0 || above == 0) {
                return below == 0 ? target + choice : target - choice;
            }
            if (Long.compareUnsigned(choice, 2 * shorter) <= 0) {
                var distance = (choice + 1) >>> 1;
                return (choice & 1) == 1 ? target + distance : target - distance;
            }
            return Long.compareUnsigned(above, below) > 0 ? target + (choice - shorter) : target - (choice - shorter);
        };
    }

    /**
     * The choice for a value {@code distance} away from the target (all unsigned). Choice 0 is the
     * target; then values alternate above (odd choices) and below (even ones) while both sides have
     * room, then continue on the longer side.
     */
    private static long steps(long distance, long shorter, boolean above) {
        if (distance == 0 || shorter == 0) {
            return distance;
        }
        if (Long.compareUnsigned(distance, shorter) <= 0) {
            return above ? 2 * distance - 1 : 2 * distance;
        }
        return distance + shorter;
    }

    /** Any long. */
    public static Generator<Long> longs() {
        return longs(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    /** {@code false} (the simpler) or {@code true}. */
    public static Generator<Boolean> booleans() {
        return s -> s.draw(2) == 1;
    }

    public static <T> Generator<T> constant(T value) {
        return s -> value;
    }

    /** One of {@code values}, uniformly. */
    public static <T> Generator<T> elements(List<? extends T> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no elements to choose from");
        }
        List<T> copy = new ArrayList<>(values);
        return s -> copy.get((int) s.draw(copy.size()));
    }

    @SafeVarargs
    public static <T> Generator<T> elements(T... values) {
        return elements(Arrays.asList(values));
    }

    /** One constant of {@code type}, uniformly. */
    public static <E extends Enum<E>> Generator<E> enums(Class<E> type) {
        return elements(type.getEnumConstants());
    }

    /** A value of one of {@code generators}, each picked with the same probability. */
    @SafeVarargs
    public static <T> Generator<T> oneOf(Generator<? extends T>... generators) {
        var copy = List.of(generators);
        return s -> copy.get((int) s.draw(copy.size())).generate(s);
    }

    /** Mutable lists of {@code minSize} to {@code maxSize} values of {@code elements}. */
    public static <T> Generator<List<T>> lists(Generator<? extends T> elements, int minSize, int maxSize) {
        if (minSize < 0 || minSize > maxSize) {
            throw new IllegalArgumentException("sizes must satisfy 0 <= min <= max: " + minSize + ", " + maxSize);
        }
        var sizes = ints(minSize, maxSize);
        return s -> {
            var size = sizes.generate(s);
            var list = new ArrayList<T>(size);
            for (var i = 0; i < size; i++) {
                list.add(elements.generate(s));
            }
            return list;
        };
    }

    /** Strings of {@code minLength} to {@code maxLength} code points from {@code codePoints}. */
    public static Generator<String> strings(Generator<Integer> codePoints, int minLength, int maxLength) {
        return lists(codePoints, minLength, maxLength).map(cps -> {
            var text = new StringBuilder();
            cps.forEach(text::appendCodePoint);
            return text.toString();
        });
    }

    /** Strings of {@code minLength} to {@code maxLength} characters of {@code alphabet}. */
    public static Generator<String> strings(String alphabet, int minLength, int maxLength) {
        return strings(elements(alphabet.codePoints().boxed().toList()), minLength, maxLength);
    }

    /** Arbitrary strings of up to {@code maxLength} code points: any Unicode, controls included. */
    public static Generator<String> anyStrings(int maxLength) {
        return strings(codePoints(), 0, maxLength);
    }

    /**
     * Any code point (lone surrogates included), from printable ASCII, ASCII and C1 controls, the
     * BMP or all planes, with {@link #TRICKY_CODE_POINTS} mixed in.
     */
    public static Generator<Integer> codePoints() {
        return Generators.<Integer>oneOf(ints(0x20, 0x7e), ints(0, 0x9f), ints(0, 0xffff), ints(0, Character.MAX_CODE_POINT))
                .withEdgeCases(TRICKY_CODE_POINTS);
    }

    /**
     * Near-miss spellings of {@code words}: a word itself, or with up to three edits, each one of
     * inserting, replacing or padding with a (mostly tricky) character, deleting or doubling a
     * character, or flipping its case.
     */
    public static Generator<String> nearMisses(String... words) {
        var word = elements(words);
        var odd = Generators.<Integer>oneOf(elements(TRICKY_CODE_POINTS), codePoints()).map(Character::toString);
        return s -> {
            var text = new StringBuilder(word.generate(s));
            for (var edits = s.draw(4); edits > 0; edits--) {
                var at = (int) s.draw(text.length() + 1);
                var onChar = at < text.length();
                switch ((int) s.draw(6)) {
                    case 0 -> text.insert(at, odd.generate(s));
                    case 1 -> text.replace(at, Math.min(at + 1, text.length()), odd.generate(s));
                    case 2 -> text.insert(s.draw(2) == 0 ? 0 : text.length(), odd.generate(s));
                    case 3 -> text.delete(at, Math.min(at + 1, text.length()));
                    case 4 -> text.insert(at, onChar ? text.substring(at, at + 1) : "");
                    default -> {
                        if (onChar) {
                            var c = text.charAt(at);
                            text.setCharAt(at, Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
                        }
                    }
                }
            }
            return text.toString();
        };
    }
}
