package io.changeflow.propertytesting;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.constant;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static io.changeflow.propertytesting.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The runner itself: failing properties fail with seed, try and a shrunk counterexample; seeds reproduce. */
class PropertyTest {

    @RegisterExtension
    final WithoutRunOverrides overrides = new WithoutRunOverrides();

    private static <T> List<T> values(Property<T> property) {
        var seen = new ArrayList<T>();
        property.check(seen::add);
        return seen;
    }

    @Test
    void aFalsePropertyFailsNamingTheSeedTheTryAndTheSmallestCounterexample() {
        var error = assertThrows(AssertionError.class,
                () -> Property.forAll(ints(0, 10_000)).seed(42).holds(i -> i < 1234));
        assertThat(error.getMessage())
                .startsWith("Property PropertyTest.lambda$")
                .contains("(seed 42 fixed; rerun with -Dproperty.seed=42)")
                .contains("counterexample: 1234\n")
                .containsPattern("failed at try \\d+ of 1000");
        assertThat(error.getCause()).hasMessage("property is false");
    }

    @Test
    void theFailureOfTheShrunkCounterexampleIsTheCause() {
        var error = assertThrows(AssertionError.class, () -> Property.forAll(ints(-1000, 1000)).named("negatives")
                .check(i -> {
                    if (i < -10) {
                        throw new IllegalStateException("too small: " + i);
                    }
                }));
        assertThat(error).hasMessageStartingWith("Property negatives failed at try")
                .hasMessageContaining("counterexample: -11\n")
                .hasMessageContaining("from the test name")
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(error.getCause()).hasMessage("too small: -11");
    }

    @Test
    void shrinksListsToTheSmallestFailingOne() {
        var error = assertThrows(AssertionError.class,
                () -> Property.forAll(lists(ints(0, 100), 0, 50)).holds(list -> !list.contains(7)));
        assertThat(error).hasMessageContaining("counterexample: [7]\n");

        var sums = assertThrows(AssertionError.class, () -> Property.forAll(lists(ints(0, 100), 0, 50))
                .holds(list -> list.stream().mapToInt(Integer::intValue).sum() <= 150));
        var shrunk = Pattern.compile("counterexample: \\[(.*)]\n").matcher(sums.getMessage());
        assertThat(shrunk.find()).isTrue();
        assertThat(shrunk.group(1).split(", ")).hasSizeLessThanOrEqualTo(3);
    }

    @Test
    void shrinksThroughFlatMapAndMap() {
        var error = assertThrows(AssertionError.class, () -> Property.forAll(ints(1, 50)
                        .flatMap(n -> lists(constant(n), n, n)).map(List::size))
                .holds(size -> size < 10));
        assertThat(error).hasMessageContaining("counterexample: 10\n");
    }

    @Test
    void shrinksStringsAndShowsControlCharactersEscaped() {
        var error = assertThrows(AssertionError.class, () -> Property.forAll(anyStrings(20))
                .holds(s -> s.codePoints().noneMatch(Character::isISOControl)));
        assertThat(error.getMessage()).containsPattern("counterexample: \"\\\\u00[0-9a-f]{2}\"\n");
    }

    @Test
    void describesValuesWithInvisibleCharactersEscaped() {
        assertThat(Property.describe("a\u0000\u2003b\u200b\t")).isEqualTo("\"a\\u0000\\u2003b\\u200b\\u0009\"");
        assertThat(Property.describe(List.of("x\n", "é"))).isEqualTo("[x\\u000a, é]");
        assertThat(Property.describe(null)).isEqualTo("null");
        assertThat(Property.describe("x".repeat(5000))).hasSize(2003).endsWith("...");
    }

    @Test
    void theSameSeedGivesTheSameValuesAndAnotherSeedOthers() {
        var gen = lists(longs(), 0, 5);
        assertThat(values(Property.forAll(gen).seed(7).tries(300)))
                .hasSize(300)
                .isEqualTo(values(Property.forAll(gen).seed(7).tries(300)))
                .isNotEqualTo(values(Property.forAll(gen).seed(8).tries(300)));
    }

    @Test
    void theDefaultSeedComesFromTheName() {
        var gen = anyStrings(10);
        assertThat(values(Property.forAll(gen).named("a").tries(100)))
                .isEqualTo(values(Property.forAll(gen).named("a").tries(100)))
                .isNotEqualTo(values(Property.forAll(gen).named("b").tries(100)));
        // without a name: the calling method, the same on every run
        assertThat(values(Property.forAll(gen).tries(100))).isEqualTo(values(Property.forAll(gen).tries(100)));
    }

    @Test
    void theSeedPropertyReproducesAReportedFailure() {
        var failing = Property.forAll(ints(0, 1_000_000)).named("first").tries(2_000);
        var reported = assertThrows(AssertionError.class, () -> failing.holds(i -> i % 1000 != 999)).getMessage();
        var seed = Pattern.compile("-Dproperty.seed=(-?\\d+)").matcher(reported).results().findFirst().orElseThrow().group(1);

        System.setProperty("property.seed", seed);
        var again = assertThrows(AssertionError.class, () -> Property.forAll(ints(0, 1_000_000)).named("first").seed(1)
                .tries(2_000).holds(i -> i % 1000 != 999)).getMessage();
        assertThat(again).isEqualTo(reported.replace("from the test name", "from -Dproperty.seed"));
    }

    @Test
    void theTriesPropertyScalesEveryPropertysTries() {
        assertThat(values(Property.forAll(ints(0, 9)).tries(200))).hasSize(200);
        System.setProperty("property.tries", "0.5");
        assertThat(values(Property.forAll(ints(0, 9)).tries(200))).hasSize(100);
        System.setProperty("property.tries", "3");
        assertThat(values(Property.forAll(ints(0, 9)).tries(200))).hasSize(600);
        System.setProperty("property.tries", "0");
        assertThat(values(Property.forAll(ints(0, 9)).tries(200))).hasSize(1);
    }

    @Test
    void randomSeedsAreReportedSoTheyCanBeRerun() {
        System.setProperty("property.seed", "random");
        assertThatThrownBy(() -> Property.forAll(ints(0, 100)).holds(i -> i < 50))
                .hasMessageContaining("random; rerun with -Dproperty.seed=");
    }

    @Test
    void theFirstTryIsTheSimplestAndEdgeCasesComeEarly() {
        var ints = values(Property.forAll(ints(-50, 70)).tries(100));
        assertThat(ints.getFirst()).isZero();
        assertThat(ints.subList(0, 11)).contains(-50, 70);
        var lists = values(Property.forAll(lists(ints(5, 9), 2, 30)).tries(100));
        assertThat(lists.getFirst()).containsExactly(5, 5);
        assertThat(lists.subList(0, 11)).anySatisfy(l -> assertThat(l).hasSize(30));
        assertThat(values(Property.forAll(anyStrings(5)).tries(1))).containsExactly("");
    }

    @Test
    void passingPropertiesPass() {
        Property.forAll(ints(0, 10)).holds(i -> i <= 10);
        Property.forAll(anyStrings(30)).tries(500).check(s -> assertThat(s.codePointCount(0, s.length())).isLessThanOrEqualTo(30));
    }

    @Test
    void aFilterThatRejectsEverythingIsReported() {
        assertThatThrownBy(() -> Property.forAll(ints(0, 10).filter(i -> i > 100)).holds(i -> true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("generating try 2 failed")
                .hasRootCauseMessage("no generated value passed the filter in 1,000 attempts");
    }

    @Test
    void rejectsNonsenseSettings() {
        assertThatThrownBy(() -> Property.forAll(ints(0, 1)).tries(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Property.forAll(null)).isInstanceOf(NullPointerException.class);
    }
}
