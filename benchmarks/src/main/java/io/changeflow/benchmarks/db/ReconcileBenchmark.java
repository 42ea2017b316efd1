package io.changeflow.benchmarks.db;

import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.benchmarks.support.Args;
import io.changeflow.benchmarks.support.CpuWatch;
import io.changeflow.benchmarks.support.Machine;
import io.changeflow.benchmarks.support.Mains;
import io.changeflow.benchmarks.support.NoMetrics;
import io.changeflow.benchmarks.support.PersistenceHarness;
import io.changeflow.domain.reconcile.Matching;
import io.changeflow.domain.reconcile.ReconciliationMatching;
import java.time.Clock;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Benchmark 5, reconciliation ({@link ReconcileMergedRequests}, design 3.7) over {@code records}
 * merged requests whose deploy reports were lost, on the jOOQ-backed ports and a real database
 * (test-support's server: {@code DB_URL}, else an embedded MariaDB), rows generated in bulk:
 * <ol>
 *   <li>nothing to advance (no deploy report at all): one run over every record (the read path);</li>
 *   <li>one "in effect" report per project whose merge request number is the largest, so by the
 *       watermark every record advances: first one scheduled-size run (limit 500, the default), then
 *       one run over all the rest.</li>
 * </ol>
 * Each run's time and its statements (a jOOQ listener on the calling thread, grouped by kind).
 * Window: the product defaults (records written 10 min to 24 h ago; the rows are 1 h old).
 *
 * <p>Run: {@code benchmarks/scripts/reconcile.sh} (or {@code java -cp benchmarks/target/benchmarks.jar
 * io.changeflow.benchmarks.db.ReconcileBenchmark --records=100000}).
 */
public final class ReconcileBenchmark {

    private ReconcileBenchmark() {
    }

    public static void main(String[] argv) {
        Mains.runAndExit(ReconcileBenchmark::run, argv);
    }

    private static void run(String[] argv) {
        var args = new Args(argv);
        var records = args.integer("records", 100_000);
        var projects = args.integer("projects", 10);
        System.out.println(Machine.describe());
        System.out.println(Machine.load());
        try (var persistence = PersistenceHarness.open("reconcile_bench", 4)) {
            System.out.println(persistence.describe());
            var t0 = System.nanoTime();
            BulkRows.merged(persistence.dsl(), records, projects, 60);
            System.out.printf(Locale.ROOT, "filled %,d merged records in %d projects in %.1f s (not measured)%n", records, projects,
                    (System.nanoTime() - t0) / 1e9);
            persistence.dsl().execute("ANALYZE TABLE operation, binding, deploy_callback, deploy_callback_operation");

            var metrics = new NoMetrics();
            // watermark matching (exact matching would infer nothing from these reports without operation IDs)
            var reconcile = new ReconcileMergedRequests(persistence.operations(), persistence.callbackInbox(),
                    persistence.scanCursors(), new MarkDeployed(persistence.operations(), metrics), persistence.auditLog(),
                    ReconcileMergedRequests.Policy.defaults().withMatching(ReconciliationMatching.everywhere(Matching.WATERMARK)),
                    Clock.systemUTC());

            // JIT and buffer pool warm-up on a read-only run of the default size
            reconcile.reconcile(new ReconcileMergedRequests.Command(Optional.empty(), ReconcileMergedRequests.DEFAULT_LIMIT));

            run(persistence, reconcile, "nothing to advance (no deploy report), one run over all", records);
            BulkRows.watermarks(persistence.dsl(), records, projects);
            run(persistence, reconcile, "every record advances by the watermark, scheduled run (limit 500)",
                    ReconcileMergedRequests.DEFAULT_LIMIT);
            run(persistence, reconcile, "every record advances by the watermark, one run over the rest", records);
            run(persistence, reconcile, "after: nothing left", records);
        }
        System.out.println(Machine.load());
    }

    private static void run(PersistenceHarness persistence, ReconcileMergedRequests reconcile, String label, int limit) {
        var counter = persistence.statements();
        try {
            CpuWatch.awaitQuiet(Set.of(), CpuWatch.quietWaitSeconds());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        var watch = CpuWatch.start(Set.of());
        counter.start();
        var t0 = System.nanoTime();
        var result = reconcile.reconcile(new ReconcileMergedRequests.Command(Optional.empty(), limit));
        var seconds = (System.nanoTime() - t0) / 1e9;
        var statements = counter.stop();
        var usage = watch.stop();
        System.out.printf(Locale.ROOT, "%s (limit %,d): examined %,d, advanced %,d in %.2f s (%.3f ms per examined record); "
                        + "%,d statements (%.2f per examined record)%n", label, limit, result.examined(), result.advanced(), seconds,
                result.examined() == 0 ? 0 : seconds * 1000 / result.examined(), statements.total(),
                result.examined() == 0 ? 0 : statements.total() / (double) result.examined());
        System.out.println("  statements by kind: " + statements.byKind());
        System.out.println("  " + Machine.load() + ", " + usage);
    }
}
