package io.changeflow.application.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One move of the simulated world: who acts ({@link Kind}) and two seed-chosen numbers the world reads against its
 * state at that moment ({@code pick} chooses among the candidates, e.g. which request; {@code arg} how, e.g. which
 * decision). Reading them modulo the candidates makes any sub-list of a script a valid script, which is what shrinking
 * needs.
 */
record SimAction(Kind kind, int pick, int arg) {

    /** The kinds of move, each with its weight in a script. */
    enum Kind {
        /** A person submits a request (for themselves or someone else; a renewal when the grant is in effect). */
        SUBMIT(10),
        /** A person sends one of the earlier submissions again with the same operationId. */
        RESUBMIT(3),
        /** A subject gives a grant up. */
        GIVE_UP(2),
        /** An operator revokes a grant. */
        REVOKE(1),
        /** The approver decides a request waiting for approval; the callback is delivered, held back or lost. */
        DECIDE(10),
        /** An approval callback held back or delivered before arrives (again). */
        REDELIVER_CALLBACK(4),
        /** The deploy pipeline reports a merged merge request (in effect, failed, or again). */
        DEPLOY_REPORT(6),
        /** The pipelines of the next heads pass, fail, run late or hang. */
        NEXT_PIPELINE(4),
        /** A hanging or running pipeline of an open merge request finishes. */
        FINISH_PIPELINE(4),
        /** A person pushes to an open merge request's branch. */
        PUSH(2),
        /** A person merges an open merge request on GitLab. */
        PERSON_MERGES(1),
        /** A person closes an open merge request on GitLab. */
        PERSON_CLOSES(1),
        /** GitLab fails the next call of one method (5xx, 409, timeout). */
        GITLAB_FAULT(5),
        /** GitLab's next merge (or approval) takes effect but its answer is lost. */
        LOST_ANSWER(2),
        /** GitLab refuses the next merge (405/406/409/422 as the port's results). */
        MERGE_REFUSAL(2),
        /** The approval system fails, goes down, comes back, or loses the answer of a submission. */
        APPROVALS_FAULT(2),
        /** The service crashes inside a step: its next state write fails, the step is re-run from the durable queue. */
        CRASH(3),
        /** The scheduler runs one of the due steps (seed-chosen among them), or the earliest if none is due. */
        RUN_STEP(20),
        /** Time passes: seconds to hours; the steps due by then run. */
        ADVANCE(8),
        /** A recurring job runs (sweeps, retries, approval check, deploy deadline, expiry, batch rounds, reconciliation). */
        JOB(8),
        /** An operator re-triggers a request's step. */
        RETRIGGER(2),
        /** An operator closes a request. */
        CLOSE(2),
        /**
         * An operator confirms a merged change in effect, marks its rollout failed, re-admits a failed batch member, or
         * changes a target's removal setting at runtime (approval needed or not).
         */
        OPERATOR(3);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }

    /** The script of {@code seed}: {@code length} actions, every choice from one {@link SplittableRandom}. */
    static List<SimAction> script(long seed, int length) {
        var random = new SplittableRandom(seed);
        var total = 0;
        for (var kind : Kind.values()) {
            total += kind.weight;
        }
        var actions = new ArrayList<SimAction>(length);
        for (var i = 0; i < length; i++) {
            var roll = random.nextInt(total);
            var chosen = Kind.values()[0];
            for (var kind : Kind.values()) {
                if (roll < kind.weight) {
                    chosen = kind;
                    break;
                }
                roll -= kind.weight;
            }
            actions.add(new SimAction(chosen, random.nextInt(1 << 16), random.nextInt(1 << 16)));
        }
        return actions;
    }

    @Override
    public String toString() {
        return kind + "(" + pick + "," + arg + ")";
    }
}
