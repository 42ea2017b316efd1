package io.changeflow.sandbox.webhook;

import java.time.Duration;
import java.util.Map;

/**
 * The one-shot fields a simulator's controls body may name ({@code loseNext}, {@code duplicateNext},
 * {@code lateNext} + {@code lateMillis}), read and checked before anything changes, then applied to its
 * {@link CallbackControls}. A field the body leaves out is null and changes nothing.
 */
public record OneShotControls(Integer loseNext, Integer duplicateNext, Integer lateNext, Integer lateMillis) {

    /** Reads the fields of a controls body; IllegalArgumentException when one is not a whole number from 0 to 1000000. */
    public static OneShotControls of(Map<String, Object> body) {
        var controls = new OneShotControls(count(body, "loseNext"), count(body, "duplicateNext"), count(body, "lateNext"),
                count(body, "lateMillis"));
        if (controls.lateNext() != null && controls.lateMillis() == null) {
            throw new IllegalArgumentException("lateNext needs lateMillis");
        }
        return controls;
    }

    /** Sets the one-shot controls the body named. */
    public void applyTo(CallbackControls callbacks) {
        if (loseNext != null) {
            callbacks.loseNext(loseNext);
        }
        if (duplicateNext != null) {
            callbacks.duplicateNext(duplicateNext);
        }
        if (lateNext != null && lateMillis != null) {
            callbacks.delayNext(lateNext, Duration.ofMillis(lateMillis));
        }
    }

    private static Integer count(Map<String, Object> body, String field) {
        var raw = body.get(field);
        if (raw == null) {
            return null;
        }
        if (!(raw instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())
                || number.longValue() < 0 || number.longValue() > 1_000_000) {
            throw new IllegalArgumentException(field + " must be a whole number from 0 to 1000000");
        }
        return number.intValue();
    }
}
