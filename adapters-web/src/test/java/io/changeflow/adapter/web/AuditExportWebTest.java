package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.domain.request.OperationId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operators' audit export over HTTP (issue 32, item 6): JSON lines and CSV, a part at a time (this test's export
 * hands at most 3 grants a part, `InMemoryUseCases`), bad input as field errors, operators only.
 */
class AuditExportWebTest extends WebTestSupport {

    private static final Pattern NEXT = Pattern.compile("<(/ops/audit/grants\\?[^>]+)>; rel=\"next\"");

    @BeforeEach
    void anOperator() {
        permissions.grant("otto", "ops.operator");
    }

    /** From now to a day later; the clock is moved on first, so requests of other tests (one app) are before it. */
    private String range() {
        app.clock.advance(Duration.ofHours(1));
        var now = app.clock.instant();
        return "from=" + now + "&to=" + now.plus(Duration.ofDays(1));
    }

    @Test
    void jsonLinesGiveEachGrantsLifeAndTheLinkHeaderTheNextPart() throws Exception {
        var range = range();
        var ids = new ArrayList<OperationId>();
        ids.add(approvedAndDeployed(app.submitAccepted(FakeTargets.SINGLE, "ann")));
        for (var subject : List.of("bea", "cid", "dan")) {
            ids.add(app.rejected(subject));
            app.clock.advance(Duration.ofSeconds(1));
        }

        var first = mvc.perform(as(get("/ops/audit/grants?" + range), "otto"))
                .andExpect(status().isOk()).andReturn().getResponse();
        assertThat(first.getContentType()).startsWith("application/x-ndjson");
        assertThat(first.getHeader("Content-Disposition")).startsWith("attachment; filename=\"changeflow-grants-")
                .endsWith(".jsonl\"");
        assertThat(first.getHeader("Cache-Control")).isEqualTo("no-store");
        var lines = first.getContentAsString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        var json = JsonMapper.builder().build();
        var ann = json.readTree(lines.getFirst());
        assertThat(ann.path("operationId").asString()).isEqualTo(ids.getFirst().value());
        assertThat(ann.path("subjectId").asString()).isEqualTo("ann");
        assertThat(ann.path("status").asString()).isEqualTo("VALIDATED");
        assertThat(ann.path("inEffectAt").asString()).isNotBlank();
        assertThat(ann.path("ended").isNull()).isTrue();
        assertThat(json.readTree(lines.get(1)).path("ended").asString()).isEqualTo("REJECTED");
        assertThat(first.getHeader("X-Export-Grants")).isEqualTo("3");

        var next = NEXT.matcher(first.getHeader("Link"));
        assertThat(next.find()).as(first.getHeader("Link")).isTrue();
        var second = mvc.perform(as(get(java.net.URI.create(next.group(1))), "otto"))
                .andExpect(status().isOk()).andReturn().getResponse();
        var rest = second.getContentAsString(StandardCharsets.UTF_8).lines().toList();
        assertThat(rest).hasSize(1);
        assertThat(json.readTree(rest.getFirst()).path("operationId").asString()).isEqualTo(ids.getLast().value());
        assertThat(second.getHeader("Link")).as("the last part").isNull();
    }

    @Test
    void csvHasAHeaderRowQuotesWhatNeedsItAndDisarmsFormulas() throws Exception {
        var range = range();
        var id = OperationId.of(io.changeflow.application.fake.InMemoryChangeflow.newOperationId());
        var submitted = app.submit("alice", new io.changeflow.domain.request.Submission(id.value(),
                FakeTargets.SINGLE.value(), "eve", "=HYPERLINK(\"x\"), on call", null));
        assertThat(submitted).isInstanceOf(io.changeflow.application.submit.SubmitChangeRequest.Result.Accepted.class);

        var answer = mvc.perform(as(get("/ops/audit/grants?" + range + "&format=csv"), "otto"))
                .andExpect(status().isOk()).andReturn().getResponse();

        assertThat(answer.getContentType()).startsWith("text/csv");
        var rows = answer.getContentAsString(StandardCharsets.UTF_8).split("\r\n");
        assertThat(rows[0]).isEqualTo("operationId,kind,targetKey,subjectId,requester,reason,requestedAt,until,approvedBy,"
                + "approvedAt,mergeRequest,mergedAt,inEffectAt,endedAt,ended,endedBy,endedByRequest,status");
        assertThat(rows[1]).startsWith(id.value() + ",GRANT," + FakeTargets.SINGLE.value() + ",eve,alice,")
                .contains(",\"'=HYPERLINK(\"\"x\"\"), on call\",");
    }

    @Test
    void aRangeOrFormatThatCannotBeOneIsAFieldErrorAndOnlyOperatorsExport() throws Exception {
        mvc.perform(as(get("/ops/audit/grants?to=2026-12-31"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("from"))
                .andExpect(jsonPath("$.data.fieldErrors[0].code").value("REQUIRED"));
        mvc.perform(as(get("/ops/audit/grants?from=yesterday&to=2026-12-31"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("from"))
                .andExpect(jsonPath("$.data.fieldErrors[0].code").value("INVALID_VALUE"));
        mvc.perform(as(get("/ops/audit/grants?from=2026-12-31&to=2026-12-01"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("to"))
                .andExpect(jsonPath("$.data.fieldErrors[0].code").value("OUT_OF_RANGE"));
        mvc.perform(as(get("/ops/audit/grants?from=2024-01-01&to=2026-12-01"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].code").value("OUT_OF_RANGE"));
        mvc.perform(as(get("/ops/audit/grants?from=2026-12-01&to=2026-12-31&format=xlsx"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("format"));
        mvc.perform(as(get("/ops/audit/grants?from=2026-12-01&to=2026-12-31&after=garbage"), "otto"))
                .andExpect(answers(status().isBadRequest(), "INVALID_REQUEST"))
                .andExpect(jsonPath("$.data.fieldErrors[0].field").value("after"));
        mvc.perform(as(get("/ops/audit/grants?from=2026-12-01&to=2026-12-31"), "alice"))
                .andExpect(answers(status().isForbidden(), "ACCESS_DENIED"));
    }
}
