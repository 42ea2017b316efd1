package io.changeflow.application.batch;

import io.changeflow.application.port.out.Targets;
import io.changeflow.domain.request.Target;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The recurring batch task (one instance at a time cluster-wide): one {@link RunBatchRound} per
 * partition that has batchable targets and one per grant file's removal partition
 * ({@link Target#removalPartition()}: one merge request per file per round for every line due), through the very code path of the operators' manual trigger.
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
        var grants = targets.all().stream().filter(Target::batchable).map(Target::partition);
        // every grant file has its removal round (expiries, give-ups, revocations), batchable or not
        var removals = targets.all().stream().map(Target::removalPartition);
        var partitions = Stream.concat(grants, removals).distinct().sorted().toList();
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
