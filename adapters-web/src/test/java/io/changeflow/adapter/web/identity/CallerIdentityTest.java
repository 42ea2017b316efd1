package io.changeflow.adapter.web.identity;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.application.port.out.DemoPeople;
import io.changeflow.domain.identity.Identity;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class CallerIdentityTest {

    private final TrustedProxies proxies = TrustedProxies.parse(List.of("127.0.0.0/8"));

    private static MockHttpServletRequest request(String user) {
        var request = new MockHttpServletRequest();
        request.setRemoteAddr("127.0.0.1");
        request.addHeader(CallerIdentity.USER_HEADER, user);
        return request;
    }

    @Test
    void aDirectoryAnsweringNullCountsAsAFailedLoginSource() {
        var identities = new CallerIdentity(proxies, employeeId -> null, false, java.util.Set.of());
        assertThat(identities.current(request("E1001"))).isInstanceOf(CallerIdentity.Caller.LoginFailed.class);
    }

    @Test
    void anEmployeeIdTheDirectoryDoesNotKnowIsReadableButUnverified() {
        var identities = new CallerIdentity(proxies, employeeId -> Optional.empty(), false, java.util.Set.of());
        assertThat(identities.current(request("E4242")).readable())
                .hasValue(new Identity("E4242", Identity.Trust.UNVERIFIED));
    }

    @Test
    void businessResolvesOnceAndObservabilityNeverStoresItsOwnResolution() {
        var lookups = new AtomicInteger();
        var identities = new CallerIdentity(proxies, employeeId -> {
            lookups.incrementAndGet();
            return Optional.of("alice");
        }, false, java.util.Set.of());
        var request = request("E1001");
        assertThat(identities.peek(request).readable()).hasValue(Identity.verified("alice"));
        assertThat(identities.peek(request).readable()).hasValue(Identity.verified("alice"));
        assertThat(lookups.get()).as("peek never caches").isEqualTo(2);
        identities.current(request);
        identities.current(request);
        identities.peek(request);
        assertThat(lookups.get()).as("current resolves once and peek then reads it").isEqualTo(3);
    }

    /** The demo directory's people: only otto here. */
    private static final DemoPeople DEMO = new DemoPeople() {
        @Override
        public List<Person> people() {
            return List.of(new Person("otto", "E1004", "otto@corp.example", "operator"));
        }

        @Override
        public Optional<Person> byAccount(String account) {
            return people().stream().filter(p -> p.account().equalsIgnoreCase(account.strip())).findFirst();
        }
    };

    private CallerIdentity demoLogin(boolean on) {
        return new CallerIdentity(TrustedProxies.parse(List.of("10.0.0.0/8")), id -> Optional.empty(), on, java.util.Set.of(),
                CallerIdentity.DEFAULT_HEADERS, DEMO);
    }

    private static MockHttpServletRequest withDemoCookie(String peer, String account) {
        var request = new MockHttpServletRequest();
        request.setRemoteAddr(peer);
        request.setCookies(new jakarta.servlet.http.Cookie(CallerIdentity.DEMO_COOKIE, account));
        return request;
    }

    @Test
    void theDemoCookieCountsOnlyWhenTheDemoLoginIsOn() {
        assertThat(demoLogin(false).current(withDemoCookie("127.0.0.1", "otto")).readable()).isEmpty();
        assertThat(demoLogin(true).current(withDemoCookie("127.0.0.1", "otto")).readable()).hasValue(Identity.verified("otto"));
    }

    @Test
    void theDemoCookieCountsOnlyFromALoopbackOrTrustedPeerAndOnlyForADemoPerson() {
        assertThat(demoLogin(true).current(withDemoCookie("10.1.2.3", "otto")).readable()).hasValue(Identity.verified("otto"));
        assertThat(demoLogin(true).current(withDemoCookie("203.0.113.1", "otto")).readable()).isEmpty();
        assertThat(demoLogin(true).current(withDemoCookie("127.0.0.1", "carol")).readable()).isEmpty();
        assertThat(demoLogin(true).current(withDemoCookie("127.0.0.1", "root")).readable()).isEmpty();
        assertThat(demoLogin(true).current(withDemoCookie("127.0.0.1", "OTTO")).readable()).hasValue(Identity.verified("otto"));
    }

    private static final java.util.Set<CallerIdentity.Header> BOTH = java.util.Set.of(CallerIdentity.Header.USER,
            CallerIdentity.Header.EMAIL);

    private CallerIdentity bothHeaders() {
        return new CallerIdentity(proxies, id -> Optional.empty(), false, java.util.Set.of("corp.example"), BOTH, DEMO);
    }

    private static MockHttpServletRequest withOperatorEmail(String... users) {
        var request = new MockHttpServletRequest();
        request.setRemoteAddr("127.0.0.1");
        for (var user : users) {
            request.addHeader(CallerIdentity.USER_HEADER, user);
        }
        request.addHeader(CallerIdentity.EMAIL_HEADER, "otto@corp.example");
        return request;
    }

    @Test
    void aUserHeaderThatIsSentDecidesAloneAndNamesNobodyWhenRepeatedBlankOrGarbled() {
        for (var users : List.of(new String[] {"alice", "bob"}, new String[] {"alice", "alice"}, new String[] {" "},
                new String[] {"Bad Name!"}, new String[] {"alice\u0000"}, new String[] {"alice@corp.example@evil.example"})) {
            assertThat(bothHeaders().current(withOperatorEmail(users))).as(String.join("|", users))
                    .isInstanceOf(CallerIdentity.Caller.Rejected.class);
        }
        assertThat(bothHeaders().current(withOperatorEmail("alice")).readable()).hasValue(Identity.verified("alice"));
    }

    @Test
    void anUnknownEmployeeIdIsNeverReplacedByTheEmailHeader() {
        assertThat(bothHeaders().current(withOperatorEmail("E4242")).readable())
                .hasValue(new Identity("E4242", Identity.Trust.UNVERIFIED));
    }

    @Test
    void theEmailHeaderCountsOnlyWhenTheGatewaySendsItAndOnlyOnce() {
        var byDefault = new CallerIdentity(proxies, id -> Optional.empty(), false, java.util.Set.of("corp.example"));

        assertThat(byDefault.current(withOperatorEmail())).isInstanceOf(CallerIdentity.Caller.Anonymous.class);
        assertThat(bothHeaders().current(withOperatorEmail()).readable()).hasValue(Identity.verified("otto"));
        var twice = withOperatorEmail();
        twice.addHeader(CallerIdentity.EMAIL_HEADER, "amy@corp.example");
        assertThat(bothHeaders().current(twice)).isInstanceOf(CallerIdentity.Caller.Rejected.class);
    }
}
