package io.changeflow.sandbox.gitlab;

import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the GitLab simulator answers where GitLab versions and tiers differ ({@code sandbox.gitlab.*}, next to
 * {@link GitLabSimulatorProperties}): approvals, rate limits and the check-items extension. Bad values fall
 * back to the default (never "enforce nothing" by accident, never "no limit" by a typo of a number: a
 * garbled limit is off, as by default).
 *
 * @param profile             {@code gitlab-17} (default; 17.x and 18.x) or {@code gitlab-19}: how an approval
 *                            the account already gave is answered (401 or 304)
 * @param approvalsEnforced   whether unmet approval rules block merging ({@code not_approved}), as on GitLab
 *                            Premium; default false (GitLab Free: approvals are optional)
 * @param resetApprovalsOnPush the default of every project's "reset approvals on push": true by default, as GitLab's
 *                            ({@code projects.reset_approvals_on_push boolean DEFAULT true}, db/structure.sql, 17.x to
 *                            19.1); false only when set so
 * @param rateLimitPerMinute  authenticated API calls per minute per account before 429; 0 or less, blank or
 *                            garbled: no limit (default)
 * @param checkItemsExtension whether the upstream check-items API exists (default true); false: 404, as stock GitLab
 */
@ConfigurationProperties("sandbox.gitlab")
public record GitLabBehaviourProperties(String profile, Boolean approvalsEnforced, Boolean resetApprovalsOnPush,
                                        String rateLimitPerMinute, Boolean checkItemsExtension) {

    /** What GitLab answers when an account approves a merge request it already approved. */
    public enum Profile {
        /** GitLab 17.x and 18.x: 401 Unauthorized. */
        GITLAB_17(401),
        /** GitLab 19.x: 304 Not Modified. */
        GITLAB_19(304);

        private final int alreadyApproved;

        Profile(int alreadyApproved) {
            this.alreadyApproved = alreadyApproved;
        }

        /** The status of an approval the account already gave. */
        public int alreadyApproved() {
            return alreadyApproved;
        }

        /** {@code gitlab-17}, {@code gitlab-18} (same answers as 17), {@code gitlab-19}; anything else: 17. */
        public static Profile parse(String text) {
            var value = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
            return value.equals("gitlab-19") || value.equals("19") ? GITLAB_19 : GITLAB_17;
        }
    }

    public GitLabBehaviourProperties {
        profile = Profile.parse(profile).name().toLowerCase(Locale.ROOT).replace('_', '-');
        approvalsEnforced = approvalsEnforced != null && approvalsEnforced;
        resetApprovalsOnPush = resetApprovalsOnPush == null || resetApprovalsOnPush;
        rateLimitPerMinute = String.valueOf(perMinute(rateLimitPerMinute));
        checkItemsExtension = checkItemsExtension == null || checkItemsExtension;
    }

    public static GitLabBehaviourProperties defaults() {
        return new GitLabBehaviourProperties(null, null, null, null, null);
    }

    public Profile versionProfile() {
        return Profile.parse(profile);
    }

    /** The rate limit as a number: 0 for none. */
    public int rateLimit() {
        return perMinute(rateLimitPerMinute);
    }

    private static int perMinute(String text) {
        try {
            return text == null ? 0 : Math.max(0, Integer.parseInt(text.strip()));
        } catch (NumberFormatException garbled) {
            return 0;
        }
    }
}
