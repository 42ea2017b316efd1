package io.changeflow.adapter.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.changeflow.application.settings.Settings;
import io.changeflow.domain.config.AccessMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

class DynamicConfigWebTest extends WebTestSupport {

    @Autowired
    Settings settings;

    @Test
    void opsConfigListsEverySettingWithRawResolvedRuleAndSource() throws Exception {
        permissions.grant("otto", "ops.operator");
        writeConfig("APPLY_RATE_LIMIT=abc\nACCESS_MODE=closd\napproval.maxRetries=-2\n");
        mvc.perform(as(get("/ops/config"), "otto"))
                .andExpect(answers(status().isOk(), "OK"))
                .andExpect(jsonPath("$.data.length()").value(10))
                .andExpect(jsonPath("$.data[?(@.key=='PREVIEW_RATE_LIMIT')].resolved").value("60"))
                .andExpect(jsonPath("$.data[?(@.key=='APPLY_RATE_LIMIT')].raw").value("abc"))
                .andExpect(jsonPath("$.data[?(@.key=='APPLY_RATE_LIMIT')].resolved").value("no limiting"))
                .andExpect(jsonPath("$.data[?(@.key=='APPLY_RATE_LIMIT')].rule").value("unparsable: no limiting"))
                .andExpect(jsonPath("$.data[?(@.key=='APPLY_RATE_LIMIT')].source").value("file"))
                .andExpect(jsonPath("$.data[?(@.key=='ACCESS_MODE')].resolved").value("CLOSED"))
                .andExpect(jsonPath("$.data[?(@.key=='ACCESS_MODE')].rule").value("unknown value: CLOSED"))
                .andExpect(jsonPath("$.data[?(@.key=='approval.maxRetries')].resolved").value("0"))
                .andExpect(jsonPath("$.data[?(@.key=='workflow.approveFirst')].source").value("environment"))
                .andExpect(jsonPath("$.data[?(@.key=='workflow.approveFirst')].resolved").value("true"))
                .andExpect(jsonPath("$.data[?(@.key=='approver.mode')].raw").value(org.hamcrest.Matchers.contains((Object) null)))
                .andExpect(jsonPath("$.data[?(@.key=='ratelimit.scope')].resolved").value("LOCAL"))
                .andExpect(jsonPath("$.data[?(@.key=='ratelimit.windowSeconds')].resolved").value("60"));
    }

    @Test
    void opsConfigNeedsAnOperator() throws Exception {
        mvc.perform(get("/ops/config")).andExpect(status().isUnauthorized());
        mvc.perform(as(get("/ops/config"), "alice")).andExpect(status().isForbidden());
    }

    @Test
    void anEditOfTheFileAppliesWithinSecondsWithoutRestart() throws Exception {
        mvc.perform(post("/test/gated")).andExpect(status().isForbidden());
        Files.writeString(dynamicConfig.file(), "ACCESS_MODE=OPEN\n", StandardCharsets.UTF_8);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> settings.accessMode().value() == AccessMode.OPEN);
        mvc.perform(post("/test/gated")).andExpect(status().isAccepted());

        Files.writeString(dynamicConfig.file(), "ACCESS_MODE=CLOSED\n", StandardCharsets.UTF_8);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> settings.accessMode().value() == AccessMode.CLOSED);
        mvc.perform(post("/test/gated")).andExpect(status().isForbidden());
    }

    @Test
    void aDeletedFileMakesEveryKeyMissingAndItsFallbackApply() throws Exception {
        writeConfig("ACCESS_MODE=OPEN\nworkflow.approveFirst=false\n");
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.OPEN);
        assertThat(settings.approveFirst().value()).isFalse();
        Files.delete(dynamicConfig.file());
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> settings.accessMode().value() == AccessMode.TEST_WINDOW);
        assertThat(settings.accessMode().rule()).isEqualTo("missing: restricted default TEST_WINDOW");
        assertThat(settings.approveFirst().value()).as("the Environment still answers").isTrue();
        mvc.perform(post("/test/gated")).andExpect(status().isForbidden());
    }

    @Test
    void aGarbledFileReadsAsMissingAndRecoversWhenFixed() throws Exception {
        writeConfig("ACCESS_MODE=OPEN\n");
        Files.write(dynamicConfig.file(), new byte[] {'A', 'C', 'C', 'E', 'S', 'S', '_', 'M', 'O', 'D', 'E', '=', (byte) 0xC3, (byte) 0x28});
        dynamicConfig.refresh();
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.TEST_WINDOW);
        writeConfig("ACCESS_MODE=\\uZZZZ\n");
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.TEST_WINDOW);
        writeConfig("ACCESS_MODE=OPEN\n");
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.OPEN);
    }

    @Test
    void anEmptyFileMeansEveryDefault() throws Exception {
        writeConfig("");
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.TEST_WINDOW);
        assertThat(settings.rateLimit(Settings.APPLY_RATE_LIMIT, Settings.DEFAULT_APPLY_RATE_LIMIT).value()).hasValue(10);
        assertThat(settings.approvalMaxRetries().value()).isEqualTo(3);
    }

    @Test
    void misspelledValuesFallBackTheSafeWayForEveryKey() throws Exception {
        writeConfig("""
                APPLY_RATE_LIMIT=1O
                ACCESS_MODE=OPEN!
                ACCESS_TEST_WINDOW=9-18
                ACCESS_ZONE=Europe/Berln
                workflow.approveFirst=yes
                approval.maxRetries=three
                approver.mode=direct http
                ratelimit.scope=clustr
                ratelimit.windowSeconds=0
                """);
        assertThat(settings.rateLimit(Settings.APPLY_RATE_LIMIT, 10).value()).isEmpty();
        assertThat(settings.accessMode().value()).isEqualTo(AccessMode.CLOSED);
        assertThat(settings.testWindow().value().isClosed()).isTrue();
        assertThat(settings.approveFirst().value()).isFalse();
        assertThat(settings.approvalMaxRetries().value()).isEqualTo(3);
        assertThat(settings.approverMode().value().name()).isEqualTo("CLIENT_LIBRARY");
        mvc.perform(post("/test/gated")).andExpect(status().isForbidden());
    }

    @Test
    void aBlankValueInTheFileLetsTheEnvironmentAnswer() throws Exception {
        writeConfig("workflow.approveFirst=   \n");
        assertThat(settings.approveFirst().value()).isTrue();
        writeConfig("workflow.approveFirst=false\n");
        assertThat(settings.approveFirst().value()).as("the file wins over the Environment").isFalse();
    }
}
