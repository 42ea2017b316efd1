package io.changeflow.adapter.persistence;

import static io.changeflow.adapter.persistence.Sql.now;
import static io.changeflow.adapter.persistence.jooq.Tables.SCAN_CURSOR;

import io.changeflow.application.port.out.ScanCursors;
import java.util.Optional;
import org.jooq.DSLContext;

/** {@link ScanCursors} on {@code scan_cursor} (V7): one row per scan, last writer wins. */
final class JooqScanCursors implements ScanCursors {

    private final DSLContext dsl;

    JooqScanCursors(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Optional<Position> position(String scan) {
        return dsl.select(SCAN_CURSOR.POSITION).from(SCAN_CURSOR).where(SCAN_CURSOR.SCAN_NAME.eq(scan))
                .fetchOptional(SCAN_CURSOR.POSITION)
                .filter(token -> !token.isBlank())
                .map(Position::new);
    }

    /** Update first (the usual case); the first run of a scan inserts, and a racing first insert is an answer (update again). */
    @Override
    public void remember(String scan, Position position) {
        write(scan, position.token());
    }

    /** A null position: from the start. */
    @Override
    public void forget(String scan) {
        write(scan, null);
    }

    private void write(String scan, String token) {
        if (update(scan, token) > 0) {
            return;
        }
        try {
            dsl.insertInto(SCAN_CURSOR).set(SCAN_CURSOR.SCAN_NAME, scan).set(SCAN_CURSOR.POSITION, token).execute();
        } catch (RuntimeException e) {
            if (!Sql.isDuplicateKey(e)) {
                throw e;
            }
            update(scan, token);
        }
    }

    private int update(String scan, String token) {
        return dsl.update(SCAN_CURSOR)
                .set(SCAN_CURSOR.POSITION, token)
                .set(SCAN_CURSOR.UPDATED_AT, now())
                .where(SCAN_CURSOR.SCAN_NAME.eq(scan))
                .execute();
    }
}
