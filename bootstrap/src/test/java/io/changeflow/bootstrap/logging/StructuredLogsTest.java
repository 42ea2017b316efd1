package io.changeflow.bootstrap.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The log format switch of docs/configuration.md ("Logs"), with the application's own {@code application.yml}:
 * plain text lines by default (what {@code ./start} shows), JSON lines with {@code logging.structured.format.console}
 * set to {@code ecs} or {@code logstash}, the MDC's {@code traceId} a field of each line. In every format a logged
 * value cannot forge a line (issue 37): the plain layout writes control characters as '?', JSON escapes them.
 */
@ExtendWith(OutputCaptureExtension.class)
class StructuredLogsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String MESSAGE = "structured log line of the test";
    /** A value that would start a line of its own in a plain log: it must stay inside the JSON line. */
    private static final String FORGED = "\r\n2026-12-07T00:00:00.000Z  INFO 1 --- [main] forged : line\u2028also";

    @SpringBootConfiguration
    static class NoBeans {
    }

    /**
     * Boot hands the format to Logback as system properties, which outlive the context: cleared so that no later
     * test of this JVM logs JSON.
     */
    @AfterEach
    void plainTextAgain() {
        System.clearProperty("CONSOLE_LOG_STRUCTURED_FORMAT");
        System.clearProperty("FILE_LOG_STRUCTURED_FORMAT");
    }

    private static void logOneLineWithATraceId(String... properties) {
        try (var context = new SpringApplicationBuilder(NoBeans.class).web(WebApplicationType.NONE)
                .properties(properties).run()) {
            MDC.put("traceId", "4bf92f3577b34da6");
            try {
                LoggerFactory.getLogger("io.changeflow.test").info(MESSAGE + "{}", FORGED);
            } finally {
                MDC.remove("traceId");
            }
            assertThat(context.isActive()).isTrue();
        }
    }

    private static List<String> linesOf(CapturedOutput output) {
        return output.getOut().lines().filter(line -> line.contains(MESSAGE)).toList();
    }

    @Test
    void plainTextLinesAreTheDefaultAndNoLoggedValueForgesALine(CapturedOutput output) {
        logOneLineWithATraceId();
        assertThat(linesOf(output)).singleElement().satisfies(line -> {
            assertThat(line).doesNotStartWith("{").contains("[4bf92f3577b34da6] ").contains(" INFO ")
                    .contains(MESSAGE + "??2026-12-07T00:00:00.000Z  INFO 1 --- [main] forged : line?also");
        });
        assertThat(output.getOut().lines()).as("the forged value started no line").noneMatch(l -> l.startsWith("2026-12-07T00:00:00.000Z"));
    }

    @Test
    void ecsGivesOneJsonObjectPerLineWithTheTraceId(CapturedOutput output) {
        logOneLineWithATraceId("logging.structured.format.console=ecs");
        var line = JSON.readTree(linesOf(output).getFirst());
        assertThat(line.path("message").asString()).isEqualTo(MESSAGE + FORGED);
        assertThat(line.path("log").path("level").asString()).isEqualTo("INFO");
        assertThat(line.path("traceId").asString()).isEqualTo("4bf92f3577b34da6");
        assertThat(line.path("service").path("name").asString()).isEqualTo("changeflow");
        assertThat(output.getOut().lines().filter(l -> !l.isBlank()).toList()).as("every line of the run, none forged")
                .hasSizeGreaterThan(1).allSatisfy(l -> assertThat(JSON.readTree(l).isObject()).as(l).isTrue());
    }

    @Test
    void logstashGivesJsonLinesToo(CapturedOutput output) {
        logOneLineWithATraceId("logging.structured.format.console=logstash");
        JsonNode line = JSON.readTree(linesOf(output).getFirst());
        assertThat(line.path("message").asString()).isEqualTo(MESSAGE + FORGED);
        assertThat(line.path("level").asString()).isEqualTo("INFO");
        assertThat(line.path("traceId").asString()).isEqualTo("4bf92f3577b34da6");
    }
}
