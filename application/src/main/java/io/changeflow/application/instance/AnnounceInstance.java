package io.changeflow.application.instance;

import io.changeflow.application.port.out.Instances;
import java.time.Duration;
import java.util.Objects;

/**
 * Keeps this instance's row in {@link Instances} true (issue 31): written at start, refreshed by every heartbeat
 * (written again when it was forgotten while the instance could not reach the database), marked stopped on a graceful
 * stop. Each heartbeat also forgets the instances nobody has seen for {@code forgetAfter}.
 */
public final class AnnounceInstance {

    private final Instances instances;
    private final Instances.Identity self;
    private final Duration forgetAfter;

    public AnnounceInstance(Instances instances, Instances.Identity self, Duration forgetAfter) {
        this.instances = Objects.requireNonNull(instances, "instances");
        this.self = Objects.requireNonNull(self, "self");
        this.forgetAfter = Objects.requireNonNull(forgetAfter, "forgetAfter");
    }

    /** At start: this instance runs from now on. */
    public void started() {
        instances.started(self);
    }

    /** Every heartbeat interval: still running. */
    public void beat() {
        if (!instances.seen(self.name())) {
            instances.started(self);
        }
        instances.forgetUnseenFor(forgetAfter);
    }

    /** On a graceful stop. */
    public void stopped() {
        instances.stopped(self.name());
    }

    public Instances.Identity self() {
        return self;
    }
}
