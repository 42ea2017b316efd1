package io.changeflow.propertytesting;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Where a {@link Generator} gets its randomness: a sequence of numeric choices, recorded as they are
 * made. In a random try the choices come from a seeded PRNG; while shrinking, a smaller recorded
 * sequence is replayed instead, and every choice past its end is 0. Generators map choice 0 to
 * their simplest value (0, the first element, the shortest list), so lowering or deleting choices
 * shrinks the value, also through {@code map}, {@code flatMap} and {@code zip}.
 *
 * <p>A generator must draw all of its randomness from here (never from its own {@code Random}),
 * otherwise runs are not reproducible and counterexamples are not shrunk.
 */
public final class Source {

    private final SplittableRandom random;
    private final long[] replay;
    private final int edgeOdds;
    private long[] drawn = new long[32];
    private int size;

    private Source(SplittableRandom random, long[] replay, int edgeOdds) {
        this.random = random;
        this.replay = replay;
        this.edgeOdds = edgeOdds;
    }

    /** Fresh random choices; an edge case is picked with probability 1/{@code edgeOdds}. */
    static Source random(long seed, int edgeOdds) {
        return new Source(new SplittableRandom(seed), new long[0], edgeOdds);
    }

    /** Replays {@code choices}; past their end every choice is 0 (the simplest). */
    static Source replay(long[] choices) {
        return new Source(null, choices, 0);
    }

    /**
     * A choice in {@code [0, bound)}, both read as unsigned 64-bit numbers; {@code bound == 0} stands
     * for 2^64, i.e. any 64-bit value. In random tries, one of {@code favourites} (choices below
     * {@code bound} that give edge cases) now and then replaces the uniform choice.
     */
    public long draw(long bound, long... favourites) {
        long value;
        if (random != null && favourites.length > 0 && random.nextInt(edgeOdds) == 0) {
            value = favourites[random.nextInt(favourites.length)];
        } else if (random != null) {
            value = bound > 0 ? random.nextLong(bound) : random.nextLong();
            while (bound < 0 && Long.compareUnsigned(value, bound) >= 0) {
                value = random.nextLong();
            }
        } else if (size < replay.length) {
            value = bound == 0 || Long.compareUnsigned(replay[size], bound) < 0
                    ? replay[size] : Long.remainderUnsigned(replay[size], bound);
        } else {
            value = 0;
        }
        return record(value);
    }

    /**
     * Whether to use one of {@code count} edge cases now: its index, or -1 for "generate normally".
     * Recorded as 0 for "normally" and index + 1 otherwise, so shrinking prefers normal values.
     */
    public int edgeCase(int count) {
        long choice;
        if (random != null) {
            choice = count > 0 && random.nextInt(edgeOdds) == 0 ? 1 + random.nextInt(count) : 0;
        } else {
            choice = size < replay.length && Long.compareUnsigned(replay[size], count) <= 0 ? replay[size] : 0;
        }
        record(choice);
        return (int) choice - 1;
    }

    private long record(long value) {
        if (size == drawn.length) {
            drawn = Arrays.copyOf(drawn, size * 2);
        }
        drawn[size++] = value;
        return value;
    }

    /** The choices made so far. */
    long[] choices() {
        return Arrays.copyOf(drawn, size);
    }
}
