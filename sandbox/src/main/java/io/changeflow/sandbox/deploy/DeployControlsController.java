package io.changeflow.sandbox.deploy;

import io.changeflow.sandbox.fault.SimulatorControlsController;
import io.changeflow.sandbox.webhook.OneShotControls;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Runtime controls of the deploy pipeline simulator under the operators' {@code /sandbox/faults}
 * path: {@code GET|PUT /sandbox/faults/deploy/controls}. The PUT body changes only the fields it
 * names: {@code lostShare} (in [0, 1]), {@code includeOperationIds}, and one-shot
 * {@code loseNext}, {@code duplicateNext}, {@code lateNext} + {@code lateMillis}.
 */
@RestController
@RequestMapping("/sandbox/faults/deploy/controls")
class DeployControlsController extends SimulatorControlsController {

    private final DeployPipelineSimulator simulator;

    DeployControlsController(DeployPipelineSimulator simulator) {
        super("Deploy pipeline simulator controls");
        this.simulator = simulator;
    }

    @Override
    protected void apply(Map<String, Object> body) {
        Double lostShare = null;
        if (body.containsKey("lostShare")) {
            if (!(body.get("lostShare") instanceof Number share) || !(share.doubleValue() >= 0 && share.doubleValue() <= 1)) {
                throw new IllegalArgumentException("lostShare must be a number in [0, 1]");
            }
            lostShare = share.doubleValue();
        }
        Boolean include = null;
        if (body.containsKey("includeOperationIds")) {
            if (!(body.get("includeOperationIds") instanceof Boolean flag)) {
                throw new IllegalArgumentException("includeOperationIds must be true or false");
            }
            include = flag;
        }
        var oneShots = OneShotControls.of(body);
        if (lostShare != null) {
            simulator.lostShare(lostShare);
        }
        if (include != null) {
            simulator.includeOperationIds(include);
        }
        oneShots.applyTo(simulator.callbacks());
    }

    @Override
    protected Map<String, Object> view() {
        var view = new LinkedHashMap<String, Object>();
        view.put("lostShare", simulator.lostShare());
        view.put("includeOperationIds", simulator.includeOperationIds());
        view.put("lostCallbacks", simulator.lostCallbacks().size());
        return view;
    }

}
