package io.changeflow.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.changeflow.application.query.RequestView;
import io.changeflow.domain.hint.Hint;
import io.changeflow.domain.hint.NextAction;
import io.changeflow.domain.operation.Binding;
import io.changeflow.domain.operation.MergeRequestRef;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The request view as the API shows it ({@code data} of {@code GET /api/requests/{operationId}}):
 * identifiers and enum constants as their names, instants as ISO-8601 text, absent values as null.
 * List views leave {@code timeline} out.
 */
record RequestJson(String operationId, String targetKey, String subjectId, String requester, String reason,
                   String expiresAt, String stepOrder, String status, String step, int stepCode, HintJson hint,
                   String detail, MergeRequestJson mergeRequest, Long batchId,
                   @JsonInclude(JsonInclude.Include.NON_NULL) List<TimelineJson> timeline,
                   String createdAt, String updatedAt) {

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
    record TimelineJson(String event, String step, String status, String at, String detail) {}

    /** One subject-target relationship ({@code GET /api/bindings}, operations details). */
    record BindingJson(String subjectId, String targetKey, String status, String operationId, String expiresAt,
                       String updatedAt) {
        static BindingJson of(Binding binding) {
            return new BindingJson(binding.subject().value(), binding.target().value(), binding.status().name(),
                    binding.operationId().value(), text(binding.expiresAt()), binding.updatedAt().toString());
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
                view.requester(), view.reason(), text(view.expiresAt()), view.stepOrder().name(),
                view.status().map(Enum::name).orElse(null), view.step().name(), view.stepCode(), HintJson.of(view.hint(), NextAction.message(view.step(), view.status())),
                view.detail(), view.mergeRequest().map(MergeRequestJson::of).orElse(null), view.batchId().orElse(null),
                timeline, view.createdAt().toString(), view.updatedAt().toString());
    }

    static String text(Optional<Instant> instant) {
        return instant.map(Instant::toString).orElse(null);
    }
}
