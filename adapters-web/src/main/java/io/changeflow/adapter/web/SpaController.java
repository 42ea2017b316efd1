package io.changeflow.adapter.web;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ErrorCode;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.Resource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /} serves the single-page app's {@code index.html} with {@code Cache-Control: no-store},
 * so a browser always fetches the latest asset manifest after a release. Without a built app on the
 * classpath: 404 JSON NOT_FOUND.
 */
@RestController
final class SpaController {

    private final Resource index = new ClassPathResource(WebMvcSetup.STATIC_LOCATION_PATH + SpaFallbackResolver.INDEX);

    @GetMapping("/")
    ResponseEntity<Resource> index() {
        if (!index.isReadable()) {
            throw ApiException.of(ErrorCode.NOT_FOUND, "no index.html on the classpath");
        }
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).cacheControl(CacheControl.noStore()).body(index);
    }
}
