package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiException;
import io.changeflow.adapter.web.envelope.ErrorCode;
import io.changeflow.domain.request.FieldError;
import io.changeflow.domain.request.TargetKey;
import io.changeflow.domain.state.BatchStatus;
import io.changeflow.domain.state.BindingStatus;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The filters of the lists (my records, the operators' request search, the batches): absent or blank means no filter; a value
 * that cannot be one is 400 INVALID_REQUEST with the field error {@code <name>}/{@code INVALID_VALUE}, never an
 * empty list that would look like "nothing matches".
 */
final class ListFilters {

    private ListFilters() {}

    /** A binding status in any case, e.g. {@code merging}. */
    static Optional<BindingStatus> status(String status) {
        return statusOf(BindingStatus.class, status, "status is a binding status, e.g. MERGING", "unknown status filter");
    }

    /** A batch status in any case, e.g. {@code blocked}. */
    static Optional<BatchStatus> batchStatus(String status) {
        return statusOf(BatchStatus.class, status, "status is a batch status: RUNNING, SUCCEEDED, FAILED or BLOCKED",
                "unknown batch status filter");
    }

    /** A drift item's status in any case, e.g. {@code open} (issue 36). */
    static Optional<io.changeflow.domain.drift.DriftStatus> driftStatus(String status) {
        return statusOf(io.changeflow.domain.drift.DriftStatus.class, status,
                "status is a drift status: OPEN, REMOVING, ADOPTED, ACKNOWLEDGED or RESOLVED", "unknown drift status filter");
    }

    /** A drift kind in any case, e.g. {@code unapproved_line} (issue 36); a bad one is a field error on {@code kind}. */
    static Optional<io.changeflow.domain.drift.DriftKind> driftKind(String kind) {
        return enumOf(io.changeflow.domain.drift.DriftKind.class, "kind", kind, "kind is a drift kind, e.g. UNAPPROVED_LINE",
                "unknown drift kind filter");
    }

    /** A notification's state in any case, e.g. {@code gave_up} (issue 32); a bad one is a field error on {@code state}. */
    static Optional<io.changeflow.application.port.out.NotificationOutbox.State> notificationState(String state) {
        return enumOf(io.changeflow.application.port.out.NotificationOutbox.State.class, "state", state,
                "state is PENDING, RETRYING, GAVE_UP or SENT", "unknown notification state filter");
    }

    /** A page's cursor: a positive id (the list continues below it); a bad one is a field error on {@code field}. */
    static java.util.OptionalLong cursorBelow(String field, String value) {
        if (value == null || value.isBlank()) {
            return java.util.OptionalLong.empty();
        }
        try {
            var id = Long.parseLong(value.strip());
            if (id > 0) {
                return java.util.OptionalLong.of(id);
            }
        } catch (NumberFormatException e) {
            // the field error below
        }
        throw invalid(field, "Malformed cursor.", field + " is the next page's cursor of the previous page, a positive number",
                "malformed cursor");
    }

    private static <S extends Enum<S>> Optional<S> statusOf(Class<S> type, String status, String detail, String logDetail) {
        return enumOf(type, "status", status, detail, logDetail);
    }

    private static <S extends Enum<S>> Optional<S> enumOf(Class<S> type, String field, String value, String detail,
            String logDetail) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            throw invalid(field, "Unknown " + field + ".", detail, logDetail);
        }
    }

    /** A partition name of at most {@code maxLength} characters; an unknown one simply matches nothing. */
    static Optional<String> partition(String partition, int maxLength) {
        if (partition == null || partition.isBlank()) {
            return Optional.empty();
        }
        if (partition.strip().length() > maxLength) {
            throw invalid("partition", "Unknown partition.", "a partition has at most " + maxLength + " characters",
                    "partition filter too long");
        }
        return Optional.of(partition.strip());
    }

    /** A target key's format (1-64 of a-z 0-9 . _ -); an unknown but well-formed key simply matches nothing. */
    static Optional<TargetKey> target(String targetKey) {
        if (targetKey == null || targetKey.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(TargetKey.parse(targetKey).orElseThrow(() -> invalid("targetKey", "Malformed target key.",
                "targetKey is 1-64 of a-z 0-9 . _ -, e.g. db-prod-readonly", "malformed target filter")));
    }

    private static ApiException invalid(String field, String message, String detail, String logDetail) {
        return new ApiException(ErrorCode.INVALID_REQUEST, message,
                Map.of("fieldErrors", List.of(new FieldError(field, "INVALID_VALUE", detail))), logDetail);
    }
}
