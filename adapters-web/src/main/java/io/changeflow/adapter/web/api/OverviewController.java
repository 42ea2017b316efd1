package io.changeflow.adapter.web.api;

import io.changeflow.adapter.web.envelope.ApiResponse;
import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.query.ShowOverview;
import io.changeflow.domain.state.BindingStatus;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The operations overview ({@link ShowOverview}): requests per state, the oldest wait of each waiting state with
 * its owner and deadline, completions and failures per hour, the external systems, the scheduler backlog and the
 * batch slots, in one answer for the console's landing page and for scripts. Operators only, like every
 * {@code /ops/} path (docs/api.md).
 */
@RestController
public final class OverviewController {

    record StateJson(String status, long count) {}

    record WaitingJson(String status, String owner, long count, String oldestSince, long oldestAgeSeconds, @Nullable String deadline,
                       @Nullable String deadlineKey, @Nullable String nextDeadline, String atDeadline) {
        static WaitingJson of(ShowOverview.Waiting w) {
            return new WaitingJson(w.status().name(), w.owner().name(), w.count(), w.oldestSince().toString(),
                    w.oldestAge().toSeconds(), w.deadline().map(Enum::name).orElse(null),
                    w.deadline().map(d -> d.key()).orElse(null), w.nextDeadline().map(Instant::toString).orElse(null),
                    w.atDeadline());
        }
    }

    record HourJson(String start, long completed, long failed) {
        static HourJson of(Activity.Hour h) {
            return new HourJson(h.start().toString(), h.completed(), h.failed());
        }
    }

    record DependencyJson(String system, @Nullable String breaker, @Nullable Double errorRatePercent, long recentCalls,
                          long recentFailures, long notPermittedCalls, @Nullable String lastSeen) {
        static DependencyJson of(ShowOverview.Dependency d) {
            return new DependencyJson(d.system(), d.breaker().orElse(null), d.errorRatePercent().orElse(null), d.recentCalls(),
                    d.recentFailures(), d.notPermittedCalls(), d.lastSeen().map(Instant::toString).orElse(null));
        }
    }

    record BacklogJson(int waiting, int dueNow, int running, int failing, int capacity, @Nullable String oldestDue) {
        static BacklogJson of(WorkQueue.Backlog b) {
            return new BacklogJson(b.waiting(), b.dueNow(), b.running(), b.failing(), b.capacity(),
                    b.oldestDue().map(Instant::toString).orElse(null));
        }
    }

    record SlotJson(String partition, long waiting, @Nullable Long batchId, @Nullable String batchStatus, @Nullable String since) {
        static SlotJson of(Activity.Slot s) {
            var batch = s.activeBatch();
            return new SlotJson(s.partition(), s.waiting(), batch.map(Activity.ActiveBatch::id).orElse(null),
                    batch.map(b -> b.status().name()).orElse(null),
                    batch.map(b -> b.since().toString()).orElse(null));
        }
    }

    /** {@code states} lists every status in the order of the state table, 0 included, so scripts can rely on it. */
    record OverviewJson(String at, List<StateJson> states, List<WaitingJson> waiting, List<HourJson> hours,
                        List<DependencyJson> dependencies, @Nullable BacklogJson backlog, List<SlotJson> slots) {
        static OverviewJson of(ShowOverview.Overview o) {
            var states = Arrays.stream(BindingStatus.values())
                    .map(s -> new StateJson(s.name(), o.byStatus().getOrDefault(s, 0L))).toList();
            return new OverviewJson(o.at().toString(), states, o.waiting().stream().map(WaitingJson::of).toList(),
                    o.hours().stream().map(HourJson::of).toList(), o.dependencies().stream().map(DependencyJson::of).toList(),
                    o.backlog().map(BacklogJson::of).orElse(null), o.slots().stream().map(SlotJson::of).toList());
        }
    }

    private final ShowOverview overview;

    public OverviewController(ShowOverview overview) {
        this.overview = overview;
    }

    /**
     * Conditional (issue 33, {@link ConditionalReads}): the ETag covers the content, not {@code at} nor the
     * {@code oldestAgeSeconds} computed from it; an {@code If-None-Match} naming the current version is 304 from the
     * version's few index reads alone ({@link ShowOverview#version}), without computing the overview.
     */
    @Answers(summary = "The operations overview: states, waits, 24 hours, dependencies, backlog, batch slots", conditional = true)
    @GetMapping("/ops/overview")
    ResponseEntity<ApiResponse<OverviewJson>> overview(
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) @Nullable String ifNoneMatch) {
        if (ifNoneMatch != null) {
            var unchanged = ConditionalReads.<ApiResponse<OverviewJson>>notModified(ifNoneMatch, Optional.of(overview.version()));
            if (unchanged.isPresent()) {
                return unchanged.get();
            }
        }
        var shown = overview.read();
        return ConditionalReads.ok(ApiResponse.ok(OverviewJson.of(shown.overview())), shown.version());
    }
}
