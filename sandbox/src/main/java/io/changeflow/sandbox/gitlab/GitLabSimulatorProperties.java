package io.changeflow.sandbox.gitlab;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the GitLab simulator ({@code sandbox.gitlab.*}). Every value has a default that makes
 * the embedded run work without configuration; blank or missing values fall back to it.
 *
 * @param author            the bot that opens merge requests (its token is what the adapter's author token must be)
 * @param approvers         the approval bots; each may approve a merge request it did not author
 * @param checkingDuration  how long {@code detailed_merge_status} stays {@code checking} after a push (merging
 *                          answers 422 meanwhile)
 * @param pipelineDuration  how long a pipeline takes from creation to its result
 * @param rebaseDuration    how long {@code rebase_in_progress} stays true after a rebase request
 * @param webUrl            base of the {@code web_url} fields, e.g. {@code http://gitlab.sandbox.example/sim/gitlab};
 *                          null (not set or blank): follows the server the simulator runs in,
 *                          {@code http://localhost:<its port><context path>/sim/gitlab} (see {@link GitLabSimulator#webUrl()})
 * @param projects          project paths created (with a README on {@code main}) at start and on reset
 * @param approvalsRequired what {@code approvals_required} reports (informational: merging does not enforce it)
 */
@ConfigurationProperties("sandbox.gitlab")
public record GitLabSimulatorProperties(Account author, List<Account> approvers, Duration checkingDuration,
                                        Duration pipelineDuration, Duration rebaseDuration, String webUrl,
                                        List<String> projects, Integer approvalsRequired) {

    /** A GitLab account of the simulator; the token goes in the {@code PRIVATE-TOKEN} header. */
    public record Account(String username, String token) {

        public Account {
            if (username == null || username.isBlank() || token == null || token.isBlank()) {
                throw new IllegalArgumentException("a simulator account needs a username and a token");
            }
        }
    }

    public static final Account DEFAULT_AUTHOR = new Account("changeflow-bot", "author-bot-token");
    public static final List<Account> DEFAULT_APPROVERS = List.of(
            new Account("approval-bot-1", "approval-bot-1-token"),
            new Account("approval-bot-2", "approval-bot-2-token"));
    public static final String DEFAULT_PROJECT = "platform/access-config";
    /** The base of {@code web_url} fields when neither the setting nor the server's address is known. */
    public static final String DEFAULT_WEB_URL = "http://localhost:8080/sim/gitlab";

    public GitLabSimulatorProperties {
        author = author == null ? DEFAULT_AUTHOR : author;
        approvers = approvers == null || approvers.isEmpty() ? DEFAULT_APPROVERS : List.copyOf(approvers);
        checkingDuration = nonNegative(checkingDuration, Duration.ofSeconds(1));
        pipelineDuration = nonNegative(pipelineDuration, Duration.ofSeconds(5));
        rebaseDuration = nonNegative(rebaseDuration, Duration.ofSeconds(1));
        webUrl = webUrl == null || webUrl.isBlank() ? null : stripSlash(webUrl.trim());
        projects = projects == null ? List.of(DEFAULT_PROJECT) : List.copyOf(projects);
        approvalsRequired = approvalsRequired == null || approvalsRequired < 0 ? 2 : approvalsRequired;
    }

    /** Everything at its default. */
    public static GitLabSimulatorProperties defaults() {
        return new GitLabSimulatorProperties(null, null, null, null, null, null, null, null);
    }

    /** A copy with other timings (tests use short ones). */
    public GitLabSimulatorProperties withTimings(Duration checking, Duration pipeline, Duration rebase) {
        return new GitLabSimulatorProperties(author, approvers, checking, pipeline, rebase, webUrl, projects,
                approvalsRequired);
    }

    private static Duration nonNegative(Duration value, Duration fallback) {
        return value == null || value.isNegative() ? fallback : value;
    }

    static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
