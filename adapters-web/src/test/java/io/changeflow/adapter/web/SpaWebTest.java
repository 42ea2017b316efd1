package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.head;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.RequestBuilder;

class SpaWebTest extends WebTestSupport {

    private static final String BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    /** Performs {@code request} and expects 200 with {@code Cache-Control: no-store}. */
    private ResultActions servedNeverCached(RequestBuilder request) throws Exception {
        return mvc.perform(request).andExpect(status().isOk()).andExpect(header().string("Cache-Control", "no-store"));
    }

    @Test
    void rootServesTheAppPageNeverCached() throws Exception {
        servedNeverCached(get("/"))
                .andExpect(content().contentTypeCompatibleWith(MediaType.TEXT_HTML))
                .andExpect(content().string(org.hamcrest.Matchers.containsString("<div id=\"root\">")));
    }

    @Test
    void indexHtmlItselfIsNeverCached() throws Exception {
        servedNeverCached(get("/index.html"));
    }

    @Test
    void hashedAssetsAreCachedForAYearAndImmutable() throws Exception {
        mvc.perform(get("/assets/app-3f9a1c2e.js"))
                .andExpect(status().isOk())
                .andExpect(header().string("Cache-Control", "max-age=31536000, public, immutable"));
    }

    @Test
    void aMissingHashedAssetIs404JsonEvenForABrowserNeverThePage() throws Exception {
        mvc.perform(get("/assets/app-0000dead.js").header("Accept", BROWSER_ACCEPT))
                .andExpect(status().isNotFound())
                .andExpect(header().string("Cache-Control", "no-store"))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.code").value("NOT_FOUND"));
        mvc.perform(get("/assets/app-0000dead.js").header("Accept", "*/*"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
    }

    @Test
    void aMissingFileWithAnExtensionOutsideAssetsIs404Json() throws Exception {
        mvc.perform(get("/old-chunk.css").header("Accept", BROWSER_ACCEPT))
                .andExpect(status().isNotFound())
                .andExpect(header().string("Cache-Control", "no-store"))
                .andExpect(jsonPath("$.code").value("NOT_FOUND"));
    }

    @Test
    void aPageNavigationToAClientRouteGetsTheAppPageNeverCached() throws Exception {
        servedNeverCached(get("/requests/7d1e0c1a").header("Accept", BROWSER_ACCEPT))
                .andExpect(content().string(org.hamcrest.Matchers.containsString("<div id=\"root\">")));
        servedNeverCached(head("/my/requests").header("Accept", "text/html"));
    }

    @Test
    void aNonBrowserRequestForAClientRouteIs404Json() throws Exception {
        mvc.perform(get("/requests/7d1e0c1a").header("Accept", "application/json"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
    }

    @Test
    void aBrowserNavigationUnderAnApiPrefixIs404JsonNotThePage() throws Exception {
        mvc.perform(get("/api/unknown").header("Accept", BROWSER_ACCEPT))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
    }

    @Test
    void rootFilesAreServedWithNoStore() throws Exception {
        servedNeverCached(get("/robots.txt"));
    }

    @Test
    void overRealHttpAMissingAssetIsA404JsonAndTheRouteFallbackIsThePage() throws Exception {
        var asset = send(HttpRequest.newBuilder(uri("/assets/index-OLD123.js")).header("Accept", "*/*").GET());
        assertThat(asset.statusCode()).isEqualTo(404);
        assertThat(asset.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertThat(asset.headers().firstValue("Cache-Control")).hasValue("no-store");

        var page = send(HttpRequest.newBuilder(uri("/requests/abc")).header("Accept", BROWSER_ACCEPT).GET());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
        assertThat(page.headers().firstValue("Cache-Control")).hasValue("no-store");
    }

    @Test
    void aUriTheContainerRefusesBeforeRoutingGets400WithoutServerDetails() throws Exception {
        var response = send(HttpRequest.newBuilder(uri("/api/%00nul")).GET());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).doesNotContain("Tomcat").doesNotContain("Exception");
    }

    @Test
    void pathTraversalIsNeverServed() throws Exception {
        var response = send(HttpRequest.newBuilder(uri("/assets/..%2f..%2fapplication.properties")).GET());
        assertThat(response.statusCode()).isIn(400, 404);
        assertThat(response.body()).doesNotContain("changeflow.");
    }
}
