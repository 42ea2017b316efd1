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
 * @param approvalsRequired what {@code approvals_required} reports; enforced only with {@code sandbox.gitlab.approvals-enforced}
 *                          (see {@link GitLabApprovalRules})
 * @param profile           which GitLab's merge answers to give: {@code gitlab-17} (17.x and 18.x, the default) or
 *                          {@code gitlab-19}; anything else is the default (see {@link Profile})
 * @param mergedResultsPipelines whether merge request pipelines run for the head merged into the target (their
 *                          {@code sha} is that merge commit's, not the head's); off by default
 * @param refreshLag        how long after a push a merge request still reports its previous head {@code sha} (and that
 *                          head's {@code head_pipeline}), as GitLab refreshes it asynchronously; 0 (the default) or
 *                          missing/negative: at once
 */
@ConfigurationProperties("sandbox.gitlab")
public record GitLabSimulatorProperties(Account author, List<Account> approvers, Duration checkingDuration,
                                        Duration pipelineDuration, Duration rebaseDuration, String webUrl,
                                        List<String> projects, Integer approvalsRequired, String profile,
                                        Boolean mergedResultsPipelines, Duration refreshLag) {

    /** The GitLab versions whose merge answers the simulator gives (docs/external-systems-gitlab.md has the table). */
    public enum Profile {
        /**
         * GitLab 17.x and 18.x: 405 for not open, draft, unresolved discussions, CI that must pass and missing
         * approvals; 422 "Branch cannot be merged" for a conflict, {@code checking}/{@code unchecked} or
         * {@code need_rebase}; then 409 for a stale {@code sha}; {@code sha} optional.
         */
        GITLAB_17,
        /** GitLab 19.x: 400 without {@code sha}; 405 for every "not mergeable" reason; 409 for a stale {@code sha}. */
        GITLAB_19;

        /** {@code gitlab-17} or {@code gitlab-19}; anything else (or nothing) is {@link #GITLAB_17}. */
        public static Profile of(String name) {
            return name != null && name.trim().equalsIgnoreCase("gitlab-19") ? GITLAB_19 : GITLAB_17;
        }

        /** The name the setting takes. */
        public String settingName() {
            return this == GITLAB_19 ? "gitlab-19" : "gitlab-17";
        }
    }

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
        profile = Profile.of(profile).settingName();
        mergedResultsPipelines = Boolean.TRUE.equals(mergedResultsPipelines);
        refreshLag = nonNegative(refreshLag, Duration.ZERO);
    }

    /** Everything at its default. */
    public static GitLabSimulatorProperties defaults() {
        return new GitLabSimulatorProperties(null, null, null, null, null, null, null, null, null, null, null);
    }

    /** The merge answers' profile. */
    public Profile gitlabProfile() {
        return Profile.of(profile);
    }

    /** A copy with other timings (tests use short ones). */
    public GitLabSimulatorProperties withTimings(Duration checking, Duration pipeline, Duration rebase) {
        return new GitLabSimulatorProperties(author, approvers, checking, pipeline, rebase, webUrl, projects,
                approvalsRequired, profile, mergedResultsPipelines, refreshLag);
    }

    /** A copy answering as {@code profile}, with merged-results pipelines or not and this refresh lag. */
    public GitLabSimulatorProperties withBehaviour(Profile profile, boolean mergedResults, Duration lag) {
        return new GitLabSimulatorProperties(author, approvers, checkingDuration, pipelineDuration, rebaseDuration, webUrl,
                projects, approvalsRequired, profile.settingName(), mergedResults, lag);
    }

    private static Duration nonNegative(Duration value, Duration fallback) {
        return value == null || value.isNegative() ? fallback : value;
    }

    static String stripSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
