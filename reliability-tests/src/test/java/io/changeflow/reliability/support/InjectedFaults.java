package io.changeflow.reliability.support;

import io.changeflow.sandbox.fault.FaultSettings;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.systemtest.harness.ChangeflowCluster;
import io.changeflow.systemtest.harness.SimulatorHost;

/**
 * The faults a run injects: into the GitLab simulator, the approval simulator and the deploy reports.
 *
 * @param gitlab   GitLab's calls (errors, lost responses, latency)
 * @param approval the approval system's calls and its callbacks
 * @param deploy   the deploy pipeline's callbacks
 */
public record InjectedFaults(FaultSettings gitlab, FaultSettings approval, FaultSettings deploy) {

    /**
     * Seeds the fault dice of the cluster's simulators with {@code seed} (the run repeats with it), then sets the three
     * systems' faults; returns the simulators.
     */
    public SimulatorHost injectInto(ChangeflowCluster cluster, long seed) {
        var sims = cluster.sims();
        sims.faults().reseed(seed);
        sims.faults(Faults.GITLAB, gitlab);
        sims.faults(Faults.APPROVAL, approval);
        sims.faults(Faults.DEPLOY, deploy);
        return sims;
    }
}
