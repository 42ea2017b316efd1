package io.changeflow.adapter.web.identity;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The proxies whose word we take ({@code changeflow.identity.trusted-proxies}, CIDR list, default
 * loopback). Identity headers are honoured only when the direct peer is one of them, and the client
 * address is found by the trusted-proxy rule: walk {@code X-Forwarded-For} from the right, skipping
 * trusted proxies; the first untrusted hop is the client. The leftmost ("first") hop is whatever the
 * client chose to send and is never believed on its own.
 *
 * <p>Failure behaviour: an invalid CIDR in the configuration fails start-up (a typo must not
 * silently distrust the real proxy or trust everyone). At request time nothing throws: an
 * unparsable hop ends the walk at the last trusted address seen, so garbage never becomes a key.
 */
public final class TrustedProxies {

    public static final String FORWARDED_FOR = "X-Forwarded-For";

    private final List<Cidr> blocks;

    public TrustedProxies(List<Cidr> blocks) {
        this.blocks = List.copyOf(blocks);
    }

    public static TrustedProxies parse(List<String> specs) {
        return new TrustedProxies(specs.stream().filter(s -> !s.isBlank()).map(Cidr::parse).toList());
    }

    /** Whether the direct peer of {@code request} is a trusted proxy. */
    boolean peerIsTrusted(HttpServletRequest request) {
        return IpAddresses.parse(request.getRemoteAddr()).map(this::isTrusted).orElse(false);
    }

    boolean isTrusted(InetAddress address) {
        for (var block : blocks) {
            if (block.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** The client address by the trusted-proxy rule, in canonical text form. */
    public String clientAddress(HttpServletRequest request) {
        var peerText = request.getRemoteAddr();
        var peer = IpAddresses.parse(peerText);
        if (peer.isEmpty()) {
            return peerText == null ? "unknown" : peerText;
        }
        if (!isTrusted(peer.get())) {
            return peer.get().getHostAddress();
        }
        var hops = forwardedFor(request);
        var client = peer.get();
        for (var i = hops.size() - 1; i >= 0; i--) {
            var hop = IpAddresses.parse(hops.get(i));
            if (hop.isEmpty()) {
                break;
            }
            client = hop.get();
            if (!isTrusted(client)) {
                break;
            }
        }
        return client.getHostAddress();
    }

    private static List<String> forwardedFor(HttpServletRequest request) {
        var values = request.getHeaders(FORWARDED_FOR);
        if (values == null) {
            return List.of();
        }
        var hops = new ArrayList<String>();
        for (var value : Collections.list(values)) {
            for (var part : value.split(",")) {
                if (!part.isBlank()) {
                    hops.add(part.strip());
                }
            }
        }
        return hops;
    }
}
