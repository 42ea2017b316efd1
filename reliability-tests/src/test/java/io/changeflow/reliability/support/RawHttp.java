package io.changeflow.reliability.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, byte for byte: what {@code java.net.http} refuses to send (control
 * characters in headers and paths, duplicate or forbidden headers, wrong framing) is what bad input
 * is made of. Every exchange is one connection ({@code Connection: close}), read until the server
 * closes it or the deadline passes.
 */
public final class RawHttp {

    /** One header as sent: name and value are raw text (ISO-8859-1 bytes, or UTF-8 when asked). */
    public record Header(String name, String value) {}

    /** How the body is framed. */
    public enum Framing { CONTENT_LENGTH, CHUNKED, NONE }

    /**
     * One request.
     *
     * @param method      any token (or garbage)
     * @param target      the request target as sent (path and query, not encoded further)
     * @param headers     extra headers; Host and Connection are added
     * @param body        may be empty
     * @param framing     how the body is announced
     * @param utf8Head    whether the request line and headers are encoded as UTF-8 (else ISO-8859-1)
     */
    public record Request(String method, String target, List<Header> headers, byte[] body, Framing framing,
                          boolean utf8Head) {

        public Request {
            headers = List.copyOf(headers);
            body = body == null ? new byte[0] : body;
        }

        public static Request of(String method, String target) {
            return new Request(method, target, List.of(), new byte[0], Framing.CONTENT_LENGTH, false);
        }

        public Request withHeader(String name, String value) {
            var more = new ArrayList<>(headers);
            more.add(new Header(name, value));
            return new Request(method, target, more, body, framing, utf8Head);
        }

        public Request withHeaders(Map<String, String> extra) {
            var more = new ArrayList<>(headers);
            extra.forEach((k, v) -> more.add(new Header(k, v)));
            return new Request(method, target, more, body, framing, utf8Head);
        }

        public Request withBody(byte[] newBody, Framing newFraming) {
            return new Request(method, target, headers, newBody, newFraming, utf8Head);
        }

        /** The bytes on the wire for {@code host:port}. */
        public byte[] bytes(String hostPort) {
            var head = new StringBuilder();
            head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
            head.append("Host: ").append(hostPort).append("\r\n");
            for (var h : headers) {
                head.append(h.name()).append(": ").append(h.value()).append("\r\n");
            }
            switch (framing) {
                case CONTENT_LENGTH -> {
                    if (body.length > 0 || !method.equals("GET")) {
                        head.append("Content-Length: ").append(body.length).append("\r\n");
                    }
                }
                case CHUNKED -> head.append("Transfer-Encoding: chunked\r\n");
                case NONE -> {
                    // the body (if any) is sent without announcing it
                }
            }
            head.append("Connection: close\r\n\r\n");
            var out = new ByteArrayOutputStream();
            out.writeBytes(head.toString().getBytes(utf8Head ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1));
            if (framing == Framing.CHUNKED) {
                var at = 0;
                while (at < body.length) {
                    var n = Math.min(8192, body.length - at);
                    out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(body, at, n);
                    out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
                    at += n;
                }
                out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            } else {
                out.writeBytes(body);
            }
            return out.toByteArray();
        }
    }

    /**
     * One answer.
     *
     * @param status  the status code, 0 when the server closed (or timed out) without a status line
     * @param head    the status line and headers as received (ISO-8859-1)
     * @param body    the body, de-chunked
     * @param failure why there is no answer (null when there is one)
     */
    public record Response(int status, String head, List<Header> headers, byte[] body, String failure) {

        public String header(String name) {
            return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse(null);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Status line, headers and body as one text (for leak checks). */
        public String wholeText() {
            return head + "\r\n" + bodyText();
        }

        public boolean answered() {
            return status > 0;
        }

        @Override
        public String toString() {
            var text = bodyText();
            return "HTTP " + status + (failure == null ? "" : " (" + failure + ")") + " "
                    + (text.length() > 400 ? text.substring(0, 400) + "..." : text);
        }
    }

    private RawHttp() {
    }

    /** Sends {@code request} to {@code 127.0.0.1:port} and reads the whole answer (bounded by {@code timeout}). */
    public static Response exchange(int port, Request request, Duration timeout) {
        var hostPort = "127.0.0.1:" + port;
        var deadline = System.nanoTime() + timeout.toNanos();
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), (int) Math.min(timeout.toMillis(), 5000));
            socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            var out = socket.getOutputStream();
            try {
                out.write(request.bytes(hostPort));
                out.flush();
            } catch (IOException writeFailed) {
                // the server may answer (e.g. 413) and close before the whole body is sent: read what it said
            }
            var in = socket.getInputStream();
            var received = new ByteArrayOutputStream();
            var buffer = new byte[16384];
            try {
                while (System.nanoTime() < deadline) {
                    var n = in.read(buffer);
                    if (n < 0) {
                        break;
                    }
                    received.write(buffer, 0, n);
                    if (complete(received.toByteArray())) {
                        break;
                    }
                }
            } catch (SocketTimeoutException e) {
                if (received.size() == 0) {
                    return new Response(0, "", List.of(), new byte[0], "no answer within " + timeout.toMillis() + " ms");
                }
            } catch (IOException e) {
                if (received.size() == 0) {
                    return new Response(0, "", List.of(), new byte[0], "connection failed: " + e.getMessage());
                }
            }
            return parse(received.toByteArray());
        } catch (IOException e) {
            return new Response(0, "", List.of(), new byte[0], "connection failed: " + e.getMessage());
        }
    }

    /** Whether {@code bytes} hold a whole response (by Content-Length or the last chunk); else read until close. */
    private static boolean complete(byte[] bytes) {
        var end = headEnd(bytes);
        if (end < 0) {
            return false;
        }
        var head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        var length = headerValue(head, "content-length");
        if (length != null) {
            try {
                return bytes.length - (end + 4) >= Long.parseLong(length.strip());
            } catch (NumberFormatException e) {
                return false;
            }
        }
        if ("chunked".equals(headerValue(head, "transfer-encoding"))) {
            var tail = new String(bytes, Math.max(end + 4, bytes.length - 7), Math.min(7, bytes.length - end - 4),
                    StandardCharsets.ISO_8859_1);
            return tail.endsWith("0\r\n\r\n");
        }
        return false;
    }

    private static String headerValue(String lowerHead, String name) {
        for (var line : lowerHead.split("\r\n")) {
            var colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equals(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    private static int headEnd(byte[] bytes) {
        for (var i = 0; i + 3 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static Response parse(byte[] bytes) {
        var end = headEnd(bytes);
        if (end < 0) {
            var text = new String(bytes, StandardCharsets.ISO_8859_1);
            return new Response(0, text, List.of(), new byte[0], "incomplete answer (" + bytes.length + " bytes)");
        }
        var head = new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
        var lines = head.split("\r\n");
        var status = 0;
        var parts = lines[0].split(" ");
        if (parts.length >= 2 && parts[0].startsWith("HTTP/")) {
            try {
                status = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                status = 0;
            }
        }
        var headers = new ArrayList<Header>();
        for (var i = 1; i < lines.length; i++) {
            var colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.add(new Header(lines[i].substring(0, colon).strip(), lines[i].substring(colon + 1).strip()));
            }
        }
        var body = java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length);
        var chunked = headers.stream().anyMatch(h -> h.name().equalsIgnoreCase("Transfer-Encoding")
                && h.value().equalsIgnoreCase("chunked"));
        if (chunked) {
            body = dechunk(body);
        }
        return new Response(status, head, List.copyOf(headers), body, status == 0 ? "no status line" : null);
    }

    private static byte[] dechunk(byte[] body) {
        var out = new ByteArrayOutputStream();
        var at = 0;
        while (at < body.length) {
            var lineEnd = at;
            while (lineEnd + 1 < body.length && !(body[lineEnd] == '\r' && body[lineEnd + 1] == '\n')) {
                lineEnd++;
            }
            if (lineEnd + 1 >= body.length) {
                break;
            }
            var sizeText = new String(body, at, lineEnd - at, StandardCharsets.ISO_8859_1).strip();
            var semicolon = sizeText.indexOf(';');
            if (semicolon >= 0) {
                sizeText = sizeText.substring(0, semicolon);
            }
            int size;
            try {
                size = Integer.parseInt(sizeText, 16);
            } catch (NumberFormatException e) {
                break;
            }
            if (size == 0) {
                break;
            }
            var start = lineEnd + 2;
            var n = Math.min(size, body.length - start);
            out.write(body, start, n);
            at = start + n + 2;
        }
        return out.toByteArray();
    }
}
