package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.ago;
import static io.changeflow.adapter.persistence.Sql.instant;
import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.jooq.Tables.SERVICE_INSTANCE;

import io.changeflow.application.port.out.Instances;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;

/** {@link Instances} on {@code service_instance} (V14): one row per instance, every time the database clock's. */
final class JooqInstances implements Instances {

    private final DSLContext dsl;

    JooqInstances(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * A restart under the same name replaces the row (a new start, no stop). Update first (a restart), else insert; a
     * racing insert under the same name is an answer (update again). Not {@code ON DUPLICATE KEY UPDATE}: jOOQ's
     * MySQL dialect writes it with a row alias MariaDB does not parse.
     */
    @Override
    public void started(Identity instance) {
        if (restart(instance) > 0) {
            return;
        }
        var inserted = Sql.insertedUnlessDuplicate(dsl.insertInto(SERVICE_INSTANCE)
                .set(SERVICE_INSTANCE.NAME, instance.name())
                .set(SERVICE_INSTANCE.VERSION, instance.version())
                .set(SERVICE_INSTANCE.COMMIT_ID, instance.commit())
                .set(SERVICE_INSTANCE.STARTED_AT, now())
                .set(SERVICE_INSTANCE.LAST_SEEN, now()));
        if (!inserted) {
            restart(instance);
        }
    }

    private int restart(Identity instance) {
        return dsl.update(SERVICE_INSTANCE)
                .set(SERVICE_INSTANCE.VERSION, instance.version())
                .set(SERVICE_INSTANCE.COMMIT_ID, instance.commit())
                .set(SERVICE_INSTANCE.STARTED_AT, now())
                .set(SERVICE_INSTANCE.LAST_SEEN, now())
                .setNull(SERVICE_INSTANCE.STOPPED_AT)
                .where(SERVICE_INSTANCE.NAME.eq(instance.name()))
                .execute();
    }

    @Override
    public boolean seen(String name) {
        return dsl.update(SERVICE_INSTANCE).set(SERVICE_INSTANCE.LAST_SEEN, now())
                .where(SERVICE_INSTANCE.NAME.eq(name)).execute() > 0;
    }

    @Override
    public void stopped(String name) {
        dsl.update(SERVICE_INSTANCE).set(SERVICE_INSTANCE.LAST_SEEN, now()).set(SERVICE_INSTANCE.STOPPED_AT, now())
                .where(SERVICE_INSTANCE.NAME.eq(name)).execute();
    }

    /** One statement: the rows and the database clock together. */
    @Override
    public Roster roster() {
        var at = now().as("at");
        var rows = dsl.select(SERVICE_INSTANCE.NAME, SERVICE_INSTANCE.VERSION, SERVICE_INSTANCE.COMMIT_ID,
                        SERVICE_INSTANCE.STARTED_AT, SERVICE_INSTANCE.LAST_SEEN, SERVICE_INSTANCE.STOPPED_AT, at)
                .from(SERVICE_INSTANCE).orderBy(SERVICE_INSTANCE.NAME).fetch();
        if (rows.isEmpty()) {
            return new Roster(instant(dsl.select(now()).fetchSingle().value1()), List.of());
        }
        var instances = rows.map(row -> new Instance(
                new Identity(row.value1(), row.value2(), row.value3()), instant(row.value4()), instant(row.value5()),
                Optional.ofNullable(instant(row.value6()))));
        return new Roster(instant(rows.getFirst().value7()), instances);
    }

    @Override
    public int forgetUnseenFor(Duration age) {
        return dsl.deleteFrom(SERVICE_INSTANCE).where(SERVICE_INSTANCE.LAST_SEEN.lt(ago(age))).execute();
    }
}
