package io.changeflow.adapter.web.identity;

import static io.changeflow.propertytesting.Generators.anyStrings;
import static io.changeflow.propertytesting.Generators.ints;
import static io.changeflow.propertytesting.Generators.lists;
import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.propertytesting.Generator;
import io.changeflow.propertytesting.Property;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

class TrustedProxiesProperties {

    private final TrustedProxies proxies = TrustedProxies.parse(List.of("127.0.0.0/8", "10.9.0.0/16"));

    record Chain(List<String> forged, int last, int innerProxies) {}

    @Test
    void whateverAClientPrependsTheAddressSeenByTheTrustedProxyWins() {
        var forged = lists(anyStrings(20), 0, 6);
        Generator<Chain> chains = s -> new Chain(forged.generate(s), ints(1, 254).generate(s), ints(0, 3).generate(s));
        Property.forAll(chains).tries(300).check(in -> {
            var real = "198.51.100." + in.last();
            var hops = new ArrayList<>(in.forged().stream().map(s -> s.replace(",", "")).toList());
            hops.add(real);
            for (var i = 0; i < in.innerProxies(); i++) {
                hops.add("10.9.0." + (i + 2));
            }
            var request = new MockHttpServletRequest();
            request.setRemoteAddr("10.9.0.1");
            request.addHeader(TrustedProxies.FORWARDED_FOR, String.join(", ", hops));
            assertThat(proxies.clientAddress(request)).isEqualTo(real);
        });
    }
}
