package io.changeflow.domain.identity;

import java.util.Optional;

/**
 * What the login proxy told us about the caller, as it came: {@code user} may hold an account
 * ({@code alice}) or an employee ID ({@code E10023}); {@code email} an email-style account
 * ({@code alice@corp.example}). Either may be missing.
 */
public record LoginPrincipal(Optional<String> user, Optional<String> email) {

    public static LoginPrincipal anonymous() {
        return new LoginPrincipal(Optional.empty(), Optional.empty());
    }

    public static LoginPrincipal of(String user, String email) {
        return new LoginPrincipal(Optional.ofNullable(user), Optional.ofNullable(email));
    }
}
