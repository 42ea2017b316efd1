package io.changeflow.domain.identity;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.elements;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.oneOf;
import static io.changeflow.propertytesting.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class IdentityProperties {

    private static final java.util.Set<String> CORP = java.util.Set.of("corp.example");
    private static final Pattern CANONICAL_ACCOUNT = Pattern.compile("[a-z][a-z0-9._-]{0,63}");
    private static final Pattern CANONICAL_EMPLOYEE_ID = Pattern.compile("E[0-9]{3,12}");

    private static Generator<String> headerValues() {
        return oneOf(
                anyStrings(80),
                strings("aAzZ019._-@ \t\u0000\u001béE", 0, 20),
                elements("alice", "ALICE", "alice@corp.example", "E1001", "e1001", "E9999", "", " ", "alice\u0000",
                        "\u0000alice", "E1001\u0000", "alice@corp.example\u0000", "\u2003alice\u3000"))
                .injectNull(0.2);
    }

    record Header(String user, String email) {}

    private static Generator<Header> headers() {
        var values = headerValues();
        return values.zip(values, Header::new);
    }

    @Test
    void resolvedIdentitiesAreAlwaysCanonical() {
        var resolver = new IdentityResolver(id -> id.equals("E1001") ? Optional.of("Alice") : Optional.empty(), CORP);
        Property.forAll(headers()).tries(3000).check(h ->
                resolver.resolve(LoginPrincipal.of(h.user(), h.email())).ifPresent(identity -> {
                    if (identity.isVerified()) {
                        assertThat(identity.account()).matches(CANONICAL_ACCOUNT);
                    } else {
                        // an unknown employee ID, or an address of a domain that is not accepted (lower case, whole)
                        assertThat(identity.account()).matches(CANONICAL_EMPLOYEE_ID + "|" + CANONICAL_ACCOUNT + "@[a-z0-9.-]{1,190}");
                    }
                }));
    }

    @Test
    void aFailingDirectoryNeverFailsTheResolver() {
        var down = new IdentityResolver(id -> {
            throw new IllegalStateException("down");
        }, CORP);
        Property.forAll(headers()).tries(1000).check(h -> {
            var identity = down.resolve(LoginPrincipal.of(h.user(), h.email()));
            if (h.user() != null && IdentityResolver.looksLikeEmployeeId(h.user())) {
                assertThat(identity).isPresent();
            }
        });
    }

    @Test
    void caseOfTheAccountDoesNotMatter() {
        var resolver = new IdentityResolver(id -> Optional.empty(), CORP);
        Property.forAll(accounts()).tries(1000).check(account -> {
            var lower = resolver.resolve(LoginPrincipal.of(account.toLowerCase(Locale.ROOT), null));
            var upper = resolver.resolve(LoginPrincipal.of(account.toUpperCase(Locale.ROOT), null));
            var email = resolver.resolve(LoginPrincipal.of(null, account + "@corp.example"));
            assertThat(lower).isPresent().isEqualTo(upper).isEqualTo(email);
        });
    }

    private static Generator<String> accounts() {
        var first = strings("abcdefghijklmnopqrstuvwxyz", 1, 1);
        var rest = strings("abcxyzABC0189._-", 0, 63);
        return first.zip(rest, String::concat).filter(a -> !a.matches("[eE][0-9]{3,12}"));
    }

    record Spoiled(String account, int at, int control) {

        String value() {
            var i = Math.min(at, account.length());
            return account.substring(0, i) + Character.toString(control) + account.substring(i);
        }

        /** Tab, line feed and carriage return are whitespace at the ends; any other control character spoils it. */
        boolean readableAsUser() {
            return isLayoutWhitespace() && (at == 0 || at >= account.length());
        }

        /** In front of "@corp.example" only a leading one can be stripped. */
        boolean readableAsEmail() {
            return isLayoutWhitespace() && at == 0;
        }

        private boolean isLayoutWhitespace() {
            return control == '\t' || control == '\n' || control == '\r';
        }
    }

    /**
     * A control character in an otherwise readable account or employee ID, as the user or as the local
     * part of the email: only whitespace at either end is stripped, anything else makes the value
     * unreadable (alice followed by U+0000 is not alice).
     */
    @Test
    void controlCharactersAreNotStrippedFromIdentities() {
        var resolver = new IdentityResolver(id -> id.equals("E1001") ? Optional.of("alice") : Optional.empty(), CORP);
        var controls = oneOf(ints(0, 0x1f), ints(0x7f, 0x9f));
        var base = oneOf(accounts(), elements("alice", "E1001", "e1001"));
        Generator<Spoiled> spoiled = s -> new Spoiled(base.generate(s), ints(0, 70).generate(s), controls.generate(s));
        Property.forAll(spoiled).tries(3000).check(sp -> {
            var cleanUser = resolver.resolve(LoginPrincipal.of(sp.account(), null));
            var cleanEmail = resolver.resolve(LoginPrincipal.of(null, sp.account() + "@corp.example"));
            assertThat(cleanUser).isPresent();
            assertThat(cleanEmail).isPresent();
            assertThat(resolver.resolve(LoginPrincipal.of(sp.value(), null))).as("user [%s]", sp)
                    .isEqualTo(sp.readableAsUser() ? cleanUser : Optional.empty());
            assertThat(resolver.resolve(LoginPrincipal.of(null, sp.value() + "@corp.example"))).as("email [%s]", sp)
                    .isEqualTo(sp.readableAsEmail() ? cleanEmail : Optional.empty());
        });
    }
}
