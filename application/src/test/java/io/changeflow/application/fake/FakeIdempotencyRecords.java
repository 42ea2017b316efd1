package io.changeflow.application.fake;

import io.changeflow.application.port.out.IdempotencyRecords;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@link IdempotencyRecords} in memory: a record stays (expired or not) until purged, like a row
 * under a unique key. {@link #answerRetryLaterOnce()} simulates "the insert conflicted but the winner
 * vanished before it could be read".
 */
public final class FakeIdempotencyRecords implements IdempotencyRecords {

    /** One stored record. */
    public record Record(String fingerprint, Optional<String> outcome, Instant expiresAt, Instant claimedAt) {}

    private final Clock clock;
    private final Map<String, Record> records = new LinkedHashMap<>();
    private boolean retryLaterOnce;
    private int completions;
    private volatile Runnable afterFreshClaim = () -> { };

    public FakeIdempotencyRecords(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Claim checkOrInsert(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter) {
        var claim = claim(key, fingerprint, timeToLive, abandonedAfter);
        if (claim instanceof Claim.Fresh) {
            afterFreshClaim.run();
        }
        return claim;
    }

    private synchronized Claim claim(String key, String fingerprint, Duration timeToLive, Duration abandonedAfter) {
        if (retryLaterOnce) {
            retryLaterOnce = false;
            return new Claim.RetryLater();
        }
        var now = clock.instant();
        var existing = records.get(key);
        if (existing != null) {
            var abandoned = existing.outcome().isEmpty() && existing.fingerprint().equals(fingerprint)
                    && !existing.claimedAt().plus(abandonedAfter).isAfter(now);
            if (!abandoned) {
                return new Claim.Existing(existing.fingerprint(), existing.outcome());
            }
        }
        records.put(key, new Record(fingerprint, Optional.empty(), now.plus(timeToLive), now));
        return new Claim.Fresh();
    }

    @Override
    public synchronized void complete(String key, String outcome) {
        completions++;
        store(key, outcome);
    }

    /** What an opening write of {@link FakeOperations} stores in its own "transaction" (not counted as a complete). */
    synchronized void storeWithOpen(String key, String outcome) {
        store(key, outcome);
    }

    private void store(String key, String outcome) {
        var existing = records.get(key);
        if (existing != null) {
            records.put(key, new Record(existing.fingerprint(), Optional.of(outcome), existing.expiresAt(), existing.claimedAt()));
        }
    }

    @Override
    public synchronized void release(String key) {
        records.remove(key);
    }

    @Override
    public synchronized int purgeExpired(int chunkSize) {
        var now = clock.instant();
        var expired = records.entrySet().stream().filter(e -> !e.getValue().expiresAt().isAfter(now))
                .limit(chunkSize).map(Map.Entry::getKey).toList();
        expired.forEach(records::remove);
        return expired.size();
    }

    public synchronized Optional<Record> record(String key) {
        return Optional.ofNullable(records.get(key));
    }

    public synchronized int size() {
        return records.size();
    }

    /** How many outcomes were stored by a separate {@link #complete} (not by the write that opened the request). */
    public synchronized int completions() {
        return completions;
    }

    /** Runs {@code hook} in the claiming thread right after a key was claimed (outside the fake's lock). */
    public void afterFreshClaim(Runnable hook) {
        afterFreshClaim = hook;
    }

    public synchronized void answerRetryLaterOnce() {
        retryLaterOnce = true;
    }
}
