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

    /**
     * The kinds of move, each with its weight in a script. The kinds after {@link #OPERATOR} make the wider world
     * (issue 30): a {@link World#CLASSIC} script draws from the kinds before them only, so its seeds keep the scripts
     * they had before those were added; likewise a {@link World#WIDE} script draws from the kinds up to
     * {@link #INSTANCE_CRASH}, and the {@link World#FULL} one from every kind.
     */
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
        OPERATOR(3),
        /** GitLab answers the next 1 to 3 calls of one method with 429 and a {@code Retry-After}. */
        RATE_LIMIT(3),
        /** A person deletes a request's branch on GitLab (its merge request, if open, can no longer be merged). */
        DELETE_BRANCH(1),
        /** A person edits a grant file on main by hand: another until or op, a line removed, a line nobody approved. */
        HAND_EDIT(1),
        /** The second instance, whose clock is a few seconds apart, runs a due step or a recurring job. */
        SECOND_INSTANCE(10),
        /** One instance is killed inside a step or a job, at a port call: its in-flight step is taken over later. */
        INSTANCE_CRASH(2),
        /** An operator removes, adopts or acknowledges a drift item ({@code ActOnDrift}). */
        DRIFT_ACTION(2),
        /** Both instances run one recurring job at once: the second's whole run inside the first's. */
        JOB_TWICE(2),
        /** The deploy pipeline reports a merge request that is not this service's merged one (or names other requests). */
        OTHER_DEPLOY_REPORT(1),
        /** An operator starts a batch round of a partition. */
        OPERATOR_BATCH_ROUND(1),
        /** A person reopens a closed merge request on GitLab. */
        PERSON_REOPENS(1);

        final int weight;

        Kind(int weight) {
            this.weight = weight;
        }
    }

    /** Which kinds a script draws from. */
    enum World {
        /** The kinds up to {@link Kind#OPERATOR}: one instance, no rate limits, branches and main left alone. */
        CLASSIC(Kind.OPERATOR.ordinal() + 1),
        /**
         * The kinds up to {@link Kind#INSTANCE_CRASH}: rate limits, deleted branches, hand edits, the second instance,
         * killed and hung instances. The world of findings S5 to S8.
         */
        WIDE(Kind.INSTANCE_CRASH.ordinal() + 1),
        /**
         * Every kind: also operators' drift actions, a job run by both instances at once, deploy reports about other
         * merge requests, operators' batch rounds and reopened merge requests. The CI budget's and the long run's.
         */
        FULL(Kind.values().length);

        final List<Kind> kinds;

        World(int count) {
            this.kinds = List.of(Kind.values()).subList(0, count);
        }
    }

    /** The script of {@code seed} in the full world. */
    static List<SimAction> script(long seed, int length) {
        return script(seed, length, World.FULL);
    }

    /** The script of {@code seed}: {@code length} actions of {@code world}, every choice from one {@link SplittableRandom}. */
    static List<SimAction> script(long seed, int length, World world) {
        var random = new SplittableRandom(seed);
        var total = 0;
        for (var kind : world.kinds) {
            total += kind.weight;
        }
        var actions = new ArrayList<SimAction>(length);
        for (var i = 0; i < length; i++) {
            var roll = random.nextInt(total);
            var chosen = world.kinds.getFirst();
            for (var kind : world.kinds) {
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
