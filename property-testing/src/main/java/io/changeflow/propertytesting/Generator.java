package io.changeflow.propertytesting;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Makes random values of {@code T} from the choices of a {@link Source}. A lambda is a generator, so
 * combining several is just calling them in order:
 * <pre>{@code
 * Generator<Input> inputs = s -> new Input(ints(0, 9).generate(s), strings("ab", 0, 5).generate(s));
 * }</pre>
 * Factories for plain JDK values are in {@link Generators}.
 */
@FunctionalInterface
public interface Generator<T> {

    /** One value; all randomness must come from {@code source}. */
    T generate(Source source);

    default <R> Generator<R> map(Function<? super T, ? extends R> mapper) {
        return s -> mapper.apply(generate(s));
    }

    /** A value whose generator depends on a value of this one (e.g. a list of a generated size). */
    default <R> Generator<R> flatMap(Function<? super T, ? extends Generator<? extends R>> mapper) {
        return s -> mapper.apply(generate(s)).generate(s);
    }

    /** Pairs a value of this generator with one of {@code other}. */
    default <U, R> Generator<R> zip(Generator<? extends U> other, BiFunction<? super T, ? super U, ? extends R> combiner) {
        return s -> {
            var first = generate(s);
            return combiner.apply(first, other.generate(s));
        };
    }

    /** Only values that pass {@code filter}; fails after 1,000 rejections in a row (make it less strict). */
    default Generator<T> filter(Predicate<? super T> filter) {
        return s -> {
            for (var i = 0; i < 1000; i++) {
                var value = generate(s);
                if (filter.test(value)) {
                    return value;
                }
            }
            throw new IllegalStateException("no generated value passed the filter in 1,000 attempts");
        };
    }

    /** Lists of this generator's values, {@code minSize} to {@code maxSize} long. */
    default Generator<List<T>> list(int minSize, int maxSize) {
        return Generators.lists(this, minSize, maxSize);
    }

    /** {@code null} with the given probability (and as the simplest value). */
    default Generator<T> injectNull(double probability) {
        var threshold = (long) (probability * 1_000_000);
        return s -> s.draw(1_000_000) < threshold ? null : generate(s);
    }

    /**
     * Mixes in {@code edgeCases}: often in the first tries of a property, now and then later.
     * Shrinking prefers this generator's own values, then the edge cases listed first.
     */
    default Generator<T> withEdgeCases(List<? extends T> edgeCases) {
        List<T> edges = Collections.unmodifiableList(new ArrayList<>(edgeCases));
        return s -> {
            var index = s.edgeCase(edges.size());
            return index >= 0 ? edges.get(index) : generate(s);
        };
    }
}
