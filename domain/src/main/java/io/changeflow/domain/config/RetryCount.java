package io.changeflow.domain.config;

/**
 * A retry count such as {@code approval.maxRetries}: missing or unparsable gives the default,
 * negative gives 0, and values above the cap are capped (a typo like 300 must not keep a request
 * retrying for hours).
 */
public final class RetryCount {

    public static final int CAP = 10;

    private RetryCount() {
    }

    public static Resolved<Integer> resolve(RawValue raw, int defaultValue) {
        if (raw.isBlank()) {
            return new Resolved<>(raw.text(), defaultValue, "missing: default " + defaultValue);
        }
        var parsed = StrictInteger.parseSetting(raw.get());
        if (parsed.isEmpty()) {
            return new Resolved<>(raw.text(), defaultValue, "unparsable: default " + defaultValue);
        }
        var value = parsed.getAsLong();
        if (value < 0) {
            return new Resolved<>(raw.text(), 0, "negative: 0");
        }
        if (value > CAP) {
            return new Resolved<>(raw.text(), CAP, "above the cap: " + CAP);
        }
        return new Resolved<>(raw.text(), (int) value, "configured");
    }
}
