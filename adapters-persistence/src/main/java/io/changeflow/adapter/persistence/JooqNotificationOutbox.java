package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.truncate;
import static io.changeflow.adapter.persistence.jooq.Tables.BINDING_HISTORY;
import static io.changeflow.adapter.persistence.jooq.Tables.NOTIFICATION;

import io.changeflow.application.port.out.NotificationOutbox;
import io.changeflow.application.port.out.NotificationOutbox.State;
import io.changeflow.application.port.out.Notifications.Channel;
import io.changeflow.application.port.out.Notifications.Message;
import io.changeflow.domain.request.OperationId;
import io.changeflow.domain.state.BindingStatus;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.changeflow.adapter.persistence.jooq.tables.records.NotificationRecord;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * {@link NotificationOutbox} on {@code notification} (V17) and the append-only {@code binding_history} (V1), which
 * every state write appends to in its own transaction: the changes are read by primary-key range after the scan's
 * position, and the messages are inserted with {@code INSERT IGNORE} on the unique dedup key.
 */
final class JooqNotificationOutbox implements NotificationOutbox {

    private static final List<String> OPENINGS = List.of("APPLIED", "REAPPLIED");

    private final DSLContext dsl;

    JooqNotificationOutbox(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public List<StatusChange> changesAfter(long position, Set<BindingStatus> statuses, Duration settle, int limit) {
        var settled = DSL.field(BINDING_HISTORY.CREATED_AT.lt(Sql.ago(settle))).as("settled");
        var opening = BINDING_HISTORY.OUTCOME.in(OPENINGS)
                .and(BINDING_HISTORY.EVENT.ne(WorkflowEvent.RENEWAL_FELL_THROUGH.name()));
        var change = BINDING_HISTORY.OUTCOME.eq("CHANGED")
                .and(BINDING_HISTORY.TO_STATUS.in(statuses.stream().map(Enum::name).toList()));
        return dsl.select(BINDING_HISTORY.ID, BINDING_HISTORY.OPERATION_ID, BINDING_HISTORY.TO_STATUS,
                        BINDING_HISTORY.OUTCOME, BINDING_HISTORY.EVENT, settled)
                .from(BINDING_HISTORY)
                .where(BINDING_HISTORY.ID.gt(position))
                .and(BINDING_HISTORY.TO_STATUS.isNotNull())
                .and(opening.or(change))
                .orderBy(BINDING_HISTORY.ID)
                .limit(limit)
                .fetch(r -> new StatusChange(r.get(BINDING_HISTORY.ID), OperationId.of(r.get(BINDING_HISTORY.OPERATION_ID)),
                        BindingStatus.valueOf(r.get(BINDING_HISTORY.TO_STATUS)),
                        OPENINGS.contains(r.get(BINDING_HISTORY.OUTCOME)), Boolean.TRUE.equals(r.get(settled))));
    }

    @Override
    public long latestPosition() {
        var max = dsl.select(DSL.max(BINDING_HISTORY.ID)).from(BINDING_HISTORY).fetchOne(0, Long.class);
        return max == null ? 0 : max;
    }

    @Override
    public int enqueue(List<Queued> messages) {
        if (messages.isEmpty()) {
            return 0;
        }
        var insert = dsl.insertInto(NOTIFICATION, NOTIFICATION.DEDUP_KEY, NOTIFICATION.CHANNEL, NOTIFICATION.RECIPIENT,
                NOTIFICATION.TITLE, NOTIFICATION.BODY, NOTIFICATION.LINK);
        for (var q : messages) {
            var m = q.message();
            insert = insert.values(q.key(), m.channel().name(), truncate(m.recipient(), 255), truncate(m.title(), 255),
                    truncate(m.text(), 2000), truncate(m.link(), 1024));
        }
        return insert.onDuplicateKeyIgnore().execute();
    }

    @Override
    public List<Pending> due(Instant now, int maxAttempts, int limit) {
        return dsl.selectFrom(NOTIFICATION)
                .where(NOTIFICATION.SENT_AT.isNull())
                .and(NOTIFICATION.NEXT_ATTEMPT.le(Sql.utcValue(now)))
                .and(NOTIFICATION.ATTEMPTS.lt(maxAttempts))
                .orderBy(NOTIFICATION.NEXT_ATTEMPT, NOTIFICATION.ID)
                .limit(limit)
                .fetch(JooqNotificationOutbox::pending);
    }

    @Override
    public boolean sent(long id, Instant at) {
        return dsl.update(NOTIFICATION).set(NOTIFICATION.SENT_AT, Sql.utcValue(at))
                .where(NOTIFICATION.ID.eq(id)).and(NOTIFICATION.SENT_AT.isNull()).execute() == 1;
    }

    @Override
    public void failed(long id, Instant retryAt, String error) {
        dsl.update(NOTIFICATION)
                .set(NOTIFICATION.ATTEMPTS, NOTIFICATION.ATTEMPTS.plus(1))
                .set(NOTIFICATION.NEXT_ATTEMPT, Sql.utcValue(retryAt))
                .set(NOTIFICATION.LAST_ERROR, truncate(error, 500))
                .where(NOTIFICATION.ID.eq(id)).and(NOTIFICATION.SENT_AT.isNull())
                .execute();
    }

    @Override
    public List<Listed> list(Query query) {
        var where = query.state().map(state -> inState(state, query.maxAttempts())).orElse(DSL.noCondition());
        if (query.before().isPresent()) {
            where = where.and(NOTIFICATION.ID.lt(query.before().getAsLong()));
        }
        return dsl.selectFrom(NOTIFICATION).where(where).orderBy(NOTIFICATION.ID.desc()).limit(query.limit())
                .fetch(r -> new Listed(r.getId(), r.getDedupKey(), message(r), r.getAttempts(), Sql.instant(r.getNextAttempt()),
                        Optional.ofNullable(r.getLastError()), Optional.ofNullable(r.getSentAt()).map(Sql::instant),
                        Sql.instant(r.getCreatedAt())));
    }

    /** The rows of a state: the unsent ones through the index on {@code sent_at}, the sent ones by the primary key. */
    private static Condition inState(State state, int maxAttempts) {
        return switch (state) {
            case SENT -> NOTIFICATION.SENT_AT.isNotNull();
            case PENDING -> NOTIFICATION.SENT_AT.isNull().and(NOTIFICATION.ATTEMPTS.eq(0));
            case RETRYING -> NOTIFICATION.SENT_AT.isNull().and(NOTIFICATION.ATTEMPTS.gt(0))
                    .and(NOTIFICATION.ATTEMPTS.lt(maxAttempts));
            case GAVE_UP -> NOTIFICATION.SENT_AT.isNull().and(NOTIFICATION.ATTEMPTS.ge(maxAttempts));
        };
    }

    @Override
    public Map<State, Long> countUnsent(int maxAttempts) {
        var counts = new EnumMap<State, Long>(State.class);
        dsl.select(NOTIFICATION.ATTEMPTS, DSL.count()).from(NOTIFICATION).where(NOTIFICATION.SENT_AT.isNull())
                .groupBy(NOTIFICATION.ATTEMPTS)
                .forEach(r -> counts.merge(State.of(false, r.value1(), maxAttempts), (long) r.value2(), Long::sum));
        return counts;
    }

    private static Message message(NotificationRecord row) {
        return new Message(Channel.valueOf(row.getChannel()), row.getRecipient(), row.getTitle(), row.getBody(), row.getLink());
    }

    private static Pending pending(Record r) {
        var row = r.into(NOTIFICATION);
        return new Pending(row.getId(), row.getDedupKey(), message(row), row.getAttempts());
    }
}
