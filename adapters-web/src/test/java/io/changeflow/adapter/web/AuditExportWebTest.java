package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.fake.FakeTargets;
import io.changeflow.domain.request.OperationId;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
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

    /**
     * From now to a day later; the clock is moved on first, so requests of other tests (one app) are before it. Their
     * grants still in effect are in the range too (a grant is exported for every range its access overlaps).
     */
    private Instant from() {
        app.clock.advance(Duration.ofHours(1));
        return app.clock.instant();
    }

    private static String range(Instant from) {
        return "from=" + from + "&to=" + from.plus(Duration.ofDays(1));
    }

    @Test
    void jsonLinesGiveEachGrantsLifeAndTheLinkHeaderTheNextPart() throws Exception {
        var inEffectAcross = approvedAndDeployed(app.submitAccepted(FakeTargets.SINGLE, "zed"));
        var from = from();
        var ids = new ArrayList<OperationId>();
        ids.add(approvedAndDeployed(app.submitAccepted(FakeTargets.SINGLE, "ann")));
        for (var subject : List.of("bea", "cid", "dan")) {
            ids.add(app.rejected(subject));
            app.clock.advance(Duration.ofSeconds(1));
        }

        var first = mvc.perform(as(get("/ops/audit/grants?" + range(from)), "otto"))
                .andExpect(status().isOk()).andReturn().getResponse();
        assertThat(first.getContentType()).startsWith("application/x-ndjson");
        assertThat(first.getHeader("Content-Disposition")).startsWith("attachment; filename=\"changeflow-grants-")
                .endsWith(".jsonl\"");
        assertThat(first.getHeader("Cache-Control")).isEqualTo("no-store");
        var json = JsonMapper.builder().build();
        var lines = new ArrayList<JsonNode>();
        var part = first;
        var parts = 1;
        while (true) {
            var partLines = part.getContentAsString(StandardCharsets.UTF_8).lines().toList();
            assertThat(partLines).as("a part holds at most 3 grants").hasSizeBetween(1, 3);
            assertThat(part.getHeader("X-Export-Grants")).isEqualTo(String.valueOf(partLines.size()));
            for (var line : partLines) {
                lines.add(json.readTree(line));
            }
            var next = part.getHeader("Link") == null ? null : NEXT.matcher(part.getHeader("Link"));
            if (next == null) {
                break;
            }
            assertThat(next.find()).as(part.getHeader("Link")).isTrue();
            part = mvc.perform(as(get(java.net.URI.create(next.group(1))), "otto"))
                    .andExpect(status().isOk()).andReturn().getResponse();
            parts++;
        }
        assertThat(parts).as("four grants requested in the range take two parts at least").isGreaterThanOrEqualTo(2);

        var ours = lines.stream().filter(line -> ids.stream().anyMatch(id -> id.value().equals(
                line.path("operationId").asString()))).toList();
        assertThat(ours).extracting(line -> line.path("operationId").asString())
                .as("the grants requested in the range, in request order, each once")
                .containsExactlyElementsOf(ids.stream().map(OperationId::value).toList());
        var ann = ours.getFirst();
        assertThat(ann.path("subjectId").asString()).isEqualTo("ann");
        assertThat(ann.path("status").asString()).isEqualTo("VALIDATED");
        assertThat(ann.path("inEffectAt").asString()).isNotBlank();
        assertThat(ann.path("ended").isNull()).isTrue();
        assertThat(ours.get(1).path("ended").asString()).isEqualTo("REJECTED");
        assertThat(lines).extracting(line -> line.path("operationId").asString())
                .as("a grant requested before the range and in effect across it is in it").contains(inEffectAcross.value());
        for (var earlier : lines) {
            if (!ours.contains(earlier)) {
                assertThat(Instant.parse(earlier.path("requestedAt").asString())).as("only grants in effect across it come from before the range")
                        .isBefore(from);
                assertThat(earlier.path("inEffectAt").asString()).as(earlier.toString()).isNotBlank();
                assertThat(earlier.path("endedAt").isNull()
                        || !Instant.parse(earlier.path("endedAt").asString()).isBefore(from)).as(earlier.toString()).isTrue();
            }
        }
    }

    @Test
    void csvHasAHeaderRowQuotesWhatNeedsItAndDisarmsFormulas() throws Exception {
        var from = from();
        var id = OperationId.of(io.changeflow.application.fake.InMemoryChangeflow.newOperationId());
        var submitted = app.submit("alice", new io.changeflow.domain.request.Submission(id.value(),
                FakeTargets.SINGLE.value(), "eve", "=HYPERLINK(\"x\"), on call", null));
        assertThat(submitted).isInstanceOf(io.changeflow.application.submit.SubmitChangeRequest.Result.Accepted.class);

        var answer = mvc.perform(as(get("/ops/audit/grants?" + range(from) + "&format=csv"), "otto"))
                .andExpect(status().isOk()).andReturn().getResponse();

        assertThat(answer.getContentType()).startsWith("text/csv");
        var rows = answer.getContentAsString(StandardCharsets.UTF_8).split("\r\n");
        assertThat(rows[0]).isEqualTo("operationId,kind,targetKey,subjectId,requester,reason,requestedAt,until,approvedBy,"
                + "approvedAt,mergeRequest,mergedAt,inEffectAt,endedAt,ended,endedBy,endedByRequest,status");
        var csv = String.join("\n", allCsvRows(answer));
        assertThat(csv).contains(id.value() + ",GRANT," + FakeTargets.SINGLE.value() + ",eve,alice,\"'=HYPERLINK(\"\"x\"\"), on call\",");
    }

    /** Every data row of a CSV export, following its Link header part by part (each part is a file with its header). */
    private List<String> allCsvRows(org.springframework.mock.web.MockHttpServletResponse first) throws Exception {
        var rows = new ArrayList<String>();
        var part = first;
        while (true) {
            var lines = part.getContentAsString(StandardCharsets.UTF_8).split("\r\n");
            rows.addAll(List.of(lines).subList(1, lines.length));
            var link = part.getHeader("Link");
            if (link == null) {
                return rows;
            }
            var next = NEXT.matcher(link);
            assertThat(next.find()).as(link).isTrue();
            part = mvc.perform(as(get(java.net.URI.create(next.group(1))), "otto"))
                    .andExpect(status().isOk()).andReturn().getResponse();
        }
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
