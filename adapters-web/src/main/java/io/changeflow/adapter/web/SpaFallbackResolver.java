package io.changeflow.adapter.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.resource.ResourceResolver;
import org.springframework.web.servlet.resource.ResourceResolverChain;

/**
 * The single-page app's fallback for a file that does not exist: a page navigation (GET or HEAD,
 * {@code Accept: text/html}, no file extension in the last path segment, outside the API prefixes)
 * gets {@code index.html}, so client-side routes load the app; anything else (an asset, an API
 * call) resolves to nothing and the error handler answers 404 JSON NOT_FOUND. A missing
 * {@code /assets/*.js} is therefore never answered with the page (a browser would report a MIME
 * error instead of letting the app recover).
 */
final class SpaFallbackResolver implements ResourceResolver {

    static final String INDEX = "index.html";

    private final List<String> apiPrefixes;

    /** @param apiPrefixes path prefixes that never fall back to the page, e.g. {@code /api/} */
    SpaFallbackResolver(List<String> apiPrefixes) {
        this.apiPrefixes = List.copyOf(apiPrefixes);
    }

    @Override
    public Resource resolveResource(HttpServletRequest request, String requestPath, List<? extends Resource> locations,
            ResourceResolverChain chain) {
        var resource = chain.resolveResource(request, requestPath, locations);
        if (resource != null || request == null || !isNavigation(request)) {
            return resource;
        }
        return chain.resolveResource(request, INDEX, locations);
    }

    @Override
    public String resolveUrlPath(String resourcePath, List<? extends Resource> locations, ResourceResolverChain chain) {
        return chain.resolveUrlPath(resourcePath, locations);
    }

    boolean isNavigation(HttpServletRequest request) {
        var method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)) {
            return false;
        }
        var path = request.getRequestURI().substring(request.getContextPath().length());
        for (var prefix : apiPrefixes) {
            if (path.startsWith(prefix) || (path + "/").equals(prefix)) {
                return false;
            }
        }
        var lastSegment = path.substring(path.lastIndexOf('/') + 1);
        if (lastSegment.contains(".")) {
            return false;
        }
        return acceptsHtml(request.getHeader(HttpHeaders.ACCEPT));
    }

    private static boolean acceptsHtml(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        try {
            return MediaType.parseMediaTypes(accept).stream()
                    .anyMatch(type -> "text".equals(type.getType()) && "html".equals(type.getSubtype()));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }
}
