package io.changeflow.application.batch;

import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.request.Target;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The recurring batch task (one instance at a time cluster-wide): one {@link RunBatchRound} per
 * partition that has batchable targets, through the very code path of the operators' manual trigger.
 * Partitions are independent: one partition's failure is logged and the others still run.
 */
public final class RunScheduledBatchRounds {

    private static final System.Logger LOG = System.getLogger(RunScheduledBatchRounds.class.getName());

    /** No parameters: the catalog says which partitions exist. */
    public record Command() {}

    private final Targets targets;
    private final RunBatchRound round;

    public RunScheduledBatchRounds(Targets targets, RunBatchRound round) {
        this.targets = targets;
        this.round = round;
    }

    /** @return each partition's round result, in partition order (a partition whose round threw is absent) */
    public Map<String, RunBatchRound.Result> run(Command command) {
        var partitions = targets.all().stream().filter(Target::batchable).map(Target::partition).distinct().sorted().toList();
        var results = new LinkedHashMap<String, RunBatchRound.Result>();
        for (var partition : partitions) {
            try {
                results.put(partition, round.round(RunBatchRound.Command.scheduled(partition)));
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "the batch round of partition " + partition + " failed; the next run tries again", e);
            }
        }
        return results;
    }
}
