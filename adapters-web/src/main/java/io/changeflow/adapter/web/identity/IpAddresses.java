package io.changeflow.adapter.web.identity;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Parses IP address literals without ever asking DNS (a header value must never trigger a lookup).
 * Accepts {@code 1.2.3.4}, {@code 1.2.3.4:port}, IPv6 ({@code ::1}, {@code [2001:db8::1]:port});
 * anything else is not an address.
 */
public final class IpAddresses {

    private static final Pattern IPV4 = Pattern.compile("^(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?::\\d{1,5})?$");
    private static final Pattern IPV6 = Pattern.compile("^[0-9A-Fa-f:.]{2,45}$");
    private static final Pattern BRACKETED_IPV6 = Pattern.compile("^\\[([0-9A-Fa-f:.]{2,45})](?::\\d{1,5})?$");

    private IpAddresses() {
    }

    static Optional<InetAddress> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        var value = text.strip();
        var v4 = IPV4.matcher(value);
        if (v4.matches()) {
            var bytes = new byte[4];
            for (var i = 0; i < 4; i++) {
                var octet = Integer.parseInt(v4.group(i + 1));
                if (octet > 255) {
                    return Optional.empty();
                }
                bytes[i] = (byte) octet;
            }
            return byAddress(bytes);
        }
        var bracketed = BRACKETED_IPV6.matcher(value);
        if (bracketed.matches()) {
            return v6(bracketed.group(1));
        }
        return value.indexOf(':') >= 0 && IPV6.matcher(value).matches() ? v6(value) : Optional.empty();
    }

    /**
     * The rate-limit subject of a client address: an IPv4 address as it is, an IPv6 address by its /64
     * ({@code 2001:db8:1:2::/64}: one host or network owns a whole /64, so its addresses share a quota);
     * text that is no address stays as it is.
     */
    public static String rateLimitGroup(String address) {
        var parsed = parse(address);
        if (parsed.isEmpty() || !(parsed.get() instanceof java.net.Inet6Address v6)) {
            return parsed.map(InetAddress::getHostAddress).orElse(address);
        }
        var bytes = v6.getAddress();
        var prefix = new StringBuilder();
        for (var i = 0; i < 8; i += 2) {
            prefix.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
        }
        return prefix.append(":/64").toString();
    }

    private static Optional<InetAddress> v6(String literal) {
        if (literal.indexOf(':') < 0) {
            return Optional.empty();
        }
        try {
            // Brackets make the JDK treat the text as an IPv6 literal: invalid text fails, no DNS lookup.
            return Optional.of(InetAddress.getByName("[" + literal + "]"));
        } catch (UnknownHostException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> byAddress(byte[] bytes) {
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
