package io.changeflow.application.grant;

import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BindingStatus;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Issue 32 item 4: an operator's revocation marked urgent. The revocation is the one of {@link RemoveGrant}
 * (audited the same way); once its removal waits in its file's removal partition, that partition's round runs at
 * once, through the very path of the recurring task and the operators' manual trigger ({@link RunBatchRound},
 * audited as the operator's round), instead of waiting for the next scheduled run. A removal that asks the approver
 * first (the target's {@code removals: approval}) still asks: the round runs once it is approved, as for any removal.
 */
public final class RevokeUrgently {

    /**
     * @param parameters already masked and truncated, for the audit entries
     */
    public record Command(String subjectId, String targetKey, String operator, Map<String, String> parameters) {
        public Command {
            Objects.requireNonNull(operator, "operator");
            parameters = parameters == null ? Map.of() : Map.copyOf(parameters);
        }
    }

    /**
     * @param removal the revocation's answer
     * @param round   the round run at once; empty when the revocation was refused or its removal waits for the
     *                approver
     */
    public record Result(RemoveGrant.Result removal, Optional<RunBatchRound.Result> round) {
        public Result {
            Objects.requireNonNull(removal, "removal");
            Objects.requireNonNull(round, "round");
        }
    }

    private final RemoveGrant remove;
    private final RunBatchRound round;
    private final Targets targets;

    public RevokeUrgently(RemoveGrant remove, RunBatchRound round, Targets targets) {
        this.remove = remove;
        this.round = round;
        this.targets = targets;
    }

    public Result revoke(Command command) {
        var removal = remove.remove(RemoveGrant.Command.revoke(command.subjectId(), command.targetKey(), command.operator(),
                command.parameters()));
        if (!(removal instanceof RemoveGrant.Result.Accepted accepted)
                || accepted.removal().status().filter(BindingStatus.REVOKING::equals).isEmpty()) {
            return new Result(removal, Optional.empty());
        }
        var partition = TargetKey.parse(command.targetKey()).flatMap(targets::find).map(t -> t.removalPartition());
        if (partition.isEmpty()) {
            return new Result(removal, Optional.empty());
        }
        var parameters = new java.util.HashMap<>(command.parameters());
        parameters.put("urgent", "revocation " + accepted.removal().operationId().value());
        return new Result(removal, Optional.of(round.round(RunBatchRound.Command.byOperator(partition.get(),
                command.operator(), parameters))));
    }
}
