package io.changeflow.adapter.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.core.io.ClassPathResource;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Security headers on every response the service writes (JSON, the app's page, assets, errors):
 * a Content-Security-Policy the single-page app runs under (its own scripts, styles, images and API
 * only; the one inline script of its page, the release guard, allowed by its hash, computed at start
 * from the page this build serves), no framing ({@code frame-ancestors 'none'}, {@code X-Frame-Options}),
 * {@code X-Content-Type-Options: nosniff} and {@code Referrer-Policy: no-referrer}. The sandbox's
 * simulator pages ({@code /sim/}) get a policy of their own: inline styles, no script at all.
 */
final class SecurityHeadersFilter extends OncePerRequestFilter {

    static final String CSP = "Content-Security-Policy";
    static final String SIMULATOR_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; "
            + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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
        response.setHeader(CSP, request.getRequestURI().startsWith("/sim/") ? SIMULATOR_POLICY : appPolicy);
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("Cross-Origin-Opener-Policy", "same-origin");
        chain.doFilter(request, response);
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
