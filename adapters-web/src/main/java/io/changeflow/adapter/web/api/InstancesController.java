package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.application.instance.ShowInstances;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Every instance of the service with the version and commit it runs ({@link ShowInstances}, issue 31): what an
 * operator checks between the steps of a rolling upgrade (docs/operations.md "Upgrading"). Operators only, like every
 * {@code /ops/} path.
 */
@RestController
public final class InstancesController {

    /** One instance: {@code state} RUNNING, STOPPED or SILENT; {@code stoppedAt} null unless it stopped gracefully. */
    record InstanceJson(String name, String version, String commit, String state, String startedAt, String lastSeen,
                        long secondsSinceSeen, @Nullable String stoppedAt) {
        static InstanceJson of(ShowInstances.InstanceView view) {
            var instance = view.instance();
            return new InstanceJson(instance.identity().name(), instance.identity().version(),
                    instance.identity().commit(), view.state().name(), instance.startedAt().toString(),
                    instance.lastSeen().toString(), view.sinceSeen().toSeconds(),
                    instance.stoppedAt().map(Object::toString).orElse(null));
        }
    }

    /** {@code versions}: the distinct versions of the running instances; {@code mixed}: more than one. */
    record InstancesJson(String at, boolean mixed, List<String> versions, List<InstanceJson> instances) {}

    private final ShowInstances show;

    public InstancesController(ShowInstances show) {
        this.show = show;
    }

    /** 200 OK with every instance recorded, running ones first (newest start first), then stopped, then silent. */
    @Answers(summary = "Every instance with its version and commit")
    @GetMapping("/ops/instances")
    ApiResponse<InstancesJson> instances() {
        var cluster = show.show();
        return ApiResponse.ok(new InstancesJson(cluster.at().toString(), cluster.mixed(), cluster.versions(),
                cluster.instances().stream().map(InstanceJson::of).toList()));
    }
}
