package io.changeflow.adapter.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Security headers on every response the service writes (JSON, the app's page, assets, errors):
 * a Content-Security-Policy the single-page app runs under (its own scripts, styles, images and API
 * only; the one inline script of its page, the release guard, allowed by its hash, computed at start
 * from the page this build serves), no framing ({@code frame-ancestors 'none'}, {@code X-Frame-Options}),
 * {@code X-Content-Type-Options: nosniff} and {@code Referrer-Policy: no-referrer}. The sandbox's
 * simulator pages ({@code /sim/}) get a policy of their own: inline styles, no script at all.
 *
 * <p>One exception (issue 33): a 304 of the JSON API ({@link #LEAN_NOT_MODIFIED}) carries none of them. RFC 9110
 * section 15.4.5 asks a 304 for the fields a 200 would carry that update the stored answer's metadata (ETag,
 * Cache-Control, Date, Vary); the security headers are about a body and a document, a 304 has neither, and the
 * browser keeps those of the stored 200 (RFC 9111 section 4.3.4). They were 390 of the 568 bytes of a polled 304.
 * Pages and assets keep them on a 304 too, and every other answer of the API keeps them: on a conditional request
 * of the API they are written as the answer's body starts, or at its end, unless the answer is 304.
 */
final class SecurityHeadersFilter extends OncePerRequestFilter {

    static final String CSP = "Content-Security-Policy";
    static final String SIMULATOR_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** The path prefixes whose 304s carry no security headers: the JSON API, never a page. */
    static final List<String> LEAN_NOT_MODIFIED = List.of("/api/", "/ops/");

    private static final Pattern INLINE_SCRIPT = Pattern.compile("<script(\\s[^>]*)?>(.*?)</script>", Pattern.DOTALL);

    private final String appPolicy;

    SecurityHeadersFilter(String indexHtml) {
        var scripts = new StringBuilder("'self'");
        for (var hash : inlineScriptHashes(indexHtml)) {
            scripts.append(" '").append(hash).append('\'');
        }
        this.appPolicy = "default-src 'self'; script-src " + scripts + "; style-src 'self'; img-src 'self' data:; "
                + "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
                + "frame-ancestors 'none'";
    }

    /** The filter for the page this build serves ({@code static/index.html}; none in a build without the app). */
    static SecurityHeadersFilter forServedPage() {
        var page = new ClassPathResource(WebMvcSetup.STATIC_LOCATION_PATH + "index.html");
        try (var in = page.getInputStream()) {
            return new SecurityHeadersFilter(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException noPage) {
            return new SecurityHeadersFilter("");
        }
    }

    String appPolicy() {
        return appPolicy;
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!mayBeLeanNotModified(request)) {
            writeHeaders(request, response);
            chain.doFilter(request, response);
            return;
        }
        var lean = new UnlessNotModified(response, () -> writeHeaders(request, response));
        try {
            chain.doFilter(request, lean);
        } finally {
            lean.beforeCommit();
        }
    }

    private void writeHeaders(HttpServletRequest request, HttpServletResponse response) {
        response.setHeader(CSP, request.getRequestURI().startsWith("/sim/") ? SIMULATOR_POLICY : appPolicy);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    }

    /** A conditional read of the JSON API: the only kind of request whose answer may be a lean 304. */
    private static boolean mayBeLeanNotModified(HttpServletRequest request) {
        if (request.getHeader(HttpHeaders.IF_NONE_MATCH) == null && request.getHeader(HttpHeaders.IF_MODIFIED_SINCE) == null) {
            return false;
        }
        var path = request.getRequestURI();
        return LEAN_NOT_MODIFIED.stream().anyMatch(path::startsWith);
    }

    /**
     * Writes the security headers at the latest moment they can still be written (the body starts, an error or a
     * redirect is sent, the buffer is flushed, or the chain ends), unless the status is then 304.
     */
    private static final class UnlessNotModified extends HttpServletResponseWrapper {
        private final Runnable writeHeaders;
        private boolean decided;

        UnlessNotModified(HttpServletResponse response, Runnable writeHeaders) {
            super(response);
            this.writeHeaders = writeHeaders;
        }

        void beforeCommit() {
            if (decided || isCommitted()) {
                return;
            }
            decided = true;
            if (getStatus() != HttpServletResponse.SC_NOT_MODIFIED) {
                writeHeaders.run();
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            beforeCommit();
            return super.getOutputStream();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            beforeCommit();
            return super.getWriter();
        }

        @Override
        public void flushBuffer() throws IOException {
            beforeCommit();
            super.flushBuffer();
        }

        @Override
        public void sendError(int sc, String msg) throws IOException {
            setStatus(sc);
            beforeCommit();
            super.sendError(sc, msg);
        }

        @Override
        public void sendError(int sc) throws IOException {
            setStatus(sc);
            beforeCommit();
            super.sendError(sc);
        }

        @Override
        public void sendRedirect(String location) throws IOException {
            sendRedirect(location, SC_FOUND, true);
        }

        @Override
        public void sendRedirect(String location, int sc) throws IOException {
            sendRedirect(location, sc, true);
        }

        @Override
        public void sendRedirect(String location, boolean clearBuffer) throws IOException {
            sendRedirect(location, SC_FOUND, clearBuffer);
        }

        @Override
        public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
            setStatus(sc);
            beforeCommit();
            super.sendRedirect(location, sc, clearBuffer);
        }
    }

    /** {@code sha256-<base64>} of every inline script (one without {@code src}) of {@code html}. */
    static List<String> inlineScriptHashes(String html) {
        var hashes = new ArrayList<String>();
        var matcher = INLINE_SCRIPT.matcher(html);
        while (matcher.find()) {
            var attributes = matcher.group(1) == null ? "" : matcher.group(1);
            if (attributes.contains("src=") || matcher.group(2).isEmpty()) {
                continue;
            }
            hashes.add("sha256-" + Base64.getEncoder().encodeToString(sha256(matcher.group(2))));
        }
        return hashes;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
