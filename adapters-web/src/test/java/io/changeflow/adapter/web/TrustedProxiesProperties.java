package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.springframework.mock.web.MockHttpServletRequest;

class TrustedProxiesProperties {

    private final TrustedProxies proxies = TrustedProxies.parse(List.of("127.0.0.0/8", "10.9.0.0/16"));

    @Property(tries = 300)
    void whateverAClientPrependsTheAddressSeenByTheTrustedProxyWins(
            @ForAll @Size(max = 6) List<String> forged,
            @ForAll @IntRange(min = 1, max = 254) int last,
            @ForAll @IntRange(min = 0, max = 3) int innerProxies) {
        var real = "198.51.100." + last;
        var hops = new java.util.ArrayList<>(forged.stream().map(s -> s.replace(",", "")).toList());
        hops.add(real);
        for (var i = 0; i < innerProxies; i++) {
            hops.add("10.9.0." + (i + 2));
        }
        var request = new MockHttpServletRequest();
        request.setRemoteAddr("10.9.0.1");
        request.addHeader(TrustedProxies.FORWARDED_FOR, String.join(", ", hops));
        assertThat(proxies.clientAddress(request)).isEqualTo(real);
    }
}
