package io.changeflow.sandbox.approval;

import io.changeflow.sandbox.fault.SimulatorControlsController;
import io.changeflow.sandbox.webhook.OneShotControls;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Runtime controls of the approval simulator beyond the random fault rates, under the operators'
 * {@code /sandbox/faults} path: {@code GET|PUT /sandbox/faults/approval/controls}. The PUT body
 * changes only the fields it names: {@code mode} ({@code auto|manual}), {@code earlyCallbacks}
 * ({@code APPROVED|REJECTED|OFF}), and one-shot {@code loseNext}, {@code duplicateNext},
 * {@code lateNext} + {@code lateMillis}.
 */
@RestController
@RequestMapping("/sandbox/faults/approval/controls")
class ApprovalControlsController extends SimulatorControlsController {

    private final ApprovalSimulator simulator;

    ApprovalControlsController(ApprovalSimulator simulator) {
        super("Approval simulator controls");
        this.simulator = simulator;
    }

    @Override
    protected void apply(Map<String, Object> body) {
        var mode = body.containsKey("mode") ? parseMode(body.get("mode")) : null;
        var early = body.containsKey("earlyCallbacks") ? parseEarly(body.get("earlyCallbacks")) : null;
        var oneShots = OneShotControls.of(body);
        if (mode != null) {
            simulator.mode(mode);
        }
        if (body.containsKey("earlyCallbacks")) {
            simulator.earlyCallbacks(early.orElse(null));
        }
        oneShots.applyTo(simulator.callbacks());
    }

    @Override
    protected Map<String, Object> view() {
        var view = new LinkedHashMap<String, Object>();
        view.put("mode", simulator.mode().name().toLowerCase(Locale.ROOT));
        view.put("earlyCallbacks", simulator.earlyCallbacks().map(Enum::name).orElse("OFF"));
        view.put("pending", simulator.pending().size());
        return view;
    }

    private static ApprovalSimulator.Mode parseMode(Object raw) {
        if (raw instanceof String text) {
            for (var mode : ApprovalSimulator.Mode.values()) {
                if (mode.name().equalsIgnoreCase(text.strip())) {
                    return mode;
                }
            }
        }
        throw new IllegalArgumentException("mode must be auto or manual");
    }

    private static Optional<ApprovalSimulator.Result> parseEarly(Object raw) {
        if (raw == null || (raw instanceof String text && text.strip().equalsIgnoreCase("OFF"))) {
            return Optional.empty();
        }
        if (raw instanceof String text) {
            var value = text.strip().toUpperCase(Locale.ROOT);
            if (value.equals("APPROVED") || value.equals("REJECTED")) {
                return Optional.of(ApprovalSimulator.Result.valueOf(value));
            }
        }
        throw new IllegalArgumentException("earlyCallbacks must be APPROVED, REJECTED or OFF");
    }
}
