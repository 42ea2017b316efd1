package io.changeflow.adapter.web;

import io.changeflow.adapter.web.guard.CrossSiteRequestFilter;
import org.springframework.boot.webmvc.test.autoconfigure.MockMvcBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

/**
 * MockMvc speaks as the single-page app does: every request carries the app's header, so a write
 * passes the cross-site check ({@link CrossSiteRequestFilter}) and reaches what the test is about.
 * The cross-site tests ({@link CrossSiteWebTest}) send over real HTTP, without it.
 */
@Configuration(proxyBeanMethods = false)
class AppHeaderMockMvc {

    @Bean
    MockMvcBuilderCustomizer sendsTheAppHeader() {
        return builder -> builder.defaultRequest(
                MockMvcRequestBuilders.get("/").header(CrossSiteRequestFilter.HEADER, "XMLHttpRequest"));
    }
}
