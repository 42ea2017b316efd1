package io.changeflow.adapter.web.identity;

import java.net.InetAddress;

/**
 * An address block such as {@code 10.0.0.0/8} or {@code ::1} (a bare address is a single-host
 * block). IPv4-mapped IPv6 addresses match their IPv4 block.
 */
public final class Cidr {

    private final byte[] network;
    private final int prefixLength;
    private final String text;

    private Cidr(byte[] network, int prefixLength, String text) {
        this.network = network;
        this.prefixLength = prefixLength;
        this.text = text;
    }

    public static Cidr parse(String spec) {
        var value = spec.strip();
        var slash = value.indexOf('/');
        var address = IpAddresses.parse(slash < 0 ? value : value.substring(0, slash))
                .orElseThrow(() -> new IllegalArgumentException("not an IP address block: '" + spec + "'"));
        var bytes = address.getAddress();
        var maxBits = bytes.length * 8;
        int prefix;
        try {
            prefix = slash < 0 ? maxBits : Integer.parseInt(value.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an IP address block: '" + spec + "'", e);
        }
        if (prefix < 0 || prefix > maxBits) {
            throw new IllegalArgumentException("prefix length out of range in '" + spec + "'");
        }
        return new Cidr(bytes, prefix, value);
    }

    boolean contains(InetAddress address) {
        var bytes = address.getAddress();
        if (bytes.length != network.length) {
            return false;
        }
        var fullBytes = prefixLength / 8;
        for (var i = 0; i < fullBytes; i++) {
            if (bytes[i] != network[i]) {
                return false;
            }
        }
        var remainingBits = prefixLength % 8;
        if (remainingBits == 0) {
            return true;
        }
        var mask = (byte) (0xFF << (8 - remainingBits));
        return (bytes[fullBytes] & mask) == (network[fullBytes] & mask);
    }

    @Override
    public String toString() {
        return text;
    }
}
