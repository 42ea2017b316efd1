package io.changeflow.adapter.web.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class TrustedProxiesTest {

    private final TrustedProxies proxies = TrustedProxies.parse(List.of("127.0.0.0/8", "::1", "10.9.0.0/16"));

    private static MockHttpServletRequest request(String peer, String... forwardedFor) {
        var request = new MockHttpServletRequest();
        request.setRemoteAddr(peer);
        for (var value : forwardedFor) {
            request.addHeader(TrustedProxies.FORWARDED_FOR, value);
        }
        return request;
    }

    @Test
    void anUntrustedPeerIsTheClientWhateverItForwards() {
        assertThat(proxies.clientAddress(request("203.0.113.9", "1.1.1.1"))).isEqualTo("203.0.113.9");
    }

    @Test
    void theForgeableFirstHopIsNeverTakenTheHopAppendedByTheTrustedProxyIs() {
        assertThat(proxies.clientAddress(request("10.9.0.1", "6.6.6.6, 198.51.100.20"))).isEqualTo("198.51.100.20");
    }

    @Test
    void chainsOfTrustedProxiesAreSkippedFromTheRight() {
        assertThat(proxies.clientAddress(request("127.0.0.1", "6.6.6.6, 198.51.100.20, 10.9.4.4"))).isEqualTo("198.51.100.20");
        assertThat(proxies.clientAddress(request("127.0.0.1", "6.6.6.6, 198.51.100.20", "10.9.4.4"))).isEqualTo("198.51.100.20");
    }

    @Test
    void whenEveryHopIsTrustedTheLeftmostIsTheClient() {
        assertThat(proxies.clientAddress(request("127.0.0.1", "10.9.1.1, 10.9.2.2"))).isEqualTo("10.9.1.1");
        assertThat(proxies.clientAddress(request("127.0.0.1"))).isEqualTo("127.0.0.1");
    }

    @Test
    void garbageOrAHostNameEndsTheWalkAtTheLastTrustedAddressAndIsNeverLookedUp() {
        assertThat(proxies.clientAddress(request("10.9.0.1", "evil.example.com"))).isEqualTo("10.9.0.1");
        assertThat(proxies.clientAddress(request("10.9.0.1", "198.51.100.1, <script>, 10.9.7.7"))).isEqualTo("10.9.7.7");
        assertThat(proxies.clientAddress(request("10.9.0.1", "999.1.1.1"))).isEqualTo("10.9.0.1");
    }

    @Test
    void ipv6AndPortsAreUnderstood() {
        assertThat(proxies.clientAddress(request("0:0:0:0:0:0:0:1", "[2001:db8::7]:4431"))).isEqualTo("2001:db8:0:0:0:0:0:7");
        assertThat(proxies.clientAddress(request("::1", "198.51.100.3:5555"))).isEqualTo("198.51.100.3");
        assertThat(proxies.clientAddress(request("::ffff:10.9.0.1", "198.51.100.4"))).isEqualTo("198.51.100.4");
    }

    @Test
    void peerTrustDecidesWhetherIdentityHeadersCount() {
        assertThat(proxies.peerIsTrusted(request("127.0.0.1"))).isTrue();
        assertThat(proxies.peerIsTrusted(request("10.9.200.1"))).isTrue();
        assertThat(proxies.peerIsTrusted(request("10.10.0.1"))).isFalse();
        assertThat(proxies.peerIsTrusted(request("not-an-ip"))).isFalse();
    }

    @Test
    void aMistypedBlockFailsAtStartUp() {
        assertThatThrownBy(() -> TrustedProxies.parse(List.of("10.0.0.0/33"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustedProxies.parse(List.of("proxy.internal"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TrustedProxies.parse(List.of("10.0.0.0/x"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cidrMatchingHonoursPartialPrefixes() {
        var block = Cidr.parse("192.168.4.0/22");
        assertThat(block.contains(IpAddresses.parse("192.168.7.255").orElseThrow())).isTrue();
        assertThat(block.contains(IpAddresses.parse("192.168.8.0").orElseThrow())).isFalse();
        assertThat(block.contains(IpAddresses.parse("::1").orElseThrow())).isFalse();
    }
}
