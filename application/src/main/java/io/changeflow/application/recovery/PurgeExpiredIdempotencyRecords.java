package io.changeflow.application.recovery;

import io.changeflow.application.port.out.IdempotencyRecords;

/**
 * Deletes expired idempotency records in chunks (short transactions, no long table locks), until a
 * chunk comes back short or the run's chunk budget is used up (the next run continues).
 */
public final class PurgeExpiredIdempotencyRecords {

    /** @param chunkSize records per delete; {@code maxChunks} bounds one run */
    public record Command(int chunkSize, int maxChunks) {
        public Command {
            if (chunkSize < 1 || maxChunks < 1) {
                throw new IllegalArgumentException("chunkSize and maxChunks must be positive");
            }
        }

        public static Command defaults() {
            return new Command(1000, 100);
        }
    }

    /** How many records were deleted and whether more may be left for the next run. */
    public record Result(int deleted, boolean moreLeft) {}

    private final IdempotencyRecords records;

    public PurgeExpiredIdempotencyRecords(IdempotencyRecords records) {
        this.records = records;
    }

    public Result purge(Command command) {
        var deleted = 0;
        for (var chunk = 0; chunk < command.maxChunks(); chunk++) {
            var n = records.purgeExpired(command.chunkSize());
            deleted += n;
            if (n < command.chunkSize()) {
                return new Result(deleted, false);
            }
        }
        return new Result(deleted, true);
    }
}
