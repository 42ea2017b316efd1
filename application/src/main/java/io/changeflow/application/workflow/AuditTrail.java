package io.changeflow.application.workflow;

import io.changeflow.application.port.out.AuditLog;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/** Writes the audit entries of operators' actions: each under a fresh key, at the clock's now. */
public final class AuditTrail {

    private final AuditLog log;
    private final Clock clock;

    public AuditTrail(AuditLog log, Clock clock) {
        this.log = Objects.requireNonNull(log, "log");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Records that {@code actor} did {@code action} to {@code subject}.
     *
     * @param keyPrefix  the start of the entry's key (a random UUID follows it), e.g. {@code retrigger}
     * @param parameters already masked and truncated
     */
    public void record(String keyPrefix, String actor, String action, String subject, Map<String, String> parameters) {
        log.record(new AuditLog.Entry(keyPrefix + ":" + UUID.randomUUID(), actor, action, subject, parameters,
                clock.instant()));
    }

    /** The parameters as sent ({@code null}: none), in key order, to add the action's own to. */
    public static TreeMap<String, String> parametersOf(Map<String, String> sent) {
        return new TreeMap<>(sent == null ? Map.of() : sent);
    }
}
