package io.changeflow.domain.reconcile;

import java.util.Locale;
import java.util.Optional;

/**
 * How reconciliation decides that a merged record whose own deploy report was lost is in effect,
 * per GitLab project. Whatever the mode, a record an in-effect report named by operation ID, or
 * whose own merge request an in-effect report without operation IDs named, is in effect (that is
 * exact evidence, not inference).
 */
public enum Matching {
    /** Only exact evidence advances a record; nothing is inferred from other merge requests (the default). */
    EXACT,
    /**
     * Also inferred: a record merged before (in merge order, never by merge request number) a merge request
     * an in-effect report named is taken as in effect, whatever that report carried.
     */
    WATERMARK,
    /** Exact, plus the watermark of reports that carry no operation IDs (reports with IDs say exactly what they deployed). */
    EXACT_WITH_WATERMARK_FALLBACK;

    /** The fail-safe default: missing, blank or unrecognised text means {@link #EXACT}. */
    public static Matching parse(String raw) {
        return recognise(raw).orElse(EXACT);
    }

    /**
     * The mode {@code raw} names ({@code exact}, {@code watermark}, {@code exact-with-watermark-fallback}; case,
     * surrounding blanks and {@code _} for {@code -} do not matter); empty when it names none.
     */
    public static Optional<Matching> recognise(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        var name = raw.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        for (var mode : values()) {
            if (mode.name().equals(name)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }

    /** The configuration spelling ({@code exact-with-watermark-fallback}). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether a watermark is used at all, and of which reports. */
    public boolean infers() {
        return this != EXACT;
    }
}
