package io.changeflow.adapter.web.metrics;

/**
 * The names of the meters that the guards and the callbacks endpoint count, declared here so that {@link MeterHelp}
 * reads them without the metrics package using theirs (see docs/walkthrough.md, "Packages of the web adapter").
 */
public final class MeterNames {

    /** Requests refused with 429, by {@code bucket}. */
    public static final String RATE_LIMIT_REJECTED = "changeflow.ratelimit.rejected";
    /** Requests allowed because rate limiting could not decide, by {@code bucket} and {@code reason}. */
    public static final String RATE_LIMIT_DEGRADED = "changeflow.ratelimit.degraded";
    /** Writes refused as cross-site, by {@code reason}. */
    public static final String CROSS_SITE_REFUSED = "changeflow.web.cross_site.refused";
    /** Requests refused by authorization, by {@code status} (401, 403). */
    public static final String AUTHORIZATION_DENIED = "changeflow.authorization.denied";
    /** Callbacks refused before processing, by {@code source} (approval, deploy) and {@code reason}. */
    public static final String CALLBACKS_REFUSED = "changeflow.callbacks.refused";
    /** Operation IDs a deploy report listed that are not operations of the merge request it reports: ignored. */
    public static final String DEPLOY_IDS_IGNORED = "changeflow.callbacks.deploy.ignored.ids";

    /** Requests answered 503 because the database did not answer in time, by {@code reason} (issue 34). */
    public static final String DATABASE_UNAVAILABLE = "changeflow.web.database.unavailable";

    private MeterNames() {
    }
}
