package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.changeflow.adapter.web.guard.AuthorizationInterceptor;
import io.changeflow.adapter.web.guard.RateLimitInterceptor;
import io.changeflow.adapter.web.metrics.BusinessActivityInterceptor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.handler.MappedInterceptor;

class InterceptorOrderWebTest extends WebTestSupport {

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    HandlerMapping controllers;

    @Autowired
    @Qualifier("resourceHandlerMapping")
    HandlerMapping resources;

    private static List<Class<?>> chain(HandlerMapping mapping, String method, String path) throws Exception {
        var request = new MockHttpServletRequest(method, path);
        request.setContentType("application/json");
        var chain = mapping.getHandler(request);
        assertThat(chain).isNotNull();
        return chain.getInterceptorList().stream()
                .map(i -> i instanceof MappedInterceptor mapped ? mapped.getInterceptor() : i)
                .<Class<?>>map(HandlerInterceptor::getClass)
                .filter(type -> type.getPackageName().startsWith(WebConfiguration.class.getPackageName()))
                .toList();
    }

    @Test
    void interceptorsRunRateLimitThenAuthorizationThenBusinessActivity() throws Exception {
        assertThat(chain(controllers, "GET", "/ops/test-read"))
                .containsExactly(RateLimitInterceptor.class, AuthorizationInterceptor.class);
        assertThat(chain(controllers, "POST", "/test/submit"))
                .containsExactly(RateLimitInterceptor.class, BusinessActivityInterceptor.class);
        assertThat(chain(controllers, "GET", "/legacy/stats"))
                .as("a wildcard allowlist entry was refused").containsExactly(RateLimitInterceptor.class);
    }

    @Test
    void staticResourcesPassThroughTheInterceptorsToo() throws Exception {
        assertThat(chain(resources, "GET", "/assets/app-3f9a1c2e.js")).contains(RateLimitInterceptor.class);
        assertThat(chain(resources, "GET", "/ops/unknown")).contains(AuthorizationInterceptor.class);
    }
}
