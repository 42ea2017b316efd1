package io.changeflow.adapter.approval;

import io.changeflow.application.port.out.Approvals.Ticket;
import io.changeflow.application.port.out.Approvals.TicketStatus;
import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.ExternalCallException.Kind;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the approval system's ticket JSON ({@code {"ticket", "status", "requestId", "ext", ...}}, the
 * same shape for submit, read and withdraw). An answer without a ticket ID is unreadable (IO,
 * transient: the call may or may not have been applied). A status this client does not know reads as
 * PENDING (logged): the request keeps waiting and its approval deadline still ends the wait.
 */
final class TicketAnswers {

    private static final Logger log = LoggerFactory.getLogger(TicketAnswers.class);

    private TicketAnswers() {
    }

    static Ticket of(String what, Map<String, Object> answer) {
        if (answer == null || !(answer.get("ticket") instanceof String ticket) || ticket.isBlank()) {
            throw new ExternalCallException(HttpApprovals.SYSTEM, Kind.IO, 0, what + " answered without a ticket", null);
        }
        return new Ticket(status(what, answer.get("status")), Optional.of(ticket), text(answer.get("requestId")),
                ext(answer.get("ext")), text(answer.get("decidedBy")));
    }

    private static TicketStatus status(String what, Object raw) {
        var text = raw instanceof String s ? s.strip().toUpperCase(Locale.ROOT) : "";
        return switch (text) {
            case "PENDING" -> TicketStatus.PENDING;
            case "APPROVED" -> TicketStatus.APPROVED;
            case "REJECTED" -> TicketStatus.REJECTED;
            case "WITHDRAWN" -> TicketStatus.WITHDRAWN;
            default -> {
                log.warn("approval {} answered an unknown ticket status; reading it as PENDING", what);
                yield TicketStatus.PENDING;
            }
        };
    }

    private static Optional<String> text(Object raw) {
        return raw instanceof String s && !s.isBlank() ? Optional.of(s) : Optional.empty();
    }

    private static Map<String, String> ext(Object raw) {
        var fields = new LinkedHashMap<String, String>();
        if (raw instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                if (key instanceof String k && value != null && !(value instanceof Map) && !(value instanceof Iterable)) {
                    fields.put(k, String.valueOf(value));
                }
            });
        }
        return fields;
    }
}
