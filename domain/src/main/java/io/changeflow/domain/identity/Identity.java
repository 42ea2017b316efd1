package io.changeflow.domain.identity;

import java.util.Objects;

/**
 * The canonical identity of a caller: one account name however the login proxy spelled it.
 *
 * @param account lower-case account name, e.g. {@code alice}; for an unverified employee ID the ID itself
 * @param trust   whether the account is known for sure; metrics and authorization skip {@link Trust#UNVERIFIED}
 */
public record Identity(String account, Trust trust) {

    /** How sure we are that {@link #account} names the person. */
    public enum Trust {
        /** An account, an email-style account, or an employee ID the directory mapped to an account. */
        VERIFIED,
        /** Only a bare ID the directory could not map: usable to tell callers apart, not to name them. */
        UNVERIFIED
    }

    public Identity {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(trust, "trust");
    }

    public static Identity verified(String account) {
        return new Identity(account, Trust.VERIFIED);
    }

    public boolean isVerified() {
        return trust == Trust.VERIFIED;
    }

    @Override
    public String toString() {
        return isVerified() ? account : account + "(unverified)";
    }
}
