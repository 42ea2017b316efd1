package io.changeflow.adapter.web.identity;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void theDemoCookieCountsOnlyWhenTheDemoLoginIsOn() {
        var request = new MockHttpServletRequest();
        request.setRemoteAddr("203.0.113.1");
        request.setCookies(new jakarta.servlet.http.Cookie(CallerIdentity.DEMO_COOKIE, "otto"));
        assertThat(new CallerIdentity(proxies, id -> Optional.empty(), false, java.util.Set.of()).current(request).readable()).isEmpty();
        var fresh = new MockHttpServletRequest();
        fresh.setCookies(request.getCookies());
        assertThat(new CallerIdentity(proxies, id -> Optional.empty(), true, java.util.Set.of()).current(fresh).readable())
                .hasValue(Identity.verified("otto"));
    }
}
