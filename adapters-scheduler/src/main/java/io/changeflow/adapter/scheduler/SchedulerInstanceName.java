package io.changeflow.adapter.scheduler;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The name this instance has in {@code scheduled_tasks.picked_by}: {@code changeflow.scheduler.name} when set, else
 * host name and process id. Public so that whatever else names the instance (the roster of {@code /ops/instances},
 * issue 31) names it the same way.
 */
public final class SchedulerInstanceName {

    private SchedulerInstanceName() {
    }

    /** {@code configured} stripped, or host name and process id when it is missing or blank. */
    public static String of(String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured.strip();
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "unknown-host";
        }
        return host + "-" + ProcessHandle.current().pid();
    }
}
