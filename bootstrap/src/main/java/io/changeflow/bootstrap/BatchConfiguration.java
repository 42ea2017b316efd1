package io.changeflow.bootstrap;

import io.changeflow.adapter.scheduler.RecurringJob;
import io.changeflow.application.batch.BatchPolicy;
import io.changeflow.application.batch.ListBatches;
import io.changeflow.application.batch.ReadmitBatchMember;
import io.changeflow.application.batch.RunBatchRound;
import io.changeflow.application.batch.RunScheduledBatchRounds;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.batch.SweepStuckBatches;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.workflow.StateChanges;
import java.time.Clock;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Batch aggregation: rounds (recurring and manual run the same code), settlement, the stuck-batch sweep. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(BatchProperties.class)
class BatchConfiguration {

    @Bean
    BatchPolicy batchPolicy(BatchProperties properties) {
        return properties.toPolicy();
    }

    @Bean
    SettleBatch settleBatch(Batches batches, Operations operations, Targets targets, MergeRequests gitlab,
                            BusinessMetrics metrics, AuditLog audit, BatchPolicy policy, Clock clock) {
        return new SettleBatch(batches, operations, targets, gitlab, metrics, audit, policy, clock);
    }

    @Bean
    RunBatchRound runBatchRound(Batches batches, WorkQueue queue, AuditLog audit, BatchPolicy policy, Clock clock) {
        return new RunBatchRound(batches, queue, audit, policy, clock);
    }

    @Bean
    RunScheduledBatchRounds runScheduledBatchRounds(Targets targets, RunBatchRound round) {
        return new RunScheduledBatchRounds(targets, round);
    }

    @Bean
    SweepStuckBatches sweepStuckBatches(Batches batches, WorkQueue queue, BatchPolicy policy) {
        return new SweepStuckBatches(batches, queue, policy);
    }

    @Bean
    ReadmitBatchMember readmitBatchMember(Operations operations, Targets targets, Batches batches, StateChanges changes,
                                          AuditLog audit, Clock clock) {
        return new ReadmitBatchMember(operations, targets, batches, changes, audit, clock);
    }

    @Bean
    ListBatches listBatches(Batches batches, Operations operations) {
        return new ListBatches(batches, operations);
    }

    @Bean
    RecurringJob batchRoundsJob(RunScheduledBatchRounds rounds, BatchProperties properties) {
        return new RecurringJob("batch-rounds", properties.rounds(), () -> rounds.run(new RunScheduledBatchRounds.Command()));
    }

    @Bean
    RecurringJob batchSweepJob(SweepStuckBatches sweep, BatchProperties properties) {
        return new RecurringJob("batch-sweep", properties.sweeps(), () -> sweep.sweep(new SweepStuckBatches.Command()));
    }
}
