package io.changeflow.adapter.web;

import io.changeflow.adapter.web.guard.AuthorizationInterceptor;
import io.changeflow.adapter.web.guard.RateLimitInterceptor;
import io.changeflow.adapter.web.identity.VerifiedCallerResolver;
import io.changeflow.adapter.web.metrics.BusinessActivityInterceptor;
import java.time.Duration;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.CacheControl;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Registers the four interceptors in their fixed order (Spring runs them in registration order),
 * the resolver of the verified caller ({@link VerifiedCallerResolver}) and the static resources of
 * the single-page app. Ordered first among the MVC configurers so its
 * {@code /**} resource mapping takes precedence over Boot's default one (Boot skips a pattern that
 * is already mapped).
 */
final class WebMvcSetup implements WebMvcConfigurer, Ordered {

    static final String STATIC_LOCATION_PATH = "static/";
    static final String ASSETS_PATTERN = "/assets/**";

    private final RateLimitInterceptor rateLimit;
    private final AuthorizationInterceptor authorization;
    private final List<String> protectedPaths;
    private final BusinessActivityInterceptor businessActivity;
    private final SpaFallbackResolver spaFallback;
    private final VerifiedCallerResolver verifiedCaller;

    WebMvcSetup(RateLimitInterceptor rateLimit, AuthorizationInterceptor authorization, List<String> protectedPaths,
            BusinessActivityInterceptor businessActivity, SpaFallbackResolver spaFallback,
            VerifiedCallerResolver verifiedCaller) {
        this.rateLimit = rateLimit;
        this.authorization = authorization;
        this.protectedPaths = List.copyOf(protectedPaths);
        this.businessActivity = businessActivity;
        this.spaFallback = spaFallback;
        this.verifiedCaller = verifiedCaller;
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(verifiedCaller);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        // 1. Rate limiting first: a rejected request costs nothing downstream and never reaches the business counts.
        registry.addInterceptor(rateLimit);
        // 2. Authorization of the paths of the rule table, before argument binding.
        if (!protectedPaths.isEmpty()) {
            registry.addInterceptor(authorization).addPathPatterns(protectedPaths);
        }
        // 3. Business activity on the explicit allowlist only; an empty list must not register (it would match all).
        var activityPaths = businessActivity.pathTemplates();
        if (!activityPaths.isEmpty()) {
            registry.addInterceptor(businessActivity).addPathPatterns(activityPaths);
        }
    }

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        // Hashed, content-addressed files never change: cache for a year. A missing one is 404 JSON, never the page.
        registry.addResourceHandler(ASSETS_PATTERN)
                .addResourceLocations("classpath:/" + STATIC_LOCATION_PATH + "assets/")
                .setCacheControl(CacheControl.maxAge(Duration.ofDays(365)).cachePublic().immutable())
                .resourceChain(false);
        // Everything else (index.html, the fallback page for client routes, root files): never cached.
        registry.addResourceHandler("/**")
                .addResourceLocations("classpath:/" + STATIC_LOCATION_PATH)
                .setCacheControl(CacheControl.noStore())
                .resourceChain(false)
                .addResolver(spaFallback);
    }
}
