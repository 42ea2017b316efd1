package io.changeflow.domain.request;

import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Who may ask for whom on a target ({@code changeflow.catalog.targets[n].ask-for}, issue 37): whether a requester may
 * name a subject other than themselves. The fail-safe is {@link #SELF}: a missing or garbled setting never lets
 * anyone request (and so block or hold) access for another person.
 */
public enum AskPolicy {

    /** The default: a requester asks only for themselves (the subject is the requester's own account). */
    SELF,

    /** Anyone may ask for anyone (e.g. people asking for service accounts); the approver decides. */
    ANYONE,

    /**
     * A requester asks for themselves, or for a person the company directory relates to them (their manager, a
     * member of their team); a directory that knows no relation allows self only.
     */
    RELATED;

    /** The value as configured: {@code self}, {@code anyone}, {@code related}. */
    public String settingName() {
        return SettingNames.of(this);
    }

    /**
     * Whether {@code requester} may ask for {@code subject}; {@code related} is asked only for {@link #RELATED} and
     * another person (whether the directory relates the two).
     */
    public boolean allows(String requester, String subject, BooleanSupplier related) {
        if (requester.equals(subject)) {
            return true;
        }
        return switch (this) {
            case SELF -> false;
            case ANYONE -> true;
            case RELATED -> related.getAsBoolean();
        };
    }

    /**
     * The policy {@code raw} names (case and surrounding whitespace ignored, {@code _} read as {@code -}); empty for a
     * missing, blank or unknown value (the caller applies {@link #SELF} and may say so).
     */
    public static Optional<AskPolicy> named(String raw) {
        return SettingNames.named(values(), raw);
    }

    /** The policy {@code raw} names, or {@link #SELF} when it names none (missing, blank, garbled). */
    public static AskPolicy parse(String raw) {
        return named(raw).orElse(SELF);
    }
}
