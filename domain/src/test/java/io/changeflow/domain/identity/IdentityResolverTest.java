package io.changeflow.domain.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdentityResolverTest {

    private static final java.util.Set<String> CORP = java.util.Set.of("corp.example");
    private static final Map<String, String> DEMO = Map.of("E1001", "alice", "E1002", "Bob", "E1003", "not an account!");

    /** The demo directory: knows E1001 (alice) and E1002 (Bob), and one broken entry. */
    private static final EmployeeDirectory DIRECTORY = id -> Optional.ofNullable(DEMO.get(id));

    private static final EmployeeDirectory DOWN = id -> {
        throw new IllegalStateException("directory unavailable");
    };

    private final IdentityResolver resolver = new IdentityResolver(DIRECTORY, CORP);

    private static LoginPrincipal principal(String user, String email) {
        return LoginPrincipal.of(user, email);
    }

    @Test
    void everySpellingOfAliceIsTheSameIdentity() {
        var alice = Identity.verified("alice");
        var spellings = List.of(
                principal("alice", null),
                principal("ALICE", null),
                principal("Alice", null),
                principal(" alice ", null),
                principal("alice@corp.example", null),
                principal("Alice@Corp.Example", null),
                principal(null, "alice@corp.example"),
                principal("", "ALICE@corp.example"),
                principal("E1001", null),
                principal("e1001", null),
                principal(" E1001 ", "someone-else@corp.example"));
        for (var spelling : spellings) {
            assertThat(resolver.resolve(spelling)).as(spelling.toString()).contains(alice);
        }
    }

    @Test
    void lowerCasesTheAccountTheDirectoryReturns() {
        assertThat(resolver.resolve(principal("E1002", null))).contains(Identity.verified("bob"));
    }

    @Test
    void anAddressOfAnotherDomainIsUnverifiedAndNeverTheLocalAccount() {
        for (var principal : java.util.List.of(principal("otto@evil.example", null), principal(null, "otto@evil.example"),
                principal("", "Otto@Evil.Example"), principal(null, "otto@corp.example.evil.example"),
                principal(null, "otto@sub.corp.example"))) {
            var identity = resolver.resolve(principal).orElseThrow();
            assertThat(identity.isVerified()).as(principal.toString()).isFalse();
            assertThat(identity.account()).as(principal.toString()).isNotEqualTo("otto").contains("@");
        }
        assertThat(resolver.resolve(principal(null, "Otto@CORP.example"))).contains(Identity.verified("otto"));
    }

    @Test
    void withoutAcceptedDomainsOrWithGarbledOnesNoAddressNamesAnAccount() {
        for (var domains : java.util.List.of(java.util.Set.<String>of(), java.util.Set.of("*", "@corp.example", " ", "corp..example",
                ".example", "corp.example/x"))) {
            var strict = new IdentityResolver(DIRECTORY, domains);
            assertThat(strict.resolve(principal(null, "alice@corp.example")).orElseThrow().isVerified()).as(domains.toString()).isFalse();
            assertThat(strict.resolve(principal("alice", null))).contains(Identity.verified("alice"));
        }
        assertThat(IdentityResolver.validDomains(java.util.Set.of(" Corp.Example ", "*", "x"))).containsExactly("corp.example");
    }

    @Test
    void passesTheEmployeeIdToTheDirectoryInUpperCase() {
        var asked = new ArrayList<String>();
        var recording = new IdentityResolver(id -> {
            asked.add(id);
            return Optional.of("alice");
        }, CORP);
        recording.resolve(principal(" e1001 ", null));
        assertThat(asked).containsExactly("E1001");
    }

    @Test
    void fallsBackToTheEmailWhenTheDirectoryIsDown() {
        var down = new IdentityResolver(DOWN, CORP);
        assertThat(down.resolve(principal("E1001", "alice@corp.example"))).contains(Identity.verified("alice"));
    }

    @Test
    void fallsBackToAnUnverifiedIdWhenTheDirectoryIsDownAndThereIsNoEmail() {
        var down = new IdentityResolver(DOWN, CORP);
        var identity = down.resolve(principal("e1001", null)).orElseThrow();
        assertThat(identity).isEqualTo(new Identity("E1001", Identity.Trust.UNVERIFIED));
        assertThat(identity.isVerified()).isFalse();
        assertThat(identity).hasToString("E1001(unverified)");
    }

    @Test
    void unknownEmployeeIdIsUnverified() {
        assertThat(resolver.resolve(principal("E9999", null)))
                .contains(new Identity("E9999", Identity.Trust.UNVERIFIED));
    }

    @Test
    void unknownEmployeeIdFallsBackToTheEmail() {
        assertThat(resolver.resolve(principal("E9999", "carol@corp.example"))).contains(Identity.verified("carol"));
    }

    @Test
    void unreadableDirectoryAnswerIsTreatedAsNotFound() {
        assertThat(resolver.resolve(principal("E1003", null))).contains(new Identity("E1003", Identity.Trust.UNVERIFIED));
        assertThat(resolver.resolve(principal("E1003", "dave@corp.example"))).contains(Identity.verified("dave"));
    }

    @Test
    void unreadableUserFallsBackToTheEmail() {
        assertThat(resolver.resolve(principal("not valid", "erin@corp.example"))).contains(Identity.verified("erin"));
        assertThat(resolver.resolve(principal("x@", "erin@corp.example"))).contains(Identity.verified("erin"));
    }

    @Test
    void anonymousHasNoIdentity() {
        assertThat(resolver.resolve(LoginPrincipal.anonymous())).isEmpty();
        assertThat(resolver.resolve(principal("", " "))).isEmpty();
        assertThat(resolver.resolve(principal("  ", null))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1alice", "_alice", "-alice", "al ice", "alice!", "al\u0000ice", "al\u0007ice", "al\u001bice",
            "ali\u200bce", "álice", "алиса", "alice;drop", "alice/../root", "<script>", "alice@", "@corp.example",
            "alice@@corp.example", "alice@corp example", "alice@corp.example@evil", "a\nb", "a b@corp.example",
            "alice\u0000", "\u0000alice", "alice\u0001", "alice\u007f", "alice\u0085", "alice\u00a0", "\u200balice",
            "alice@corp.example\u0000", "\u0000alice@corp.example", "E1001\u0000", "\u0000E1001"})
    void garbageOrControlCharactersGiveNoIdentity(String value) {
        assertThat(resolver.resolve(principal(value, null))).as("user %s", value).isEmpty();
        assertThat(resolver.resolve(principal(null, value))).as("email %s", value).isEmpty();
    }

    @Test
    void stripsUnicodeWhitespaceButNotControlCharacters() {
        var alice = Identity.verified("alice");
        assertThat(resolver.resolve(principal("\u2003alice\u3000", null))).contains(alice);
        assertThat(resolver.resolve(principal(null, "\u2028alice@corp.example\u1680"))).contains(alice);
        assertThat(resolver.resolve(principal("\tE1001\n", null))).contains(alice);
        assertThat(resolver.resolve(principal("alice\u0000", null))).isEmpty();
        assertThat(resolver.resolve(principal("E1001\u0000", null))).isEmpty();
        assertThat(IdentityResolver.looksLikeEmployeeId("E1001\u0000")).isFalse();
        assertThat(IdentityResolver.looksLikeEmployeeId("\u2003E1001")).isTrue();
        // an unreadable user still falls back to a readable email
        assertThat(resolver.resolve(principal("alice\u0000", "bob@corp.example"))).contains(Identity.verified("bob"));
    }

    @Test
    void aDirectoryAnswerWithAControlCharacterIsNotAnAccount() {
        var odd = new IdentityResolver(id -> Optional.of(id.equals("E1001") ? "alice\u0000" : " bob\u2003"), CORP);
        assertThat(odd.resolve(principal("E1001", null))).contains(new Identity("E1001", Identity.Trust.UNVERIFIED));
        assertThat(odd.resolve(principal("E1002", null))).contains(Identity.verified("bob"));
    }

    @Test
    void tooLongValuesGiveNoIdentity() {
        var longest = "a".repeat(64);
        assertThat(resolver.resolve(principal(longest, null))).contains(Identity.verified(longest));
        assertThat(resolver.resolve(principal(longest + "a", null))).isEmpty();
        assertThat(resolver.resolve(principal(null, longest + "@corp.example"))).contains(Identity.verified(longest));
        assertThat(resolver.resolve(principal(null, longest + "a@corp.example"))).isEmpty();
        // (a domain that is not accepted: an unverified identity of the whole address)
        assertThat(resolver.resolve(principal(null, "a@" + "d".repeat(190)))).contains(new Identity("a@" + "d".repeat(190),
                Identity.Trust.UNVERIFIED));
        assertThat(resolver.resolve(principal(null, "a@" + "d".repeat(191)))).isEmpty();
        assertThat(resolver.resolve(principal("a".repeat(10_000), "b".repeat(10_000)))).isEmpty();
    }

    @Test
    void employeeIdsAreRecognisedByShape() {
        assertThat(IdentityResolver.looksLikeEmployeeId("E1001")).isTrue();
        assertThat(IdentityResolver.looksLikeEmployeeId(" e123 ")).isTrue();
        assertThat(IdentityResolver.looksLikeEmployeeId("E123456789012")).isTrue();
        assertThat(IdentityResolver.looksLikeEmployeeId("E12")).isFalse();
        assertThat(IdentityResolver.looksLikeEmployeeId("E1234567890123")).isFalse();
        assertThat(IdentityResolver.looksLikeEmployeeId("alice")).isFalse();
        assertThat(IdentityResolver.looksLikeEmployeeId("X1001")).isFalse();
        assertThat(IdentityResolver.looksLikeEmployeeId(null)).isFalse();
    }

    @Test
    void identityRequiresAnAccountAndATrust() {
        assertThatThrownBy(() -> new Identity(null, Identity.Trust.VERIFIED)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new Identity("alice", null)).isInstanceOf(NullPointerException.class);
        assertThat(Identity.verified("alice")).hasToString("alice");
        assertThat(Identity.verified("alice").isVerified()).isTrue();
    }
}
