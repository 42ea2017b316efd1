package io.changeflow.reliability.support;

import io.changeflow.systemtest.harness.AppInstance;
import java.util.Collection;
import java.util.Map;

/**
 * Reads counters from {@code GET /actuator/prometheus} (text format), summed over every series of a name, as
 * the operator {@code otto} (monitoring is not public).
 */
public final class Prometheus {

    private Prometheus() {
    }

    /** The sum of every sample of {@code metric} (e.g. {@code changeflow_requests_validated_total}) on {@code instance}. */
    public static double sum(AppInstance instance, String metric) {
        var response = instance.client("otto").get("/actuator/prometheus", Map.of("Accept", "text/plain"));
        if (response.status() != 200) {
            throw new IllegalStateException("GET /actuator/prometheus on " + instance + ": " + response);
        }
        var total = 0.0;
        for (var line : response.body().split("\n")) {
            if (line.startsWith(metric + "{") || line.startsWith(metric + " ")) {
                var value = line.substring(line.lastIndexOf(' ') + 1).strip();
                total += Double.parseDouble(value);
            }
        }
        return total;
    }

    /** The sum of {@code metric} over {@code instances}. */
    public static double sum(Collection<AppInstance> instances, String metric) {
        var total = 0.0;
        for (var instance : instances) {
            total += sum(instance, metric);
        }
        return total;
    }
}
