package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.jooq.Tables.IDEMPOTENCY_RECORD;

import io.changeflow.application.port.out.IdempotencyRecords;
import java.time.Duration;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * {@link IdempotencyRecords} on {@code idempotency_record}: the primary key answers concurrent
 * inserts (design 3.4). Expiry is by the database clock; an expired record no longer counts, even
 * before the purge deletes it. {@code created_at} is the time of the current claim: a takeover of an
 * abandoned claim moves it.
 */
final class JooqIdempotencyRecords implements IdempotencyRecords {

    private final DSLContext dsl;

    JooqIdempotencyRecords(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Claim checkOrInsert(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter) {
        var existing = live(key);
        if (existing.isPresent()) {
            return takeOverIfAbandoned(key, fingerprint, timeToLive, abandonedAfter, existing.get());
        }
        dsl.deleteFrom(IDEMPOTENCY_RECORD).where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key))
                .and(IDEMPOTENCY_RECORD.EXPIRES_AT.le(now())).execute();
        try {
            dsl.insertInto(IDEMPOTENCY_RECORD)
                    .set(IDEMPOTENCY_RECORD.IDEM_KEY, key)
                    .set(IDEMPOTENCY_RECORD.FINGERPRINT, fingerprint)
                    .set(IDEMPOTENCY_RECORD.EXPIRES_AT, Sql.ahead(timeToLive))
                    .execute();
            return new Claim.Fresh();
        } catch (RuntimeException e) {
            if (!Sql.isDuplicateKey(e)) {
                throw e;
            }
            return live(key).orElseGet(Claim.RetryLater::new);
        }
    }

    /**
     * An in-flight claim of the same request older than {@code abandonedAfter} is claimed again by one
     * guarded UPDATE (its claim time, {@code created_at}, moves to now): of concurrent retries exactly one
     * updates the row and proceeds, the others still see a claim in flight.
     */
    private Claim takeOverIfAbandoned(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter,
                                      Claim existing) {
        if (!(existing instanceof Claim.Existing e) || e.outcome().isPresent() || !e.fingerprint().equals(fingerprint)) {
            return existing;
        }
        var taken = dsl.update(IDEMPOTENCY_RECORD)
                .set(IDEMPOTENCY_RECORD.CREATED_AT, now())
                .set(IDEMPOTENCY_RECORD.EXPIRES_AT, Sql.ahead(timeToLive))
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key))
                .and(IDEMPOTENCY_RECORD.FINGERPRINT.eq(fingerprint))
                .and(IDEMPOTENCY_RECORD.OUTCOME.isNull())
                .and(IDEMPOTENCY_RECORD.CREATED_AT.le(Sql.ago(abandonedAfter)))
                .execute();
        return taken == 1 ? new Claim.Fresh() : existing;
    }

    private Optional<Claim> live(String key) {
        return dsl.select(IDEMPOTENCY_RECORD.FINGERPRINT, IDEMPOTENCY_RECORD.OUTCOME)
                .from(IDEMPOTENCY_RECORD)
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key))
                .and(IDEMPOTENCY_RECORD.EXPIRES_AT.gt(now()))
                .fetchOptional(r -> new Claim.Existing(r.value1(), Optional.ofNullable(r.value2())));
    }

    @Override
    public void complete(String key, String outcome) {
        dsl.update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.OUTCOME, outcome)
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key)).execute();
    }

    @Override
    public void release(String key) {
        dsl.deleteFrom(IDEMPOTENCY_RECORD).where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key)).execute();
    }

    @Override
    public int purgeExpired(int chunkSize) {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("a chunk holds at least one record");
        }
        return dsl.deleteFrom(IDEMPOTENCY_RECORD)
                .where(IDEMPOTENCY_RECORD.EXPIRES_AT.lt(now()))
                .orderBy(IDEMPOTENCY_RECORD.EXPIRES_AT)
                .limit(chunkSize)
                .execute();
    }
}
