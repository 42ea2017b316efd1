package io.changeflow.domain.config;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.longs;
import static io.changeflow.propertytesting.Generators.nearMisses;
import static io.changeflow.propertytesting.Generators.oneOf;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Random and near-miss text never switches rate limiting to the cluster scope by accident, and the
 * window is always between one second and the cap: an independent oracle (the documented stripping,
 * a plain BigInteger reading) against the parsers.
 */
class RateLimitSettingsProperties {

    private static final String PADDING = " \t\n\r\u0000\u000b\u001c\u001f\u0085\u00a0\u2003\u2028\u3000\ufeff";

    private static Generator<String> scopeText() {
        var pad = strings(PADDING, 0, 3);
        var words = elements("cluster", "CLUSTER", "Cluster", "local", "LOCAL", "clustr", "global", "ＣＬＵＳＴＥＲ", "cluster\u0000",
                "\u001fcluster", "clus\u0000ter", "c1uster");
        Generator<String> padded = s -> pad.generate(s) + words.generate(s) + pad.generate(s);
        return oneOf(anyStrings(12), words, padded, nearMisses("cluster", "local", "CLUSTER"),
                strings("clusterCLUSTER \t\u0000\u001f\u00a0", 0, 9));
    }

    private static Generator<String> secondsText() {
        var sign = elements("", "", "+", "-", "--", "+-");
        var digits = oneOf(strings("0123456789", 1, 22), strings("0123456789٥３", 1, 5), longs().map(String::valueOf),
                elements("3600", "3601", "2147483648", "9223372036854775808"));
        var pad = strings(PADDING, 0, 2);
        return oneOf(anyStrings(10), s -> pad.generate(s) + sign.generate(s) + digits.generate(s) + pad.generate(s));
    }

    @Test
    void scopeIsClusterOnlyWhenTheStrippedTextSpellsCluster() {
        Property.forAll(scopeText()).tries(5000).check(raw -> {
            var scope = RateLimitScope.resolve(RawValue.of(raw)).value();
            // ASCII only: toUpperCase folds look-alikes (U+017F, the long s, into S) into the keyword
            var text = ConfigFuzzProperties.keyword(raw);
            assertThat(scope == RateLimitScope.CLUSTER).as("[%s]", raw)
                    .isEqualTo(text.toUpperCase(Locale.ROOT).equals("CLUSTER"));
        });
    }

    @Test
    void windowIsTheStrictIntegerWithinOneSecondAndTheCapElseTheDefault() {
        Property.forAll(secondsText()).tries(5000).check(raw -> {
            var window = RateLimitWindow.resolve(RawValue.of(raw)).value();
            assertThat(window).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(RateLimitWindow.MAX_SECONDS));
            var text = ConfigFuzzProperties.stripped(raw);
            var expected = text.matches("[+-]?[0-9]+") && new BigInteger(text).signum() > 0
                    ? new BigInteger(text).min(BigInteger.valueOf(RateLimitWindow.MAX_SECONDS)).longValueExact()
                    : RateLimitWindow.DEFAULT_SECONDS;
            assertThat(window).as("[%s]", raw).isEqualTo(Duration.ofSeconds(expected));
        });
    }
}
