package io.changeflow.bootstrap.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
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
 * JSON lines (Elastic Common Schema) by default, that is in production; plain text lines with the sandbox profile
 * (what {@code ./start} shows) or with {@code logging.structured.format.console} set empty (the system-test harness);
 * {@code logstash} on request. The MDC's {@code traceId} is a field (or the correlation part) of each line. In every
 * format a logged value cannot forge a line (issue 37): the plain layout writes control characters as '?', JSON
 * escapes them.
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
        // as command-line arguments, as an operator sets them: the builder's own properties would rank below application.yml
        var arguments = Arrays.stream(properties).map(property -> "--" + property).toArray(String[]::new);
        try (var context = new SpringApplicationBuilder(NoBeans.class).web(WebApplicationType.NONE).run(arguments)) {
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

    private static void assertPlainLineWithoutForgery(CapturedOutput output) {
        assertThat(linesOf(output)).singleElement().satisfies(line -> {
            assertThat(line).doesNotStartWith("{").contains("[4bf92f3577b34da6] ").contains(" INFO ")
                    .contains(MESSAGE + "??2026-12-07T00:00:00.000Z  INFO 1 --- [main] forged : line?also");
        });
        assertThat(output.getOut().lines()).as("the forged value started no line").noneMatch(l -> l.startsWith("2026-12-07T00:00:00.000Z"));
    }

    private static void assertEcsLinesWithoutForgery(CapturedOutput output) {
        var line = JSON.readTree(linesOf(output).getFirst());
        assertThat(line.path("message").asString()).isEqualTo(MESSAGE + FORGED);
        assertThat(line.path("log").path("level").asString()).isEqualTo("INFO");
        assertThat(line.path("traceId").asString()).isEqualTo("4bf92f3577b34da6");
        assertThat(line.path("service").path("name").asString()).isEqualTo("changeflow");
        assertThat(output.getOut().lines().filter(l -> !l.isBlank()).toList()).as("every line of the run, none forged")
                .hasSizeGreaterThan(1).allSatisfy(l -> assertThat(JSON.readTree(l).isObject()).as(l).isTrue());
    }

    @Test
    void productionLogsOneEcsJsonObjectPerLineByDefaultAndNoLoggedValueForgesALine(CapturedOutput output) {
        logOneLineWithATraceId();
        assertEcsLinesWithoutForgery(output);
    }

    @Test
    void theSandboxProfileLogsPlainTextLinesAndNoLoggedValueForgesALine(CapturedOutput output) {
        logOneLineWithATraceId("spring.profiles.active=sandbox");
        assertPlainLineWithoutForgery(output);
    }

    @Test
    void anEmptyFormatGivesThePlainTextLinesTheSystemTestHarnessReads(CapturedOutput output) {
        logOneLineWithATraceId("logging.structured.format.console=");
        assertPlainLineWithoutForgery(output);
    }

    @Test
    void ecsOnTopOfTheSandboxProfileGivesJsonLinesToo(CapturedOutput output) {
        logOneLineWithATraceId("spring.profiles.active=sandbox", "logging.structured.format.console=ecs");
        assertEcsLinesWithoutForgery(output);
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
