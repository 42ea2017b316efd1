package io.changeflow.adapter.gitlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class GitLabPropertiesTest {

    @Test
    void givesEveryTimingAFiniteDefaultAndPointsAtNoGitLabAndNoBotsUntilConfigured() {
        var defaults = GitLabProperties.defaults();

        assertThat(defaults.baseUrl()).isEmpty();
        assertThat(defaults.author().account()).isEmpty();
        assertThat(defaults.author().hasToken()).isFalse();
        assertThat(defaults.approvers()).isEmpty();
        assertThat(bind(Map.of("changeflow.gitlab.base-url", "  "))).satisfies(blank -> {
            assertThat(blank.baseUrl()).isEmpty();
            assertThat(blank.approvers()).isEmpty();
        });
        assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(defaults.readTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.callTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(defaults.checkItemsTtl()).isEqualTo(Duration.ofMinutes(10));
        var breaker = defaults.circuitBreaker();
        assertThat(breaker.failureRateThreshold()).isEqualTo(50f);
        assertThat(breaker.slidingWindowSize()).isEqualTo(50);
        assertThat(breaker.minimumNumberOfCalls()).isEqualTo(20);
        assertThat(breaker.waitDurationInOpenState()).isEqualTo(Duration.ofSeconds(30));
        assertThat(breaker.permittedCallsInHalfOpenState()).isEqualTo(2);
        assertThat(defaults.readRetries()).isEqualTo(2);
        assertThat(defaults.readRetryBackoff()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void readRetriesMayBeTurnedOffButNotMadeNegative() {
        assertThat(bind(Map.of("changeflow.gitlab.read-retries", "0")).readRetries()).isZero();
        assertThat(bind(Map.of("changeflow.gitlab.read-retries", "-1")).readRetries()).isEqualTo(2);
        assertThat(bind(Map.of("changeflow.gitlab.read-retries", "4", "changeflow.gitlab.read-retry-backoff", "50ms")))
                .satisfies(p -> {
                    assertThat(p.readRetries()).isEqualTo(4);
                    assertThat(p.readRetryBackoff()).isEqualTo(Duration.ofMillis(50));
                });
        assertThat(bind(Map.of("changeflow.gitlab.read-retry-backoff", "0s")).readRetryBackoff()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void replacesZeroNegativeAndOutOfRangeValuesWithTheDefaults() {
        var bound = bind(Map.of(
                "changeflow.gitlab.base-url", "https://gitlab.example.com/",
                "changeflow.gitlab.connect-timeout", "0s",
                "changeflow.gitlab.read-timeout", "-5s",
                "changeflow.gitlab.call-timeout", "0ms",
                "changeflow.gitlab.circuit-breaker.failure-rate-threshold", "150",
                "changeflow.gitlab.circuit-breaker.sliding-window-size", "0",
                "changeflow.gitlab.approvers[0].account", "reviewer-bot",
                "changeflow.gitlab.approvers[0].token", "secret-token"));

        assertThat(bound.baseUrl()).isEqualTo("https://gitlab.example.com");
        assertThat(bound.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(bound.readTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(bound.callTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(bound.circuitBreaker().failureRateThreshold()).isEqualTo(50f);
        assertThat(bound.circuitBreaker().slidingWindowSize()).isEqualTo(50);
        assertThat(bound.approvers()).singleElement().satisfies(bot -> {
            assertThat(bot.account()).isEqualTo("reviewer-bot");
            assertThat(bot.toString()).doesNotContain("secret-token");
        });
    }

    @Test
    void bindsTheAuthorAndTheApprovalBotsByListIndex() {
        var bound = bind(Map.of(
                "changeflow.gitlab.author.account", "changeflow-bot",
                "changeflow.gitlab.author.token", "author-token",
                "changeflow.gitlab.approvers[0].account", "approval-bot-1",
                "changeflow.gitlab.approvers[0].token", "token-1",
                "changeflow.gitlab.approvers[1].account", "approval-bot-2",
                "changeflow.gitlab.approvers[1].token", "token-2"));

        assertThat(bound.author().account()).isEqualTo("changeflow-bot");
        assertThat(bound.author().hasToken()).isTrue();
        assertThat(bound.approvers()).extracting(GitLabProperties.Bot::account)
                .containsExactly("approval-bot-1", "approval-bot-2");
    }

    @Test
    void theCallBudgetIsUnlimitedByDefaultAndForBlankGarbledZeroOrNegativeValues() {
        assertThat(GitLabProperties.defaults().callBudgetPerMinute()).isZero();
        for (var bad : new String[] {"", "  ", "lots", "1.5", "0", "-20"}) {
            assertThat(withBudget(bad).callBudgetPerMinute()).as(bad).isZero();
        }
        assertThat(withBudget(" 600 ").callBudgetPerMinute()).isEqualTo(600);
    }

    @Test
    void theRateLimitReserveIsFiveByDefaultAndForBlankGarbledOrNegativeValuesAndZeroTurnsItOff() {
        assertThat(GitLabProperties.defaults().rateLimitReserveCalls()).isEqualTo(5);
        for (var bad : new String[] {"", "  ", "lots", "1.5", "-3"}) {
            assertThat(withReserve(bad).rateLimitReserveCalls()).as(bad).isEqualTo(5);
        }
        assertThat(withReserve("0").rateLimitReserveCalls()).isZero();
        assertThat(withReserve(" 20 ").rateLimitReserveCalls()).isEqualTo(20);
    }

    private static GitLabProperties withReserve(String reserve) {
        return new GitLabProperties(null, null, null, null, null, null, null, null, null, null, null, reserve, null);
    }

    private static GitLabProperties withBudget(String budget) {
        return new GitLabProperties(null, null, null, null, null, null, null, null, null, null, budget, null, null);
    }

    @Test
    void refusesAnApprovalBotWithoutAnAccountNamingTheSetting() {
        assertThatThrownBy(() -> new GitLabProperties("https://gitlab.example.com", null,
                List.of(new GitLabProperties.Bot("approval-bot-1", "t1"), new GitLabProperties.Bot(" ", "t2")),
                null, null, null, null, null, null, null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("changeflow.gitlab.approvers[1].account");
    }

    @Test
    void showsTheBaseUrlWithoutCredentials() {
        var properties = bind(Map.of("changeflow.gitlab.base-url", "https://bot:secret@gitlab.example.com:8443/gl?x=1"));

        assertThat(properties.safeBaseUrl()).isEqualTo("https://gitlab.example.com:8443/gl");
    }

    private static GitLabProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("changeflow.gitlab", GitLabProperties.class);
    }
}
