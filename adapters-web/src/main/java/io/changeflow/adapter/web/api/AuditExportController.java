package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.application.port.out.GrantRecords.Cursor;
import io.changeflow.application.query.ExportGrantLives;
import io.changeflow.application.query.GrantLife;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.OperationId;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.json.JsonMapper;

/**
 * The operators' audit export (issue 32, item 6): {@code GET /ops/audit/grants?from=&to=&format=jsonl|csv}, the life
 * of every grant requested or in effect in the range ({@link GrantLife}), as JSON lines or CSV, downloaded as a file.
 * At most {@link ExportGrantLives#MAX_GRANTS} grants an answer; when there are more, {@code Link: <...>; rel="next"} names the
 * next part. The database reads end before the first byte is written (so they stay within the request's database
 * budget and a failure is a normal error answer); the body is then written row by row. Operators only, like every
 * {@code /ops/} path.
 */
@RestController
public final class AuditExportController {

    /** The columns, in order: the CSV header and the JSON fields. */
    static final List<String> COLUMNS = List.of("operationId", "kind", "targetKey", "subjectId", "requester", "reason",
            "requestedAt", "until", "approvedBy", "approvedAt", "mergeRequest", "mergedAt", "inEffectAt", "endedAt", "ended",
            "endedBy", "endedByRequest", "status");

    private final ExportGrantLives export;
    private final JsonMapper json;

    public AuditExportController(ExportGrantLives export, JsonMapper json) {
        this.export = export;
        this.json = json;
    }

    /**
     * 200 with the file ({@code application/x-ndjson} or {@code text/csv}, {@code Content-Disposition: attachment}).
     * {@code from} and {@code to} are ISO-8601 instants or dates (a date {@code to} includes that day); 400
     * INVALID_REQUEST with a field error on {@code from}, {@code to} (INVALID_VALUE, OUT_OF_RANGE: not after
     * {@code from}, or more than 366 days), {@code format} or {@code after} (a cursor of a {@code Link} header).
     */
    @Answers(summary = "The life of every grant requested or in effect in a time range, as JSON lines or CSV (operators)",
            codes = {}, errors = {ErrorCode.INVALID_REQUEST})
    @GetMapping("/ops/audit/grants")
    void grants(@RequestParam(required = false) String from, @RequestParam(required = false) String to,
            @RequestParam(defaultValue = "jsonl") String format, @RequestParam(required = false) String after,
            HttpServletResponse response) throws IOException {
        var csv = switch (format.strip().toLowerCase(Locale.ROOT)) {
            case "csv" -> true;
            case "jsonl", "ndjson" -> false;
            default -> throw invalid("format", "INVALID_VALUE", "format is jsonl or csv", "unknown export format");
        };
        var start = instant("from", from, false);
        var end = instant("to", to, true);
        var command = new ExportGrantLives.Command(start, end, cursor(after));
        if (ExportGrantLives.check(command).isPresent()) {
            throw invalid("to", "OUT_OF_RANGE", "to is after from, at most " + ExportGrantLives.MAX_RANGE.toDays()
                    + " days later", "export range refused: " + ExportGrantLives.check(command).get());
        }
        var lives = new ArrayList<GrantLife>();
        var outcome = export.export(command, lives::add);

        response.setStatus(200);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setContentType(csv ? "text/csv;charset=UTF-8" : "application/x-ndjson;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("Content-Disposition", "attachment; filename=\"changeflow-grants-" + fileDate(start) + "-"
                + fileDate(end) + (csv ? ".csv" : ".jsonl") + "\"");
        response.setHeader("X-Export-Grants", String.valueOf(outcome.grants()));
        outcome.next().ifPresent(next -> response.setHeader("Link", "</ops/audit/grants?from=" + encode(start.toString())
                + "&to=" + encode(end.toString()) + "&format=" + (csv ? "csv" : "jsonl") + "&after=" + encode(cursorText(next))
                + ">; rel=\"next\""));
        Writer out = new OutputStreamWriter(response.getOutputStream(), StandardCharsets.UTF_8);
        if (csv) {
            out.write(String.join(",", COLUMNS));
            out.write("\r\n");
        }
        for (var life : lives) {
            var values = valuesOf(life);
            if (csv) {
                out.write(String.join(",", values.values().stream().map(AuditExportController::csvCell).toList()));
                out.write("\r\n");
            } else {
                out.write(json.writeValueAsString(values));
                out.write("\n");
            }
        }
        out.flush();
    }

    /** The values of one life in {@link #COLUMNS} order: text, instants as ISO-8601, absent as null. */
    static Map<String, String> valuesOf(GrantLife life) {
        var values = new LinkedHashMap<String, String>();
        values.put("operationId", life.operationId().value());
        values.put("kind", life.kind());
        values.put("targetKey", life.targetKey());
        values.put("subjectId", life.subjectId());
        values.put("requester", life.requester());
        values.put("reason", life.reason());
        values.put("requestedAt", life.requestedAt().toString());
        values.put("until", text(life.until()));
        values.put("approvedBy", life.approvedBy().orElse(null));
        values.put("approvedAt", text(life.approvedAt()));
        values.put("mergeRequest", life.mergeRequest().orElse(null));
        values.put("mergedAt", text(life.mergedAt()));
        values.put("inEffectAt", text(life.inEffectAt()));
        values.put("endedAt", text(life.endedAt()));
        values.put("ended", life.ended().orElse(null));
        values.put("endedBy", life.endedBy().orElse(null));
        values.put("endedByRequest", life.endedByRequest().map(OperationId::value).orElse(null));
        values.put("status", life.status());
        return values;
    }

    private static String text(Optional<Instant> instant) {
        return instant.map(Instant::toString).orElse(null);
    }

    /**
     * One CSV cell (RFC 4180: quoted when it holds a comma, quote or line break; quotes doubled). A cell a spreadsheet
     * would run as a formula (starting with = + - @, tab or carriage return) is prefixed with an apostrophe (OWASP,
     * "CSV injection"): the reason is free text a requester wrote.
     */
    static String csvCell(String value) {
        if (value == null) {
            return "";
        }
        var cell = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
        if (cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r")) {
            return "\"" + cell.replace("\"", "\"\"") + "\"";
        }
        return cell;
    }

    private static Instant instant(String field, String raw, boolean endOfDay) {
        if (raw == null || raw.isBlank()) {
            throw invalid(field, "REQUIRED", field + " is required: an ISO-8601 instant or date, e.g. 2026-12-01",
                    "export " + field + " missing");
        }
        var text = raw.strip();
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException notAnInstant) {
            try {
                var day = LocalDate.parse(text);
                return (endOfDay ? day.plusDays(1) : day).atStartOfDay(ZoneOffset.UTC).toInstant();
            } catch (DateTimeParseException notADate) {
                throw invalid(field, "INVALID_VALUE", field + " is an ISO-8601 instant or date, e.g. 2026-12-01",
                        "unparsable export " + field);
            }
        }
    }

    /** A cursor is {@code <epoch milliseconds>~<operationId>}, as the {@code Link} header writes it. */
    private static Optional<Cursor> cursor(String raw) {
        if (raw == null || raw.isBlank()) {
            return Optional.empty();
        }
        var parts = raw.strip().split("~", 2);
        try {
            var id = parts.length == 2 ? OperationId.parse(parts[1]) : Optional.<OperationId>empty();
            if (id.isPresent()) {
                return Optional.of(new Cursor(Instant.ofEpochMilli(Long.parseLong(parts[0])), id.get()));
            }
        } catch (NumberFormatException | java.time.DateTimeException e) {
            // reported below
        }
        throw invalid("after", "INVALID_VALUE", "after is the cursor of a Link header's next part", "malformed export cursor");
    }

    private static String cursorText(Cursor cursor) {
        return cursor.requestedAt().toEpochMilli() + "~" + cursor.id().value();
    }

    private static String fileDate(Instant instant) {
        return instant.toString().replace(":", "").replace(".000", "");
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static ApiException invalid(String field, String code, String detail, String logDetail) {
        return new ApiException(ErrorCode.INVALID_REQUEST, "Invalid export: " + detail + ".",
                Map.of("fieldErrors", List.of(new FieldError(field, code, detail))), logDetail);
    }
}
