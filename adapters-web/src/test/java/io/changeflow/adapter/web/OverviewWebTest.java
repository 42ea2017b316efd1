package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeActivity;
import io.changeflow.application.fake.FakeTargets;
import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.changeflow.application.settings.Settings;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;

/** {@code GET /ops/overview}: the console's landing page in one answer, for operators only. */
class OverviewWebTest extends WebTestSupport {

    @Autowired
    FakeActivity activity;
    @Autowired
    AtomicReference<ExternalSystemHealth.Status> gitLab;

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    @AfterEach
    void quietFakes() {
        gitLab.set(new ExternalSystemHealth.Status("gitlab", "CLOSED", Optional.empty(), 0, 0, 0));
        activity.hours(List.of()).deployReports(new Activity.DeployReports(0, 0, Optional.empty())).slots(List.of());
    }

    @Test
    void anOperatorGetsStatesWaitsWithOwnerAndDeadlineHoursDependenciesBacklogAndSlots() throws Exception {
        app.config.set(Settings.APPROVE_FIRST, "true");
        app.submitAccepted(FakeTargets.SINGLE, "overview-1");
        app.queue.runUntilIdle();
        app.clock.advance(Duration.ofMinutes(12));
        var current = app.clock.instant().truncatedTo(ChronoUnit.HOURS);
        activity.hours(List.of(new Activity.Hour(current, 3, 1)))
                .deployReports(new Activity.DeployReports(4, 1, Optional.of(app.clock.instant())));
        gitLab.set(new ExternalSystemHealth.Status("gitlab", "OPEN", Optional.of(60.0), 10, 6, 2));

        mvc.perform(as(get("/ops/overview"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.at").value(app.clock.instant().toString()))
                .andExpect(jsonPath("$.data.states.length()").value(21)) // every BindingStatus, REMOVAL_REJECTED included
                .andExpect(jsonPath("$.data.states[?(@.status == 'APPROVAL_SENT')].count").value(
                        Matchers.contains(Matchers.greaterThanOrEqualTo(1))))
                .andExpect(jsonPath("$.data.states[?(@.status == 'MR_CREATING')].count").exists())
                .andExpect(jsonPath("$.data.waiting[?(@.status == 'APPROVAL_SENT')].owner").value("APPROVER"))
                .andExpect(jsonPath("$.data.waiting[?(@.status == 'APPROVAL_SENT')].deadline").value("APPROVAL"))
                .andExpect(jsonPath("$.data.waiting[?(@.status == 'APPROVAL_SENT')].deadlineKey")
                        .value("changeflow.workflow.approval-deadline"))
                .andExpect(jsonPath("$.data.waiting[?(@.status == 'APPROVAL_SENT')].oldestAgeSeconds").value(
                        Matchers.contains(Matchers.greaterThanOrEqualTo(720))))
                .andExpect(jsonPath("$.data.waiting[?(@.status == 'APPROVAL_SENT')].nextDeadline").isNotEmpty())
                .andExpect(jsonPath("$.data.hours.length()").value(24))
                .andExpect(jsonPath("$.data.hours[23].start").value(current.toString()))
                .andExpect(jsonPath("$.data.hours[23].completed").value(3))
                .andExpect(jsonPath("$.data.hours[23].failed").value(1))
                .andExpect(jsonPath("$.data.hours[22].completed").value(0))
                .andExpect(jsonPath("$.data.dependencies[0].system").value("gitlab"))
                .andExpect(jsonPath("$.data.dependencies[0].breaker").value("OPEN"))
                .andExpect(jsonPath("$.data.dependencies[0].errorRatePercent").value(60.0))
                .andExpect(jsonPath("$.data.dependencies[0].notPermittedCalls").value(2))
                .andExpect(jsonPath("$.data.dependencies[1].system").value("approval"))
                .andExpect(jsonPath("$.data.dependencies[1].errorRatePercent").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data.dependencies[2].system").value("deploy-reports"))
                .andExpect(jsonPath("$.data.dependencies[2].breaker").value(Matchers.nullValue()))
                .andExpect(jsonPath("$.data.dependencies[2].errorRatePercent").value(25.0))
                .andExpect(jsonPath("$.data.backlog.capacity").isNumber())
                .andExpect(jsonPath("$.data.backlog.waiting").isNumber())
                .andExpect(jsonPath("$.data.slots[?(@.partition == 'global')].batchId").value(Matchers.contains(Matchers.nullValue())));
    }

    @Test
    void itIsForOperatorsOnly() throws Exception {
        mvc.perform(get("/ops/overview")).andExpect(answers(status().isUnauthorized(), "UNAUTHENTICATED"));
        var denied = mvc.perform(as(get("/ops/overview"), "alice")).andExpect(status().isForbidden()).andReturn().getResponse();
        assertThat(denied.getContentAsString()).contains("ACCESS_DENIED").doesNotContain("APPROVAL_SENT");
    }

    /**
     * Issue 33: the overview carries a weak ETag of its content; while only time passes (its {@code at} and the ages
     * move) an {@code If-None-Match} naming it is 304 with no body, computed without the overview's snapshot; a new
     * request gives 200 and another tag; without the operator's right the header opens nothing.
     */
    @Test
    void theOverviewIs304WhileOnlyTimePassesAnd200WithANewETagAfterAChange() throws Exception {
        app.config.set(Settings.APPROVE_FIRST, "true");
        app.submitAccepted(FakeTargets.SINGLE, "overview-etag-1");
        app.queue.runUntilIdle();
        app.clock.advance(Duration.ofSeconds(1));
        var etag = mvc.perform(as(get("/ops/overview"), "otto")).andExpect(answers(status().isOk(), "OK"))
                .andExpect(header().string(HttpHeaders.CACHE_CONTROL, "no-cache, private"))
                .andReturn().getResponse().getHeader(HttpHeaders.ETAG);
        assertThat(etag).matches("W/\"[^\"]+\"");

        app.clock.advance(Duration.ofSeconds(5));
        var reads = activity.reads();
        var notModified = mvc.perform(as(get("/ops/overview"), "otto").header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(status().isNotModified()).andExpect(header().string(HttpHeaders.ETAG, etag))
                .andReturn().getResponse();
        assertThat(notModified.getContentAsByteArray()).isEmpty();
        assertThat(activity.reads()).as("a 304 computes no overview").isEqualTo(reads);

        app.submitAccepted(FakeTargets.SINGLE, "overview-etag-2");
        app.queue.runUntilIdle();
        app.clock.advance(Duration.ofSeconds(1));
        var changed = mvc.perform(as(get("/ops/overview"), "otto").header(HttpHeaders.IF_NONE_MATCH, etag))
                .andExpect(answers(status().isOk(), "OK")).andExpect(jsonPath("$.data.at").value(app.clock.instant().toString()))
                .andReturn().getResponse().getHeader(HttpHeaders.ETAG);
        assertThat(changed).isNotEqualTo(etag);
        var denied = mvc.perform(as(get("/ops/overview"), "alice").header(HttpHeaders.IF_NONE_MATCH, changed))
                .andExpect(status().isForbidden()).andReturn().getResponse();
        assertThat(denied.getHeader(HttpHeaders.ETAG)).isNull();
    }
}
