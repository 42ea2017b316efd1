package io.changeflow.systemtest.harness;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;

/**
 * What the runbook (docs/operations.md, "A request looks stuck") tells an operator to do with a
 * request that stopped with KEEP_WAITING: re-trigger the step where it stopped. Done here in rounds:
 * re-trigger every request not yet VALIDATED, wait until all are at rest again, repeat (bounded).
 */
public final class OperatorRecovery {

    /**
     * @param rounds     re-trigger rounds it took (0: nothing needed one)
     * @param retriggers re-trigger calls made
     * @param views      every request as it ended
     */
    public record Result(int rounds, int retriggers, List<RequestView> views) {

        public boolean allValidated() {
            return views.stream().allMatch(v -> "VALIDATED".equals(v.status()));
        }
    }

    private OperatorRecovery() {
    }

    /**
     * Re-triggers, in up to {@code maxRounds} rounds, the requests of {@code operationIds} that are at
     * rest but not VALIDATED (a CONTACT_MAINTAINERS one too: re-triggering it is harmless, it fails the
     * same way).
     *
     * @param operator  a client with {@code ops.operator}
     * @param perRound  how long one round may take to bring every request to rest again
     * @throws AssertionError when a re-trigger is refused or a round does not come to rest in time
     */
    public static Result retriggerUntilValidated(ApiClient operator, List<String> operationIds, int maxRounds,
                                                 Duration perRound) {
        var views = operationIds.stream().map(operator::request).toList();
        var rounds = 0;
        var retriggers = 0;
        while (rounds < maxRounds && views.stream().anyMatch(v -> !"VALIDATED".equals(v.status()))) {
            rounds++;
            var before = new HashMap<String, String>();
            for (var view : views) {
                if (!"VALIDATED".equals(view.status())) {
                    var answer = operator.post("/ops/operations/" + view.operationId() + "/retrigger", null);
                    if (answer.status() != 200 || !"RETRIGGERED".equals(answer.code())) {
                        throw new AssertionError("re-trigger of " + view + " refused: " + answer);
                    }
                    before.put(view.operationId(), view.updatedAt());
                    retriggers++;
                }
            }
            // at rest again, and each re-triggered one has moved since (not the state it was re-triggered from)
            views = Poll.until("re-triggered requests at rest (round " + rounds + ")", perRound, Duration.ofMillis(500),
                    () -> operationIds.stream().map(operator::request).toList(),
                    all -> all.stream().allMatch(v -> v.isAtRest() && (!before.containsKey(v.operationId())
                            || !Objects.equals(before.get(v.operationId()), v.updatedAt()))));
        }
        return new Result(rounds, retriggers, views);
    }
}
