package io.changeflow.domain.identity;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The one resolver from the login proxy's non-uniform fields to a canonical {@link Identity}, used by rate
 * limiting, authorization, auditing and metrics, so the same person never gets two names. Nothing
 * readable: empty. The rules, in order: docs/workflow.md.
 */
public final class IdentityResolver {

    private static final Pattern ACCOUNT = Pattern.compile("^[A-Za-z][A-Za-z0-9._-]{0,63}$");
    private static final Pattern EMPLOYEE_ID = Pattern.compile("^[Ee][0-9]{3,12}$");
    private static final Pattern EMAIL = Pattern.compile("^([A-Za-z][A-Za-z0-9._-]{0,63})@([A-Za-z0-9.-]{1,190})$");
    private static final Pattern DOMAIN = Pattern.compile("^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)+$");

    private final EmployeeDirectory directory;
    private final Set<String> acceptedEmailDomains;

    /**
     * @param acceptedEmailDomains the email domains whose addresses name local accounts (any case; an
     *        entry that is not a domain name is left out, see {@link #validDomains}); empty: no email
     *        address ever names a local account
     */
    public IdentityResolver(EmployeeDirectory directory, Set<String> acceptedEmailDomains) {
        this.directory = directory;
        this.acceptedEmailDomains = validDomains(acceptedEmailDomains);
    }

    /**
     * The entries of {@code domains} that are domain names ({@code corp.example}), lower-cased; anything
     * else ({@code *}, {@code @corp.example}, blanks) is dropped, so a garbled entry accepts nothing.
     */
    public static Set<String> validDomains(Set<String> domains) {
        return domains.stream()
                .map(d -> d == null ? "" : d.strip().toLowerCase(Locale.ROOT))
                .filter(d -> DOMAIN.matcher(d).matches())
                .collect(Collectors.toUnmodifiableSet());
    }

    public Optional<Identity> resolve(LoginPrincipal principal) {
        var user = principal.user().filter(IdentityResolver::readable).map(String::strip).filter(s -> !s.isEmpty());
        var email = principal.email().filter(IdentityResolver::readable).map(String::strip).filter(s -> !s.isEmpty());
        if (user.isPresent()) {
            var value = user.get();
            if (EMPLOYEE_ID.matcher(value).matches()) {
                var id = value.toUpperCase(Locale.ROOT);
                return lookup(id).or(() -> email.flatMap(this::fromEmail))
                        .or(() -> Optional.of(new Identity(id, Identity.Trust.UNVERIFIED)));
            }
            var fromUser = value.contains("@") ? fromEmail(value) : fromAccount(value);
            if (fromUser.isPresent()) {
                return fromUser;
            }
        }
        return email.flatMap(this::fromEmail);
    }

    /** True when {@code value} is shaped like an employee ID (used to decide what a lookup means). */
    public static boolean looksLikeEmployeeId(String value) {
        return value != null && EMPLOYEE_ID.matcher(value.strip()).matches();
    }

    private static boolean readable(String value) {
        return value.codePoints().noneMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }

    private Optional<Identity> lookup(String employeeId) {
        try {
            return directory.accountOf(employeeId)
                    .map(String::strip)
                    .filter(a -> ACCOUNT.matcher(a).matches())
                    .map(a -> Identity.verified(a.toLowerCase(Locale.ROOT)));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Identity> fromAccount(String value) {
        return ACCOUNT.matcher(value).matches()
                ? Optional.of(Identity.verified(value.toLowerCase(Locale.ROOT)))
                : Optional.empty();
    }

    private Optional<Identity> fromEmail(String email) {
        var matcher = EMAIL.matcher(email.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        var local = matcher.group(1).toLowerCase(Locale.ROOT);
        var domain = matcher.group(2).toLowerCase(Locale.ROOT);
        return Optional.of(acceptedEmailDomains.contains(domain)
                ? Identity.verified(local)
                : new Identity(local + "@" + domain, Identity.Trust.UNVERIFIED));
    }
}
