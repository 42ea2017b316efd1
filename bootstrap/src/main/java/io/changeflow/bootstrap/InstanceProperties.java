package io.changeflow.bootstrap;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.convert.DurationStyle;

/**
 * The instance roster's settings ({@code changeflow.instances.*}, issue 31), read fail-safe: a missing, garbled, zero
 * or negative value means its default and never stops start-up.
 *
 * @param heartbeatInterval how often an instance refreshes its row (default 15 s)
 * @param staleAfter        an instance without a heartbeat for longer is shown SILENT (default 60 s; at least two
 *                          heartbeat intervals, raised to that)
 * @param forgetAfter       an instance not seen for longer is deleted from the roster (default 24 h)
 */
record InstanceProperties(Duration heartbeatInterval, Duration staleAfter, Duration forgetAfter) {

    private static final Logger log = LoggerFactory.getLogger(InstanceProperties.class);

    static final Duration HEARTBEAT = Duration.ofSeconds(15);
    static final Duration STALE = Duration.ofSeconds(60);
    static final Duration FORGET = Duration.ofHours(24);

    /** From the raw texts of the three keys (null: not set). */
    static InstanceProperties of(String heartbeatInterval, String staleAfter, String forgetAfter) {
        var heartbeat = positive("changeflow.instances.heartbeat-interval", heartbeatInterval, HEARTBEAT);
        var stale = positive("changeflow.instances.stale-after", staleAfter, STALE);
        if (stale.compareTo(heartbeat.multipliedBy(2)) < 0) {
            log.warn("changeflow.instances.stale-after {} is shorter than two heartbeat intervals: {} used", stale,
                    heartbeat.multipliedBy(2));
            stale = heartbeat.multipliedBy(2);
        }
        return new InstanceProperties(heartbeat, stale, positive("changeflow.instances.forget-after", forgetAfter, FORGET));
    }

    private static Duration positive(String key, String text, Duration fallback) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            var value = DurationStyle.detectAndParse(text.strip());
            if (!value.isNegative() && !value.isZero()) {
                return value;
            }
        } catch (IllegalArgumentException e) {
            // falls through to the default, said below
        }
        log.warn("{} '{}' is not a positive duration: {} used", key, text, fallback);
        return fallback;
    }
}
