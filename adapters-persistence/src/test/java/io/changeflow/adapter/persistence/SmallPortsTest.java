package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Fixtures.race;
import static io.changeflow.adapter.persistence.jooq.Tables.CALLBACK_DELIVERY;
import static io.changeflow.adapter.persistence.jooq.Tables.DEPLOY_CALLBACK;
import static io.changeflow.adapter.persistence.jooq.Tables.IDEMPOTENCY_RECORD;
import static io.changeflow.adapter.persistence.jooq.Tables.RATE_LIMIT_BUCKET;
import static io.changeflow.adapter.persistence.jooq.Tables.RATE_LIMIT_HIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ClusterRateLimits.Decision;
import io.changeflow.application.port.out.IdempotencyRecords.Claim;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Idempotency records, callback inbox, audit log and cluster rate limits on the real database. */
class SmallPortsTest {

    @RegisterExtension
    static final Persistence persistence = Persistence.onFreshSchema(40);

    @RegisterExtension
    static final RacerThreads pool = RacerThreads.of(32);

    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void concurrentIdempotencyClaimsLetOneProceedAndShowTheWinnerToTheRest() {
        var records = persistence.idempotencyRecords();
        for (int round = 0; round < Fixtures.rounds(); round++) {
            var key = Fixtures.unique("idem");
            var racers = new ArrayList<Callable<Claim>>();
            for (int i = 0; i < 32; i++) {
                racers.add(() -> records.checkOrInsert(key, "fp", Duration.ofHours(1), LEASE));
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            assertThat(outcomes).filteredOn(o -> o.value() instanceof Claim.Fresh).hasSize(1);
            assertThat(outcomes).filteredOn(o -> o.value() instanceof Claim.Existing)
                    .allMatch(o -> ((Claim.Existing) o.value()).fingerprint().equals("fp"));
        }
    }

    @Test
    void anAbandonedClaimIsTakenOverByExactlyOneRetryOfTheSameRequest() {
        var records = persistence.idempotencyRecords();
        var dsl = persistence.dsl();
        for (int round = 0; round < Fixtures.rounds(); round++) {
            var key = Fixtures.unique("abandoned");
            assertThat(records.checkOrInsert(key, "fp", Duration.ofHours(1), LEASE)).isInstanceOf(Claim.Fresh.class);
            assertThat(records.checkOrInsert(key, "fp", Duration.ofHours(1), LEASE)).as("a fresh claim is in flight")
                    .isEqualTo(new Claim.Existing("fp", Optional.empty()));
            // the claiming instance died: its claim ages past the lease without an outcome
            dsl.update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.CREATED_AT, Sql.ago(LEASE.plusSeconds(1)))
                    .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key)).execute();
            assertThat(records.checkOrInsert(key, "other", Duration.ofHours(1), LEASE)).as("another payload never takes over")
                    .isEqualTo(new Claim.Existing("fp", Optional.empty()));
            var racers = new ArrayList<Callable<Claim>>();
            for (int i = 0; i < 16; i++) {
                racers.add(() -> records.checkOrInsert(key, "fp", Duration.ofHours(1), LEASE));
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            assertThat(outcomes).filteredOn(o -> o.value() instanceof Claim.Fresh).as("one retry takes over").hasSize(1);
            assertThat(outcomes).filteredOn(o -> o.value() instanceof Claim.Existing).hasSize(15);
        }
        var answered = Fixtures.unique("answered");
        records.checkOrInsert(answered, "fp", Duration.ofHours(1), LEASE);
        records.complete(answered, "ACCEPTED");
        dsl.update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.CREATED_AT, Sql.ago(LEASE.plusSeconds(1)))
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(answered)).execute();
        assertThat(records.checkOrInsert(answered, "fp", Duration.ofHours(1), LEASE)).as("an answered key replays, however old")
                .isEqualTo(new Claim.Existing("fp", Optional.of("ACCEPTED")));
    }

    /**
     * Issue 15: the claim is insert-first. A new key (every first submission) costs one statement (it was a read, a
     * delete of an expired record and the insert); a key already there costs the refused insert and one read (it was
     * one read); an expired one the refused insert, the read and the guarded replacement (it was three as well).
     */
    @Test
    void aNewIdempotencyKeyIsClaimedInOneStatement() {
        var records = persistence.idempotencyRecords();
        var recorder = persistence.statements();
        var key = Fixtures.unique("one");

        recorder.start();
        assertThat(records.checkOrInsert(key, "fp", Duration.ofHours(1), LEASE)).isInstanceOf(Claim.Fresh.class);
        var fresh = recorder.stop();
        recorder.start();
        assertThat(records.checkOrInsert(key, "fp", Duration.ofHours(1), LEASE)).isEqualTo(new Claim.Existing("fp", Optional.empty()));
        var duplicate = recorder.stop();
        persistence.dsl().update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.EXPIRES_AT, Sql.ago(Duration.ofSeconds(1)))
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key)).execute();
        recorder.start();
        assertThat(records.checkOrInsert(key, "new", Duration.ofHours(1), LEASE)).isInstanceOf(Claim.Fresh.class);
        var expired = recorder.stop();

        assertThat(fresh).hasSize(1).allSatisfy(sql -> assertThat(sql).startsWith("insert"));
        assertThat(duplicate).hasSize(2);
        assertThat(expired).hasSize(3);
        assertThat(expired.get(2)).startsWith("update");
        assertThat(records.checkOrInsert(key, "other", Duration.ofHours(1), LEASE))
                .isEqualTo(new Claim.Existing("new", Optional.empty()));
    }

    @Test
    void idempotencyRecordsReplayTheirOutcomeExpireAndArePurgedInChunks() {
        var records = persistence.idempotencyRecords();
        var dsl = persistence.dsl();
        var key = Fixtures.unique("k");
        assertThat(records.checkOrInsert(key, "a", Duration.ofHours(1), LEASE)).isInstanceOf(Claim.Fresh.class);
        assertThat(records.checkOrInsert(key, "b", Duration.ofHours(1), LEASE)).isEqualTo(new Claim.Existing("a", Optional.empty()));
        records.complete(key, "{\"code\":\"ACCEPTED\"}");
        assertThat(records.checkOrInsert(key, "a", Duration.ofHours(1), LEASE))
                .isEqualTo(new Claim.Existing("a", Optional.of("{\"code\":\"ACCEPTED\"}")));
        records.release(key);
        assertThat(records.checkOrInsert(key, "c", Duration.ofHours(1), LEASE)).isInstanceOf(Claim.Fresh.class);

        dsl.update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.EXPIRES_AT, Sql.ago(Duration.ofSeconds(1)))
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.eq(key)).execute();
        assertThat(records.checkOrInsert(key, "d", Duration.ofHours(1), LEASE)).as("expired no longer counts")
                .isInstanceOf(Claim.Fresh.class);

        dsl.deleteFrom(IDEMPOTENCY_RECORD).execute();
        for (int i = 0; i < 25; i++) {
            records.checkOrInsert("old" + i, "f", Duration.ofHours(1), LEASE);
        }
        // expired a second ago by the database clock: a time to live of zero would expire at the very millisecond
        // of the insert, and a purge within that millisecond (`expires_at < now`) would rightly keep it
        dsl.update(IDEMPOTENCY_RECORD).set(IDEMPOTENCY_RECORD.EXPIRES_AT, Sql.ago(Duration.ofSeconds(1)))
                .where(IDEMPOTENCY_RECORD.IDEM_KEY.like("old%")).execute();
        records.checkOrInsert("live", "f", Duration.ofHours(1), LEASE);
        var purged = new ArrayList<Integer>();
        int n;
        do {
            n = records.purgeExpired(10);
            purged.add(n);
        } while (n == 10);
        assertThat(purged).containsExactly(10, 10, 5);
        assertThat(dsl.fetchCount(IDEMPOTENCY_RECORD)).isEqualTo(1);
    }

    @Test
    void gitLabDeliveriesPastTheirRetentionAreForgottenOldestFirstInChunksAndOtherSourcesKept() {
        var inbox = persistence.callbackInbox();
        var dsl = persistence.dsl();
        var source = Fixtures.unique("gitlab");
        var old = List.of(Fixtures.unique("k"), Fixtures.unique("k"), Fixtures.unique("k"));
        old.forEach(key -> assertThat(inbox.firstDelivery(source, key)).isTrue());
        var recent = Fixtures.unique("k");
        assertThat(inbox.firstDelivery(source, recent)).isTrue();
        var approval = Fixtures.unique("k");
        assertThat(inbox.firstDelivery("approval", approval)).isTrue();
        dsl.update(CALLBACK_DELIVERY).set(CALLBACK_DELIVERY.CREATED_AT, CALLBACK_DELIVERY.CREATED_AT.minus(8))
                .where(CALLBACK_DELIVERY.DELIVERY_ID.in(old).or(CALLBACK_DELIVERY.DELIVERY_ID.eq(approval))).execute();

        assertThat(inbox.forgetDeliveries(source, Duration.ofDays(7), 2)).isEqualTo(2);
        assertThat(inbox.forgetDeliveries(source, Duration.ofDays(7), 2)).isEqualTo(1);
        assertThat(inbox.forgetDeliveries(source, Duration.ofDays(7), 2)).isZero();

        old.forEach(key -> assertThat(inbox.firstDelivery(source, key)).as("forgotten: a repeat is new again").isTrue());
        assertThat(inbox.firstDelivery(source, recent)).as("kept").isFalse();
        assertThat(inbox.firstDelivery("approval", approval)).as("another source is kept").isFalse();
    }

    @Test
    void callbackDeliveriesAreDeduplicatedAndDeployReportsAreIdempotent() {
        var inbox = persistence.callbackInbox();
        var delivery = Fixtures.unique("req");
        assertThat(inbox.firstDelivery("approval", delivery)).isTrue();
        assertThat(inbox.firstDelivery("approval", delivery)).isFalse();
        assertThat(inbox.firstDelivery("deploy", delivery)).as("per source").isTrue();
        inbox.forget("approval", delivery);
        assertThat(inbox.firstDelivery("approval", delivery)).isTrue();

        var project = Fixtures.unique("group/app");
        var named = List.of(Fixtures.newId(), Fixtures.newId());
        assertThat(inbox.largestDeployedIid(project)).isEmpty();
        inbox.recordDeploy(Fixtures.unique("d"), project, 12, "success", named);
        var dup = Fixtures.unique("d");
        inbox.recordDeploy(dup, project, 30, "success", List.of());
        inbox.recordDeploy(dup, project, 99, "success", List.of());
        inbox.recordDeploy(Fixtures.unique("d"), project, 7, "success", List.of());
        assertThat(inbox.largestDeployedIid(project)).hasValue(30);
        var other = Fixtures.newId();
        assertThat(inbox.deployedOperations(List.of(named.getFirst(), named.get(1), other)))
                .containsExactlyInAnyOrderElementsOf(named);
    }

    @Test
    void onlyInEffectReportsRaiseTheDeployWatermarkOrNameOperationsDeployedTheOthersAreKeptForTheRecord() {
        var inbox = persistence.callbackInbox();
        var dsl = persistence.dsl();
        var project = Fixtures.unique("group/watermark");
        var namedByFailure = Fixtures.newId();
        var namedBySuccess = Fixtures.newId();

        inbox.recordDeploy(Fixtures.unique("d"), project, 50, "failed", List.of(namedByFailure));
        assertThat(inbox.largestDeployedIid(project)).as("a failed deploy is no watermark").isEmpty();
        inbox.recordDeploy(Fixtures.unique("d"), project, 12, CallbackInbox.IN_EFFECT, List.of(namedBySuccess));
        inbox.recordDeploy(Fixtures.unique("d"), project, 99, "canceled", List.of());
        inbox.recordDeploy(Fixtures.unique("d"), project, 98, "SUCCESS", List.of());
        var cut = "x".repeat(JooqCallbackInbox.STATUS_LENGTH - 1) + "\uD83D\uDE00";
        var longStatus = cut + " and more";
        inbox.recordDeploy(Fixtures.unique("d"), project, 97, longStatus, List.of());

        assertThat(inbox.largestDeployedIid(project)).hasValue(12);
        assertThat(inbox.deployedOperations(List.of(namedByFailure, namedBySuccess))).containsExactly(namedBySuccess);
        assertThat(dsl.fetch(DEPLOY_CALLBACK, DEPLOY_CALLBACK.PROJECT.eq(project)).map(r -> r.getStatus()))
                .as("every report is stored with its status").containsExactlyInAnyOrder("failed", "success", "canceled",
                        "SUCCESS", cut);
    }

    @Test
    void auditEntriesAreRecordedOnceAndNeverOverwritten() {
        var audit = persistence.auditLog();
        var subject = Fixtures.newId().value();
        var at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        var first = new AuditLog.Entry("retrigger-1", "otto", "RETRIGGER", subject,
                Map.of("step", "HANDLE", "note", "a=b&c d"), at);
        audit.record(first);
        audit.record(new AuditLog.Entry("retrigger-1", "mallory", "SETTLE", subject, Map.of(), at.plusSeconds(5)));
        audit.record(new AuditLog.Entry("retrigger-2", "otto", "SETTLE", subject, Map.of(), at.plusSeconds(9)));
        var entries = audit.about(subject);
        assertThat(entries).hasSize(2);
        assertThat(entries.getFirst()).isEqualTo(first);
    }

    @Test
    void theClusterRateLimitNeverAdmitsMoreThanItsLimitAcrossConcurrentCallers() {
        var limits = persistence.clusterRateLimits();
        for (int round = 0; round < Math.max(5, Fixtures.rounds() / 5); round++) {
            var key = Fixtures.unique("apply:alice");
            var racers = new ArrayList<Callable<Decision>>();
            for (int i = 0; i < 24; i++) {
                racers.add(() -> limits.tryAcquire(key, 5, Duration.ofMinutes(1)));
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            assertThat(outcomes).filteredOn(o -> o.value().allowed()).hasSize(5);
            assertThat(outcomes).filteredOn(o -> !o.value().allowed()).allSatisfy(o -> {
                assertThat(o.value().retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1));
                assertThat(o.value().remaining()).isZero();
            });
        }
        var key = Fixtures.unique("window");
        assertThat(limits.tryAcquire(key, 2, Duration.ofMinutes(1)).remaining()).isEqualTo(1);
        persistence.dsl().update(RATE_LIMIT_HIT).set(RATE_LIMIT_HIT.HIT_AT, Sql.ago(Duration.ofMinutes(2)))
                .where(RATE_LIMIT_HIT.LIMIT_KEY.eq(key)).execute();
        assertThat(limits.tryAcquire(key, 2, Duration.ofMinutes(1)).remaining()).as("old hits left the window").isEqualTo(1);
        assertThat(limits.purgeOlderThan(Duration.ofMinutes(1), 1000)).isGreaterThanOrEqualTo(1);
    }

    @Test
    void rateLimitKeysIdleForTheWholeHistoryArePurgedAndComeBackWhenUsedAgain() {
        var limits = persistence.clusterRateLimits();
        var idle = Fixtures.unique("idle");
        var active = Fixtures.unique("active");
        var young = Fixtures.unique("young");
        limits.tryAcquire(idle, 2, Duration.ofMinutes(1));
        limits.tryAcquire(active, 2, Duration.ofMinutes(1));
        limits.tryAcquire(young, 2, Duration.ofMinutes(1));
        // idle: created and last used two hours ago; active: created two hours ago, used just now
        persistence.dsl().update(RATE_LIMIT_BUCKET).set(RATE_LIMIT_BUCKET.CREATED_AT, Sql.ago(Duration.ofHours(2)))
                .where(RATE_LIMIT_BUCKET.LIMIT_KEY.in(idle, active)).execute();
        persistence.dsl().update(RATE_LIMIT_HIT).set(RATE_LIMIT_HIT.HIT_AT, Sql.ago(Duration.ofHours(2)))
                .where(RATE_LIMIT_HIT.LIMIT_KEY.eq(idle)).execute();

        while (limits.purgeIdleKeys(Duration.ofHours(1), 1) == 1) {
            // one key per chunk, until a chunk comes back short
        }

        assertThat(bucketKeys(idle, active, young)).containsExactlyInAnyOrder(active, young);
        assertThat(limits.tryAcquire(idle, 2, Duration.ofMinutes(1)).allowed()).as("a purged key is simply new").isTrue();
        assertThat(bucketKeys(idle)).containsExactly(idle);
        assertThatThrownBy(() -> limits.purgeIdleKeys(Duration.ofHours(1), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void purgingIdleRateLimitKeysWhileTheyAreUsedNeverAdmitsMoreThanTheLimit() {
        var limits = persistence.clusterRateLimits();
        for (int round = 0; round < Math.max(3, Fixtures.rounds() / 10); round++) {
            var key = Fixtures.unique("purged-while-used");
            limits.tryAcquire(key, 5, Duration.ofMinutes(1));
            // the key looks idle to the purge: its row and its attempt are two hours old
            persistence.dsl().update(RATE_LIMIT_BUCKET).set(RATE_LIMIT_BUCKET.CREATED_AT, Sql.ago(Duration.ofHours(2)))
                    .where(RATE_LIMIT_BUCKET.LIMIT_KEY.eq(key)).execute();
            persistence.dsl().update(RATE_LIMIT_HIT).set(RATE_LIMIT_HIT.HIT_AT, Sql.ago(Duration.ofHours(2)))
                    .where(RATE_LIMIT_HIT.LIMIT_KEY.eq(key)).execute();
            var racers = new ArrayList<Callable<Decision>>();
            for (int i = 0; i < 24; i++) {
                racers.add(() -> limits.tryAcquire(key, 5, Duration.ofMinutes(1)));
                if (i % 6 == 0) {
                    racers.add(() -> {
                        limits.purgeIdleKeys(Duration.ofHours(1), 1000);
                        return new Decision(false, Duration.ZERO, -1);
                    });
                }
            }
            var outcomes = race(pool, racers);
            assertThat(outcomes).noneMatch(Fixtures.Outcome::failed);
            assertThat(outcomes).filteredOn(o -> o.value().allowed()).hasSize(5);
        }
    }

    private List<String> bucketKeys(String... keys) {
        return persistence.dsl().select(RATE_LIMIT_BUCKET.LIMIT_KEY).from(RATE_LIMIT_BUCKET)
                .where(RATE_LIMIT_BUCKET.LIMIT_KEY.in(keys)).fetch(RATE_LIMIT_BUCKET.LIMIT_KEY);
    }
}
