package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.MergeRequests.PipelineStatus;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;

/**
 * Issue 33, conditional reads: the request view carries a weak ETag and {@code Cache-Control: private, no-cache};
 * {@code If-None-Match} naming it is 304 with no body; anything shown changing gives 200 with another ETag; the
 * header never opens a request to someone who may not read it.
 */
class ConditionalReadsWebTest extends WebTestSupport {

    private static final AtomicInteger PEOPLE = new AtomicInteger();

    private static String newPerson() {
        return "etag" + PEOPLE.incrementAndGet();
    }

    private String etagOf(String path, String person) throws Exception {
        return mvc.perform(as(get(path), person)).andExpect(status().isOk())
                .andReturn().getResponse().getHeader(HttpHeaders.ETAG);
    }

    @Test
    void theRequestViewCarriesAWeakETagAndMustBeRevalidated() throws Exception {
        var person = newPerson();
        var id = app.submitAccepted(FakeTargets.SINGLE, person);

        mvc.perform(as(get("/api/requests/" + id.value()), person))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(header().string(HttpHeaders.ETAG, org.hamcrest.Matchers.matchesPattern("W/\"[^\"]+\"")))
                .andExpect(header().string(HttpHeaders.CACHE_CONTROL, "no-cache, private"));
    }

    @Test
    void anUnchangedRequestIs304WithNoBodyAndTheSameETag() throws Exception {
        var person = newPerson();
        var id = app.submitAccepted(FakeTargets.SINGLE, person);
        var etag = etagOf("/api/requests/" + id.value(), person);

        var notModified = mvc.perform(as(get("/api/requests/" + id.value()), person).header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(status().isNotModified())
                .andExpect(header().string(HttpHeaders.ETAG, etag))
                .andExpect(header().string(HttpHeaders.CACHE_CONTROL, "no-cache, private"))
                .andReturn().getResponse();
        assertThat(notModified.getContentAsByteArray()).isEmpty();
        // the strong form of the same tag, and a list naming it, match too (weak comparison, RFC 9110 13.1.2)
        mvc.perform(as(get("/api/requests/" + id.value()), person).header(HttpHeaders.IF_NONE_MATCH, etag.substring(2)))
                .andExpect(status().isNotModified());
        mvc.perform(as(get("/api/requests/" + id.value()), person).header(HttpHeaders.IF_NONE_MATCH, "W/\"other\", " + etag))
                .andExpect(status().isNotModified());
    }

    @Test
    void aChangedRequestIs200WithTheNewViewAndANewETag() throws Exception {
        var person = newPerson();
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var id = app.submitAccepted(FakeTargets.SINGLE, person);
        var etag = etagOf("/api/requests/" + id.value(), person);

        app.queue.runNext();

        var changed = mvc.perform(as(get("/api/requests/" + id.value()), person).header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.mergeRequest.iid").isNumber())
                .andReturn().getResponse().getHeader(HttpHeaders.ETAG);
        assertThat(changed).isNotEqualTo(etag);
        // a look that only moves the next attempt (no state write) is a change too: nextAttemptAt is shown
        app.queue.runNext();
        mvc.perform(as(get("/api/requests/" + id.value()), person).header(HttpHeaders.IF_NONE_MATCH, changed))
                .andExpect(status().isOk());
    }

    @Test
    void anETagOpensNothingToSomeoneWhoMayNotReadTheRequest() throws Exception {
        var person = newPerson();
        var id = app.submitAccepted(FakeTargets.SINGLE, person);
        var etag = etagOf("/api/requests/" + id.value(), person);

        mvc.perform(as(get("/api/requests/" + id.value()), newPerson()).header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
        mvc.perform(as(get("/api/requests/" + id.value()), newPerson()).header(HttpHeaders.IF_NONE_MATCH, "*"))
                .andExpect(answers(status().isNotFound(), "NOT_FOUND"));
        mvc.perform(get("/api/requests/" + id.value()).header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(status().isUnauthorized());
        mvc.perform(as(get("/api/requests/" + id.value()), "otto").header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(status().isNotModified());
    }

    @Test
    void aMalformedIfNoneMatchIsAnsweredInFull() throws Exception {
        var person = newPerson();
        var id = app.submitAccepted(FakeTargets.SINGLE, person);

        mvc.perform(as(get("/api/requests/" + id.value()), person).header(HttpHeaders.IF_NONE_MATCH, "W/garbage, \""))
                .andExpect(answers(status().isOk(), "OK"));
    }

    @Test
    void myRecordsAre304WhileThePageIsUnchangedAnd200AfterARequestComesOrChanges() throws Exception {
        var person = newPerson();
        app.gitlab.nextPipeline(PipelineStatus.RUNNING);
        var first = app.submitAccepted(FakeTargets.SINGLE, person);
        var etag = etagOf("/api/requests", person);

        mvc.perform(as(get("/api/requests"), person).header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(status().isNotModified())
                .andExpect(header().string(HttpHeaders.ETAG, etag))
                .andExpect(header().string(HttpHeaders.CACHE_CONTROL, "no-cache, private"));
        assertThat(etagOf("/api/requests?size=5", person)).as("another page is another answer").isNotEqualTo(etag);
        assertThat(etagOf("/api/requests", newPerson())).as("another person's list").isNotEqualTo(etag);

        app.queue.runNext();
        var changed = mvc.perform(as(get("/api/requests"), person).header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.items[0].operationId").value(first.value()))
                .andReturn().getResponse().getHeader(HttpHeaders.ETAG);
        assertThat(changed).isNotEqualTo(etag);

        app.submitAccepted(FakeTargets.BATCHABLE, person);
        mvc.perform(as(get("/api/requests"), person).header(HttpHeaders.IF_NONE_MATCH, changed))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.items.length()").value(2));
    }
}
