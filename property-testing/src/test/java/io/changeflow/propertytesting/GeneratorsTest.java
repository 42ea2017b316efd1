package io.changeflow.propertytesting;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.booleans;
import static io.changeflow.propertytesting.Generators.codePoints;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.enums;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static io.changeflow.propertytesting.Generators.longs;
import static io.changeflow.propertytesting.Generators.nearMisses;
import static io.changeflow.propertytesting.Generators.oneOf;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The generators, checked with the runner itself. */
class GeneratorsTest {

    @RegisterExtension
    final WithoutRunOverrides overrides = new WithoutRunOverrides();

    private static <T> List<T> sample(Generator<T> generator, int tries) {
        var seen = new ArrayList<T>();
        Property.forAll(generator).tries(tries).check(seen::add);
        return seen;
    }

    record Range(long min, long max) {}

    @Test
    void longsStayInTheirRangeWhateverTheRange() {
        var bounds = longs().withEdgeCases(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L));
        Generator<Range> ranges = bounds.zip(bounds, (a, b) -> new Range(Math.min(a, b), Math.max(a, b)));
        Property.forAll(ranges).tries(300).check(range -> Property.forAll(longs(range.min(), range.max())).tries(50)
                .named("in " + range)
                .holds(v -> range.min() <= v && v <= range.max()));
    }

    @Test
    void smallRangesAreCoveredCompletely() {
        assertThat(new HashSet<>(sample(ints(-2, 3), 200))).containsExactlyInAnyOrder(-2, -1, 0, 1, 2, 3);
        assertThat(new HashSet<>(sample(ints(5, 7), 100))).containsExactlyInAnyOrder(5, 6, 7);
        assertThat(new HashSet<>(sample(longs(-9, -7), 100))).containsExactlyInAnyOrder(-9L, -8L, -7L);
        assertThat(new HashSet<>(sample(longs(Long.MAX_VALUE - 1, Long.MAX_VALUE), 50)))
                .containsExactlyInAnyOrder(Long.MAX_VALUE - 1, Long.MAX_VALUE);
        assertThat(sample(ints(4, 4), 20)).containsOnly(4);
    }

    @Test
    void wideRangesReachBothEndsAndTheMiddle() {
        var values = sample(longs(), 2_000);
        assertThat(values).contains(Long.MIN_VALUE, Long.MAX_VALUE, 0L);
        assertThat(values).anyMatch(v -> v < -1_000_000_000_000L).anyMatch(v -> v > 1_000_000_000_000L);
        var ints = sample(ints(Integer.MIN_VALUE, 5), 2_000);
        assertThat(ints).allMatch(v -> v <= 5).contains(Integer.MIN_VALUE, 5, 0);
    }

    @Test
    void choicesCoverEveryElement() {
        assertThat(new HashSet<>(sample(enums(DayOfWeek.class), 300))).containsExactlyInAnyOrder(DayOfWeek.values());
        assertThat(new HashSet<>(sample(booleans(), 50))).containsExactlyInAnyOrder(true, false);
        assertThat(new HashSet<>(sample(oneOf(elements("a", "b"), elements("c")), 100))).containsExactlyInAnyOrder("a", "b", "c");
        assertThatThrownBy(() -> elements(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void listsAndStringsHaveTheirSizes() {
        Property.forAll(lists(ints(0, 3), 2, 6)).check(l -> assertThat(l).hasSizeBetween(2, 6));
        var lengths = sample(strings("xyz", 1, 4), 300).stream().map(String::length).collect(Collectors.toSet());
        assertThat(lengths).containsExactlyInAnyOrder(1, 2, 3, 4);
        Property.forAll(strings("xyz", 0, 4)).holds(s -> s.chars().allMatch(c -> "xyz".indexOf(c) >= 0));
        assertThatThrownBy(() -> lists(ints(0, 1), 3, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anyStringsReachControlsInvisibleCharactersAndOtherPlanes() {
        var chars = sample(anyStrings(12), 2_000).stream().flatMapToInt(String::codePoints).boxed().collect(Collectors.toSet());
        assertThat(chars).contains(0, (int) '\t', 0x1f, 0x7f, 0x85, 0xa0, 0x2003, 0x200b, 0x2028, 0xfeff, 0xd800, 0x1f680);
        assertThat(chars).anyMatch(cp -> cp > 0xffff && cp != 0x1f680);
        Property.forAll(codePoints()).holds(cp -> cp >= 0 && cp <= Character.MAX_CODE_POINT);
    }

    @Test
    void nearMissesAreTheWordsAndSmallEditsOfThem() {
        var spellings = sample(nearMisses("OPEN", "true"), 2_000);
        assertThat(spellings).contains("OPEN", "true")
                .anyMatch(s -> s.equalsIgnoreCase("open") && !s.equals("OPEN"))
                .anyMatch(s -> s.startsWith("OPEN") && s.length() > 4 && Character.isISOControl(s.charAt(4)))
                .anyMatch(s -> s.length() == 3)
                .allMatch(s -> s.length() <= 4 + 3 * 2);
    }

    @Test
    void injectNullAndFilterAndWithEdgeCases() {
        var values = sample(ints(1, 100).injectNull(0.3), 1_000);
        assertThat(values.getFirst()).isNull();
        assertThat(values.stream().filter(v -> v == null).count()).isBetween(200L, 400L);
        assertThat(sample(ints(0, 100).filter(i -> i % 2 == 1), 300)).allMatch(i -> i % 2 == 1);
        var withEdges = sample(ints(1000, 2000).withEdgeCases(List.of(7, 8)), 1_000);
        assertThat(withEdges.getFirst()).isEqualTo(1000);
        assertThat(withEdges.subList(0, 101)).contains(7, 8);
    }

    @Test
    void zipAndMapCombineInOrder() {
        Set<String> pairs = new HashSet<>(sample(ints(0, 1).zip(elements("a", "b"), (i, s) -> i + s), 200));
        assertThat(pairs).containsExactlyInAnyOrder("0a", "0b", "1a", "1b");
        assertThat(sample(ints(1, 3).map(i -> i * 10), 100)).allMatch(i -> LongStream.of(10, 20, 30).anyMatch(v -> v == i));
    }
}
