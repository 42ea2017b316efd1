package io.changeflow.adapter.web.api;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.application.query.RequestView;
import io.changeflow.application.recovery.FindOverdueRequests;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Requests past the deadline of whoever was to make their next move ({@link FindOverdueRequests}),
 * longest overdue first: what an operator looks at first, and what the reliability suite samples.
 * Operators only, like every {@code /ops/} path.
 */
@RestController
public final class OverdueController {

    /** One overdue request: its summary, who owned the next move, which deadline passed and when. */
    record OverdueJson(@JsonUnwrapped RequestJson request, String owner, String nextMove, String deadline,
                       String deadlineKey, String dueAt, long overdueSeconds, String atDeadline) {
        static OverdueJson of(FindOverdueRequests.Overdue overdue) {
            return new OverdueJson(RequestJson.summaryOf(RequestView.summaryOf(overdue.operation())),
                    overdue.owner().owner().name(), overdue.owner().nextMove(), overdue.deadline().name(),
                    overdue.deadline().key(), overdue.dueAt().toString(), overdue.overdueBy().toSeconds(),
                    overdue.owner().atDeadline());
        }
    }

    /** What one look found. */
    record OverdueListJson(int examined, List<OverdueJson> overdue) {}

    static final int MAX_LIMIT = 10_000;

    private final FindOverdueRequests find;

    public OverdueController(FindOverdueRequests find) {
        this.find = find;
    }

    /** 200 OK with the overdue requests among the {@code limit} (default 1,000, at most 10,000) oldest non-terminal ones. */
    @Answers(summary = "Requests past the deadline of their next move")
    @GetMapping("/ops/overdue")
    ApiResponse<OverdueListJson> overdue(@RequestParam(defaultValue = "1000") int limit) {
        var result = find.find(Math.clamp(limit, 1, MAX_LIMIT));
        return ApiResponse.ok(new OverdueListJson(result.examined(), result.overdue().stream().map(OverdueJson::of).toList()));
    }
}
