package io.changeflow.adapter.web;

import java.nio.charset.StandardCharsets;
import org.springframework.boot.webmvc.test.autoconfigure.MockMvcBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Sends every MockMvc response body to the corpus the leak scan checks. */
@Configuration(proxyBeanMethods = false)
class ResponseRecording {

    @Bean
    MockMvcBuilderCustomizer recordEveryResponse() {
        return builder -> builder.alwaysDo(result -> ResponseCorpus.record(
                "MockMvc " + result.getRequest().getMethod() + " " + result.getRequest().getRequestURI(),
                result.getResponse().getContentAsString(StandardCharsets.UTF_8)));
    }
}
