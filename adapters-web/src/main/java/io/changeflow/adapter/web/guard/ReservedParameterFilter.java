package io.changeflow.adapter.web.guard;

import io.changeflow.adapter.web.identity.OperatorParameters;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Makes the reserved parameter {@value OperatorParameters#RESERVED} server-written for every
 * handler: whatever a client sends under that name is invisible; after authorization it reads as the
 * login identity ({@link OperatorParameters}), before (or without) authorization as absent. So even
 * a handler binding it with {@code @RequestParam} can never see a forged operator.
 */
public final class ReservedParameterFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new ServerWrittenParameters(request), response);
    }

    private static final class ServerWrittenParameters extends HttpServletRequestWrapper {

        ServerWrittenParameters(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getParameter(String name) {
            return OperatorParameters.RESERVED.equals(name) ? serverValue() : super.getParameter(name);
        }

        @Override
        public String[] getParameterValues(String name) {
            if (!OperatorParameters.RESERVED.equals(name)) {
                return super.getParameterValues(name);
            }
            var value = serverValue();
            return value == null ? null : new String[] {value};
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            var map = new LinkedHashMap<>(super.getParameterMap());
            map.remove(OperatorParameters.RESERVED);
            var value = serverValue();
            if (value != null) {
                map.put(OperatorParameters.RESERVED, new String[] {value});
            }
            return Collections.unmodifiableMap(map);
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(getParameterMap().keySet());
        }

        private String serverValue() {
            return getAttribute(OperatorParameters.ATTRIBUTE) instanceof OperatorParameters p ? p.operator() : null;
        }
    }
}
