package io.changeflow.sandbox.approval;

import java.util.LinkedHashMap;
import java.util.Map;

/** JSON shapes of a ticket, shared by the approval API and the approver inbox. */
final class TicketViews {

    private TicketViews() {}

    static Map<String, Object> of(ApprovalSimulator.Ticket ticket) {
        var form = ticket.form();
        var view = new LinkedHashMap<String, Object>();
        view.put("ticket", ticket.ticket());
        view.put("operationId", form.operationId());
        view.put("requester", form.requester());
        view.put("subject", form.subject());
        view.put("target", form.target());
        view.put("reason", form.reason());
        view.put("expiresAt", form.expiresAt());
        view.put("ext", form.ext());
        view.put("status", ticket.status().name());
        view.put("createdAt", ticket.createdAt().toString());
        view.put("decidedAt", ticket.decidedAt() == null ? null : ticket.decidedAt().toString());
        view.put("decidedBy", ticket.decidedBy());
        // the decision callback's requestId: a reader that learns the decision here deduplicates it against the callback
        view.put("requestId", ticket.requestId());
        return view;
    }
}
