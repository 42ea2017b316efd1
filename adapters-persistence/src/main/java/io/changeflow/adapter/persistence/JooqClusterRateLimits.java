package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.jooq.Tables.RATE_LIMIT_BUCKET;
import static io.changeflow.adapter.persistence.jooq.Tables.RATE_LIMIT_HIT;

import io.changeflow.application.port.out.ClusterRateLimits;
import java.time.Duration;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * {@link ClusterRateLimits} as a sliding window log: one row per counted attempt. Each key's
 * bucket row is locked (by its primary key only) for the count-then-insert, so instances never
 * over-admit; times are the database clock's. Attempts past the longest window and bucket rows of keys
 * idle as long are purged by a recurring job ({@link #purgeOlderThan}, {@link #purgeIdleKeys}).
 */
final class JooqClusterRateLimits implements ClusterRateLimits {

    /**
     * Concurrent first upserts of one key, or upserts of a key whose bucket row the purge just deleted, can deadlock
     * on the row's duplicate-key and insert locks; the victim is rolled back whole and counts again.
     */
    private static final int DEADLOCK_RETRIES = 5;

    private final DSLContext dsl;

    JooqClusterRateLimits(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Decision tryAcquire(String key, int limit, Duration window) {
        if (limit < 1) {
            throw new IllegalArgumentException("a limit is at least 1 (callers skip limiting for anything else)");
        }
        return Sql.retryingDeadlocks(DEADLOCK_RETRIES, () -> dsl.transactionResult(tx -> {
            var ctx = tx.dsl();
            // plain SQL: jOOQ's MySQL rendering adds a row alias ("values (?) as excluded") that MariaDB rejects
            ctx.execute("insert into {0} ({1}) values ({2}) on duplicate key update {1} = {1}",
                    RATE_LIMIT_BUCKET, RATE_LIMIT_BUCKET.LIMIT_KEY.getUnqualifiedName(), DSL.val(key));
            var since = Sql.ago(window);
            var counted = ctx.select(DSL.count(), DSL.min(RATE_LIMIT_HIT.HIT_AT), now())
                    .from(RATE_LIMIT_HIT)
                    .where(RATE_LIMIT_HIT.LIMIT_KEY.eq(key)).and(RATE_LIMIT_HIT.HIT_AT.gt(since))
                    .fetchSingle();
            int count = counted.value1();
            if (count < limit) {
                ctx.insertInto(RATE_LIMIT_HIT).set(RATE_LIMIT_HIT.LIMIT_KEY, key).execute();
                return new Decision(true, Duration.ZERO, limit - count - 1);
            }
            var oldest = Sql.instant(counted.value2());
            var dbNow = Sql.instant(counted.value3());
            var retryAfter = Duration.between(dbNow, oldest.plus(window));
            return new Decision(false, retryAfter.isNegative() ? Duration.ZERO : retryAfter, 0);
        }));
    }

    @Override
    public int purgeOlderThan(Duration window, int chunkSize) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("a chunk holds at least one row");
        }
        return dsl.deleteFrom(RATE_LIMIT_HIT)
                .where(RATE_LIMIT_HIT.HIT_AT.lt(Sql.ago(window)))
                .orderBy(RATE_LIMIT_HIT.HIT_AT)
                .limit(chunkSize)
                .execute();
    }

    /**
     * Deletes bucket rows older than {@code idleFor} without an attempt in the last {@code idleFor}: first found by
     * a plain (non-locking) read, then deleted by primary key, so the purge never holds locks a
     * {@link #tryAcquire} could wait on in a cycle. A bucket row only serializes its key's count-then-insert:
     * deleting one whose key just came back is harmless (the next {@code tryAcquire} inserts it again and
     * concurrent ones still serialize on that row, a {@code tryAcquire} in progress holds its lock so the delete
     * waits for it), and a row inserted again since the read is younger than the cutoff, so it stays.
     */
    @Override
    public int purgeIdleKeys(Duration idleFor, int chunkSize) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("a chunk holds at least one row");
        }
        var cutoff = Sql.ago(idleFor);
        var idle = dsl.select(RATE_LIMIT_BUCKET.LIMIT_KEY).from(RATE_LIMIT_BUCKET)
                .where(RATE_LIMIT_BUCKET.CREATED_AT.lt(cutoff))
                .andNotExists(DSL.selectOne().from(RATE_LIMIT_HIT)
                        .where(RATE_LIMIT_HIT.LIMIT_KEY.eq(RATE_LIMIT_BUCKET.LIMIT_KEY))
                        .and(RATE_LIMIT_HIT.HIT_AT.ge(cutoff)))
                .limit(chunkSize)
                .fetch(RATE_LIMIT_BUCKET.LIMIT_KEY);
        if (idle.isEmpty()) {
            return 0;
        }
        return dsl.deleteFrom(RATE_LIMIT_BUCKET)
                .where(RATE_LIMIT_BUCKET.LIMIT_KEY.in(idle))
                .and(RATE_LIMIT_BUCKET.CREATED_AT.lt(cutoff))
                .execute();
    }
}
