package io.changeflow.application.fake;

import io.changeflow.application.port.out.ScanCursors;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link ScanCursors} in memory; thread-safe, last writer wins like the table. */
public final class FakeScanCursors implements ScanCursors {

    private final Map<String, Position> positions = new ConcurrentHashMap<>();

    @Override
    public Optional<Position> position(String scan) {
        return Optional.ofNullable(positions.get(scan));
    }

    @Override
    public void remember(String scan, Position position) {
        positions.put(scan, position);
    }

    @Override
    public void forget(String scan) {
        positions.remove(scan);
    }
}
