package io.changeflow.propertytesting;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.function.ThrowingConsumer;

/**
 * A seeded random property check, run inside an ordinary JUnit {@code @Test} method:
 * <pre>{@code
 * Property.forAll(Generators.lists(Generators.ints(0, 9), 0, 20)).tries(2_000)
 *         .check(list -> assertThat(reversed(reversed(list))).isEqualTo(list));
 * }</pre>
 * {@link #check} takes assertions (anything thrown fails the try), {@link #holds} a predicate.
 *
 * <p><b>Tries.</b> Try 1 uses every generator's simplest value; the next tenth of the tries favours
 * edge cases; the rest are random with edge cases mixed in now and then. {@code -Dproperty.tries=F}
 * multiplies every property's tries by {@code F} (e.g. 10 for a long soak, 0.1 for a quick run).
 *
 * <p><b>Seeds.</b> By default the seed is derived from the calling test's class and method name, so
 * every run of a property sees the same values. {@link #seed} fixes another one;
 * {@code -Dproperty.seed=N} overrides both (to reproduce a reported failure), and
 * {@code -Dproperty.seed=random} explores a new seed on each run.
 *
 * <p><b>Failures.</b> The first failing try is shrunk: its recorded choices are shortened and lowered
 * while the property still fails with the same kind of exception (for up to 2,000 runs or 10
 * seconds). The {@link AssertionError} names the property, seed, try and the shrunk and original
 * counterexamples (control and invisible characters shown as Java unicode escapes, backslash-u and
 * four hex digits); its cause is the failure of the shrunk counterexample.
 *
 * <p>Several inputs: generate a record ({@code s -> new Input(a.generate(s), b.generate(s))} or
 * {@link Generator#zip}); its {@code toString} is the counterexample shown.
 */
public final class Property<T> {

    private static final int DEFAULT_TRIES = 1_000;
    private static final int SHRINK_RUNS = 2_000;
    private static final long SHRINK_NANOS = 10_000_000_000L;
    private static final int MAX_DESCRIPTION = 2_000;

    private final Generator<T> generator;
    private int tries = DEFAULT_TRIES;
    private Long seed;
    private String name;

    private Property(Generator<T> generator) {
        this.generator = Objects.requireNonNull(generator, "generator");
    }

    /** A property over the values of {@code generator} (combine several with a lambda or a record). */
    public static <T> Property<T> forAll(Generator<T> generator) {
        return new Property<>(generator);
    }

    /** How many values to try (default 1,000), before scaling by {@code -Dproperty.tries}. */
    public Property<T> tries(int tries) {
        if (tries < 1) {
            throw new IllegalArgumentException("at least one try: " + tries);
        }
        this.tries = tries;
        return this;
    }

    /** A fixed seed instead of the one derived from the test name ({@code -Dproperty.seed} still wins). */
    public Property<T> seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** The name in failure messages and for the default seed (default: the calling class and method). */
    public Property<T> named(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /** Passes when {@code property} returns {@code true} for every tried value. */
    public void holds(Predicate<? super T> property) {
        check(value -> {
            if (!property.test(value)) {
                throw new AssertionError("property is false");
            }
        });
    }

    /** Passes when {@code property} (typically assertions) throws for no tried value. */
    public void check(ThrowingConsumer<? super T> property) {
        var label = name != null ? name : callerName();
        var override = System.getProperty("property.seed", "").strip();
        var random = override.equals("random");
        var effectiveSeed = random ? new SplittableRandom().nextLong()
                : !override.isEmpty() ? Long.parseLong(override) : seed != null ? seed : hash(label);
        var origin = random ? "random" : !override.isEmpty() ? "from -Dproperty.seed" : seed != null ? "fixed" : "from the test name";
        var total = scaledTries();
        var trySeeds = new SplittableRandom(effectiveSeed);
        for (var attempt = 1; attempt <= total; attempt++) {
            var source = attempt == 1 ? Source.replay(new long[0])
                    : Source.random(trySeeds.nextLong(), attempt <= 1 + total / 10 ? 2 : 10);
            T value;
            try {
                value = generator.generate(source);
            } catch (RuntimeException e) {
                if (attempt == 1) {
                    continue; // the simplest values may not pass a generator's filter
                }
                throw new AssertionError("Property %s: generating try %d failed (seed %d)".formatted(label, attempt, effectiveSeed), e);
            }
            var failure = run(property, value);
            if (failure != null) {
                var shrunk = new Shrinker(property, source.choices(), failure);
                shrunk.shrink();
                throw new AssertionError("""
                        Property %s failed at try %d of %d (seed %d %s; rerun with -Dproperty.seed=%d)
                          counterexample: %s
                          original:       %s
                          failure:        %s"""
                        .formatted(label, attempt, total, effectiveSeed, origin, effectiveSeed, describe(valueOf(shrunk.best)),
                                describe(valueOf(source.choices())), shrunk.bestFailure), shrunk.bestFailure);
            }
        }
    }

    private int scaledTries() {
        var factor = Double.parseDouble(System.getProperty("property.tries", "1").strip());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.round(tries * factor)));
    }

    private Throwable run(ThrowingConsumer<? super T> property, T value) {
        try {
            property.accept(value);
            return null;
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            return e;
        }
    }

    /** A counterexample generated again from its choices (a fresh value, even if the property mutated it). */
    private Object valueOf(long[] choices) {
        try {
            return generator.generate(Source.replay(choices));
        } catch (RuntimeException e) {
            return "(cannot be generated again: " + e + ")";
        }
    }

    /**
     * Shrinks a failing try by its recorded choices: cuts the tail, drops chunks, lowers single
     * choices (binary search towards 0), keeping a change whenever the property still fails with the
     * same exception class and the choices got smaller (shorter, else lexicographically lower).
     */
    private final class Shrinker {

        private final ThrowingConsumer<? super T> property;
        private final Class<?> kind;
        private final long deadline = System.nanoTime() + SHRINK_NANOS;
        private long[] best;
        private Throwable bestFailure;
        private int runs;

        Shrinker(ThrowingConsumer<? super T> property, long[] choices, Throwable failure) {
            this.property = property;
            this.kind = failure.getClass();
            this.best = choices;
            this.bestFailure = failure;
        }

        void shrink() {
            var improved = true;
            while (improved && !exhausted()) {
                improved = false;
                for (var keep = 0; keep < best.length && !improved; keep = keep == 0 ? 1 : keep * 2) {
                    improved = attempt(Arrays.copyOf(best, keep));
                }
                for (var chunk = 8; chunk >= 1; chunk /= 2) {
                    for (var at = best.length - chunk; at >= 0; at--) {
                        if (at + chunk <= best.length) {
                            var shorter = new long[best.length - chunk];
                            System.arraycopy(best, 0, shorter, 0, at);
                            System.arraycopy(best, at + chunk, shorter, at, best.length - at - chunk);
                            improved |= attempt(shorter);
                        }
                    }
                }
                for (var at = 0; at < best.length; at++) {
                    if (best[at] == 0) {
                        continue;
                    }
                    if (attempt(with(at, 0))) {
                        improved = true;
                        continue;
                    }
                    var passes = 0L;
                    var fails = best[at];
                    while (Long.compareUnsigned(fails - passes, 1) > 0 && at < best.length && !exhausted()) {
                        var middle = passes + ((fails - passes) >>> 1);
                        if (attempt(with(at, middle))) {
                            improved = true;
                            fails = at < best.length ? best[at] : 0;
                        } else {
                            passes = middle;
                        }
                    }
                }
            }
        }

        private long[] with(int at, long value) {
            var copy = best.clone();
            copy[at] = value;
            return copy;
        }

        private boolean exhausted() {
            return runs >= SHRINK_RUNS || System.nanoTime() >= deadline;
        }

        /** Runs the property on {@code choices}; true when it still fails and the choices got smaller. */
        private boolean attempt(long[] choices) {
            if (exhausted()) {
                return false;
            }
            runs++;
            var source = Source.replay(choices);
            T value;
            try {
                value = generator.generate(source);
            } catch (RuntimeException e) {
                return false;
            }
            var failure = run(property, value);
            var used = source.choices();
            if (failure == null || failure.getClass() != kind || !smaller(used, best)) {
                return false;
            }
            best = used;
            bestFailure = failure;
            return true;
        }

        private static boolean smaller(long[] a, long[] b) {
            return a.length != b.length ? a.length < b.length : Arrays.compareUnsigned(a, b) < 0;
        }
    }

    /** The value as text, strings quoted, with every non-printable character escaped as a Java escape. */
    static String describe(Object value) {
        var text = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        var out = new StringBuilder();
        for (var i = 0; i < text.length() && out.length() < MAX_DESCRIPTION; i++) {
            var c = text.charAt(i);
            var type = Character.getType(c);
            var plain = c == ' ' || !(Character.isISOControl(c) || Character.isWhitespace(c) || Character.isSpaceChar(c)
                    || type == Character.FORMAT || type == Character.SURROGATE || type == Character.UNASSIGNED
                    || type == Character.PRIVATE_USE);
            out.append(plain ? String.valueOf(c) : "\\u%04x".formatted((int) c));
        }
        return out.length() < MAX_DESCRIPTION ? out.toString() : out + "...";
    }

    private static String callerName() {
        return StackWalker.getInstance().walk(frames -> frames
                .filter(f -> !f.getClassName().equals(Property.class.getName()))
                .findFirst()
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
                .orElse("property"));
    }

    /** FNV-1a over the name: stable across runs and JVMs. */
    private static long hash(String text) {
        var hash = 0xcbf29ce484222325L;
        for (var i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * 0x100000001b3L;
        }
        return hash;
    }
}
