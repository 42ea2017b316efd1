package io.changeflow.adapter.web.guard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * An {@code Accept} header without a value is read as no {@code Accept} header (the client accepts
 * anything), as HTTP intends. Without this Spring Boot's Prometheus endpoint found no output format for
 * an empty {@code Accept} and failed with a NullPointerException: a 500 for a malformed header (found by
 * the reliability suite's generated bad input).
 */
public final class BlankAcceptFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        var accept = request.getHeader(HttpHeaders.ACCEPT);
        if (accept == null || !accept.isBlank()) {
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public String getHeader(String name) {
                return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? null : super.getHeader(name);
            }

            @Override
            public Enumeration<String> getHeaders(String name) {
                return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
            }

            @Override
            public Enumeration<String> getHeaderNames() {
                List<String> names = Collections.list(super.getHeaderNames());
                names.removeIf(HttpHeaders.ACCEPT::equalsIgnoreCase);
                return Collections.enumeration(names);
            }
        }, response);
    }
}
