package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.jooq.Tables.IDEMPOTENCY_RECORD;

import io.changeflow.application.port.out.IdempotencyRecords;
import java.time.Duration;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

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

    /**
     * Insert first (issue 15): a new key, the common case of every submission, costs this one statement (it was a
     * read, a delete of an expired record and the insert). Only when the key exists does one read follow: a live
     * record is the answer (or, abandoned, taken over); an expired one is replaced in place by one guarded UPDATE
     * (pinned to "still expired", so of concurrent claims of an expired key exactly one replaces it and the others
     * see its claim in flight).
     */
    @Override
    public Claim checkOrInsert(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter) {
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
        }
        var stored = read(key, abandonedAfter);
        if (stored.isEmpty()) {
            return new Claim.RetryLater(); // released between the insert and the read
        }
        if (stored.get().live()) {
            return stored.get().abandoned()
                    ? takeOverIfAbandoned(key, fingerprint, timeToLive, abandonedAfter, stored.get().claim())
                    : stored.get().claim();
        }
        var replaced = dsl.update(IDEMPOTENCY_RECORD)
                .set(IDEMPOTENCY_RECORD.FINGERPRINT, fingerprint)
                .setNull(IDEMPOTENCY_RECORD.OUTCOME)
                .set(IDEMPOTENCY_RECORD.CREATED_AT, now())
                .set(IDEMPOTENCY_RECORD.EXPIRES_AT, Sql.ahead(timeToLive))
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key))
                .and(IDEMPOTENCY_RECORD.EXPIRES_AT.le(now()))
                .execute();
        if (replaced == 1) {
            return new Claim.Fresh();
        }
        // another claim replaced (or released) it first: its record is the answer
        return read(key, abandonedAfter).filter(Stored::live).<Claim>map(Stored::claim).orElseGet(Claim.RetryLater::new);
    }

    /**
     * The stored record, whether it is still live by the database clock, and whether it was claimed at least
     * {@code abandonedAfter} ago (only then can it be an abandoned claim worth the guarded takeover).
     */
    private record Stored(Claim.Existing claim, boolean live, boolean abandoned) {}

    private Optional<Stored> read(String key, Duration abandonedAfter) {
        var live = DSL.field(IDEMPOTENCY_RECORD.EXPIRES_AT.gt(now())).as("live");
        var old = DSL.field(IDEMPOTENCY_RECORD.CREATED_AT.le(Sql.ago(abandonedAfter))).as("old");
        return dsl.select(IDEMPOTENCY_RECORD.FINGERPRINT, IDEMPOTENCY_RECORD.OUTCOME, live, old)
                .from(IDEMPOTENCY_RECORD)
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key))
                .fetchOptional(r -> new Stored(new Claim.Existing(r.value1(), Optional.ofNullable(r.value2())),
                        Boolean.TRUE.equals(r.value3()), Boolean.TRUE.equals(r.value4())));
    }

    /**
     * An in-flight claim of the same request older than {@code abandonedAfter} is claimed again by one
     * guarded UPDATE (its claim time, {@code created_at}, moves to now): of concurrent retries exactly one
     * updates the row and proceeds, the others still see a claim in flight.
     */
    private Claim takeOverIfAbandoned(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter,
                                      Claim.Existing existing) {
        if (existing.outcome().isPresent() || !existing.fingerprint().equals(fingerprint)) {
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

    @Override
    public void complete(String key, String outcome) {
        complete(dsl, key, outcome);
    }

    /** {@link #complete} on {@code ctx}: inside a caller's transaction, the opening one of an admission (issue 33). */
    static void complete(DSLContext ctx, String key, String outcome) {
        ctx.update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.OUTCOME, outcome)
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
