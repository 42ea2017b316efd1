package io.changeflow.adapter.web.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.changeflow.application.query.RemovalStory;
import io.changeflow.application.query.RequestKind;
import io.changeflow.application.query.RequestView;
import io.changeflow.application.query.RequestWait;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.OperationId;
import java.time.Duration;
import io.changeflow.domain.request.GrantDurations;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The request view as the API shows it ({@code data} of {@code GET /api/requests/{operationId}}):
 * identifiers and enum constants as their names, instants as ISO-8601 text, absent values as null.
 * List views leave {@code timeline} out. {@code waiting} (who is expected to act next) is left out when nobody is;
 * in list views it says who and since the request's last change only (no deadline, next attempt or pace). {@code kind} is {@code GRANT}, {@code RENEWAL}, {@code EXPIRY} or {@code REVOCATION}
 * ({@link RequestKind}); {@code previousGrant} the grant a renewal rewrites or a removal removes (null otherwise);
 * {@code removal} (left out for grants and renewals, and in list views) why and by whom a removal was opened.
 * {@code duration} (issue 32 item 3) the duration a request asked for instead of an end, ISO-8601 ({@code PT8H});
 * null for a request of an end. Its {@code expiresAt} is null until the end is fixed, when the approved line is first
 * written.
 */
record RequestJson(String operationId, String targetKey, String subjectId, String requester, String reason,
                   @Nullable String expiresAt, String stepOrder, @Nullable String status, String step, int stepCode, HintJson hint,
                   @Nullable String detail, @Nullable MergeRequestJson mergeRequest, @Nullable Long batchId,
                   @JsonInclude(JsonInclude.Include.NON_NULL) List<TimelineJson> timeline,
                   String createdAt, String updatedAt, @JsonInclude(JsonInclude.Include.NON_NULL) WaitJson waiting,
                   String kind, @Nullable String previousGrant, @JsonInclude(JsonInclude.Include.NON_NULL) RemovalJson removal,
                   @Nullable String duration) {

    /** Why a removal takes the line out ({@code EXPIRED}, {@code GIVEN_UP}, {@code REVOKED}) and who caused it. */
    record RemovalJson(String cause, String by) {
        static RemovalJson of(RemovalStory story) {
            return new RemovalJson(story.cause().name(), story.by());
        }
    }

    /**
     * Who is expected to act next ({@code SERVICE}, {@code APPROVER}, {@code PIPELINE}, {@code DEPLOY_PIPELINE},
     * {@code MAINTAINERS}), since when, until when, and when this service looks or tries next; unknown values null.
     */
    record WaitJson(String waitingFor, String since, @Nullable String deadline, @Nullable String nextAttemptAt, @Nullable Long checkedEverySeconds,
                    @Nullable String failing) {
        static WaitJson of(RequestWait wait) {
            return new WaitJson(wait.waitingFor().name(), wait.since().toString(),
                    wait.deadline().map(Instant::toString).orElse(null), wait.nextAttemptAt().map(Instant::toString).orElse(null),
                    wait.checkedEvery().map(Duration::toSeconds).orElse(null), wait.failing().orElse(null));
        }
    }

    /** What to do next, with a message safe to show. */
    record HintJson(String code, String message) {
        static HintJson of(Hint hint, String message) {
            return new HintJson(hint.name(), message);
        }
    }

    /** Where the merge request lives. */
    record MergeRequestJson(String project, long iid, String webUrl) {
        static MergeRequestJson of(MergeRequestRef ref) {
            return new MergeRequestJson(ref.project(), ref.iid(), ref.webUrl());
        }
    }

    /** One state write. */
    record TimelineJson(String event, String step, @Nullable String status, String at, @Nullable String detail) {}

    /** One subject-target relationship ({@code GET /api/bindings}, operations details). */
    record BindingJson(String subjectId, String targetKey, String status, String operationId, @Nullable String expiresAt,
                       String updatedAt) {
        static BindingJson of(Binding binding) {
            return new BindingJson(binding.subject().value(), binding.target().value(), binding.status().name(),
                    binding.operationId().value(), binding.expiresAt().map(Instant::toString).orElse(null),
                    binding.updatedAt().toString());
        }
    }

    /** The full view, with its timeline. */
    static RequestJson of(RequestView view) {
        return from(view, view.timeline().stream()
                .map(t -> new TimelineJson(t.event().name(), t.step().name(), t.status().map(Enum::name).orElse(null),
                        t.at().toString(), t.detail()))
                .toList());
    }

    /** The list view: no timeline. */
    static RequestJson summaryOf(RequestView view) {
        return from(view, null);
    }

    private static RequestJson from(RequestView view, List<TimelineJson> timeline) {
        return new RequestJson(view.operationId().value(), view.targetKey().value(), view.subjectId().value(),
                view.requester(), view.reason(), view.expiresAt().map(Instant::toString).orElse(null), view.stepOrder().name(),
                view.status().map(Enum::name).orElse(null), view.step().name(), view.stepCode(),
                HintJson.of(view.hint(), view.status().map(status -> NextAction.message(view.step(), status))
                        .orElse(view.hint().message())),
                view.detail(), view.mergeRequest().map(MergeRequestJson::of).orElse(null), view.batchId().orElse(null),
                timeline, view.createdAt().toString(), view.updatedAt().toString(),
                view.waiting().map(WaitJson::of).orElse(null), view.kind().name(),
                view.previousGrant().map(OperationId::value).orElse(null),
                view.removal().map(RemovalJson::of).orElse(null),
                view.duration().map(GrantDurations::iso).orElse(null));
    }
}
