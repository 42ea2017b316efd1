package io.changeflow.adapter.web.metrics;

import java.util.Map;

/**
 * The help text of every meter the web adapter emits through {@link SafeMeters}: Prometheus shows it as
 * {@code # HELP} and {@code promtool check metrics} requires it. A name missing here has no help text, which the
 * exposition check of the system tests reports.
 */
final class MeterHelp {

    private static final Map<String, String> HELP = Map.ofEntries(
            Map.entry(BusinessActivityInterceptor.RECEIVED,
                    "Allowlisted requests by verified identities that passed rate limiting and authorization, by activity"),
            Map.entry(BusinessActivityInterceptor.SUCCEEDED, "Allowlisted requests answered 2xx, by activity"),
            Map.entry(MeterNames.RATE_LIMIT_REJECTED, "Requests refused with 429 by a rate limit, by bucket"),
            Map.entry(MeterNames.RATE_LIMIT_DEGRADED,
                    "Requests allowed because rate limiting could not decide, by bucket and reason"),
            Map.entry(MeterNames.CROSS_SITE_REFUSED, "Writes refused as cross-site (403 CROSS_SITE_REQUEST), by reason"),
            Map.entry(MeterNames.AUTHORIZATION_DENIED, "Requests refused by authorization, by status (401, 403)"),
            Map.entry(MeterNames.CALLBACKS_REFUSED,
                    "Callbacks refused before processing, by source and reason (invalid_signature, not_configured)"),
            Map.entry(MeterNames.DEPLOY_IDS_IGNORED,
                    "Operation IDs deploy reports listed that are not operations of the reported merge request (ignored)"),
            Map.entry(MeterNames.DATABASE_UNAVAILABLE, "Requests answered 503 UNAVAILABLE because the database did not "
                    + "answer in time, by reason (pool_wait, statement_deadline, connection_lost)"),
            Map.entry(MicrometerCallMetrics.NAME,
                    "Calls to GitLab and the approval system, each try, by system, operation and outcome"),
            Map.entry(MicrometerBusinessMetrics.SUBMITTED, "Change requests accepted, by target"),
            Map.entry(MicrometerBusinessMetrics.VALIDATED, "Change requests that reached in effect, once per request, by target"),
            Map.entry(MicrometerBusinessMetrics.FAILED, "Change requests that stopped at a failure step, by step"),
            Map.entry(MicrometerBusinessMetrics.BATCH_DURATION, "Batch hand-offs completed, by outcome (merged, not_merged)"),
            Map.entry(MicrometerBusinessMetrics.BATCH_SIZE, "Requests in a completed batch hand-off, by outcome"),
            Map.entry(MicrometerBusinessMetrics.NOTIFICATIONS,
                    "Notifications delivered (sent) or attempts failed and retried later (failed), by channel (MAIL, WEBHOOK)"));

    private MeterHelp() {
    }

    /** The help text of {@code name}, or null when it has none. */
    static String of(String name) {
        return HELP.get(name);
    }
}
