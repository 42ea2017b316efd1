package io.changeflow.application.workflow;

import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.FileChange;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.port.out.WorkQueue.Step;
import io.changeflow.application.settings.Settings;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.request.PipelinePolicy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * The GitLab choreography that takes an open merge request to merged, shared by the handle step and the batch step;
 * what the merge request belongs to is the {@link Subject}. Its phases: {@link BotApprovals}, {@link MergeAttempts},
 * {@link RebaseAndPipeline} and {@link RegenerateChange}; the remote state is read first on every run, and every wait
 * is a rescheduling with the progress in the step's data ({@link MergeProgress}). The rules, with the GitLab answers
 * behind them: docs/external-systems-gitlab.md, "Approving and merging".
 */
public final class ApproveAndMerge {

    /** The step data key of the phase (shared with the callers' own phases; stable across releases). */
    public static final String PHASE = "phase";
    /** How often the approvals are given again because GitLab removed them (after a push) before the step fails. */
    public static final int MAX_REAPPROVALS = 3;

    /** A uniformly distributed fraction in [0, 1) per call, from a thread-safe random source. */
    public static final DoubleSupplier RANDOM_JITTER = () -> ThreadLocalRandom.current().nextDouble();

    /** Where the choreography continues (names stored in the step data: stable across releases). */
    public enum Phase {
        APPROVE, MERGE, REBASE, PIPELINE,
        /** The branch is rewritten with the change generated again; what follows (re-approve) is stored before the push. */
        REWRITE
    }

    /**
     * What the merge request belongs to: one request or a batch. Each method is told one thing that
     * happened; those returning a {@link StepOutcome} end the run with it. Methods may throw like a step
     * (a lost race on a state write re-runs the step).
     */
    public interface Subject {

        /** For logs and error messages, e.g. an operationId or "batch 17". */
        String describe();

        /** When waiting started if the step data does not say (e.g. a step re-scheduled after its task was lost). */
        Instant lastWrite();

        /** Every approval bot has approved; merging comes next. */
        void approved(MergeRequestRef mr);

        /** A rebase is about to be requested. */
        void rebaseStarting(MergeRequestRef mr);

        /**
         * The merge request is merged (by us now, or found merged). {@code mergedCommit}: the merged commit GitLab's
         * merge answer named (issue 33 item 3), empty when it was found merged or the answer named none (then it is
         * read).
         */
        StepOutcome merged(MergeRequestRef mr, Optional<String> mergedCommit);

        /** The merge request was found closed without merging. */
        StepOutcome closedRemotely(MergeRequestRef mr);

        /** {@code bot} could not approve, even after {@code attempts} attempts and a last read. */
        StepOutcome approvalFailed(MergeRequestRef mr, String bot, int attempts);

        /**
         * This subject's change generated again on the current content of {@code onto} (each grant file as
         * {@code onto} holds it now, with the subject's grants applied) and its commit message, to rewrite the
         * merge request's branch with after a rebase conflict. Reads GitLab, writes nothing. Empty when the
         * change cannot be generated again (e.g. its target left the catalog): the conflict then stays.
         */
        Optional<Regenerated> regenerate(MergeRequestRef mr, String onto);

        /**
         * The paths of the files this subject's change writes (its grant files, as the catalog names them now), to tell
         * who changed them on the target branch since the branch left it. Reads no GitLab; empty when unknown (e.g. the
         * target left the catalog): a conflict then counts against the limit.
         */
        List<String> changedFiles();

        /**
         * The rebase conflicted and the change is to be generated again on {@code onto}: said once per regeneration,
         * however often its rewrite has to be repeated (refused, or its answer lost). {@code ownMerges}: every commit
         * that changed the subject's files on {@code onto} since its branch left it is one of Changeflow's own, so this
         * regeneration does not count against the limit (docs/workflow.md, "Our own merges queue").
         */
        void regenerating(MergeRequestRef mr, String onto, boolean ownMerges);

        /** The rebase hit a conflict that generating the change again did not (or could not) resolve (deterministic). */
        StepOutcome rebaseConflict(MergeRequestRef mr, String detail);

        /** The rebased head's pipeline failed (deterministic). */
        StepOutcome pipelineFailed(MergeRequestRef mr);

        /** The rebased head's pipeline did not finish in time: record "pending" (the watch keeps looking slowly). */
        void pipelineTimedOut(MergeRequestRef mr);

        /** The pipeline stayed pending for longer than the watch looks: a person confirms the outcome. */
        StepOutcome pipelineGaveUp(MergeRequestRef mr);

        /**
         * No pipeline ran for the head {@code head} up to the pending deadline (GitLab created none for the push, e.g.
         * {@code rules:changes} or {@code [skip ci]}, or a pipeline of an earlier head was all it reported): nothing is
         * merged and a person acts; {@code detail} says what ({@link HeadPipeline#noPipeline}).
         */
        default StepOutcome noPipelineRan(MergeRequestRef mr, String head, String detail) {
            return mergeBlocked(mr, detail);
        }

        /**
         * Merging could not complete (merge retries used up, too many rebases, a rebase that did not finish,
         * GitLab checking mergeability for longer than its budget): nothing is known to be wrong with the change.
         */
        StepOutcome stuck(MergeRequestRef mr, String detail);

        /**
         * GitLab refuses the merge for a reason only a person can remove ({@code detail} says which: a draft,
         * discussions, a blocking merge request, a pipeline that did not run, approval rules the bots cannot
         * satisfy). Deterministic until someone acts.
         */
        default StepOutcome mergeBlocked(MergeRequestRef mr, String detail) {
            return stuck(mr, detail);
        }

        /**
         * Which results of the head's own pipeline count before a merge (the target's, or for a batch the strictest of
         * its targets'; see {@link HeadPipeline}): read before every look at a pipeline and before every merge. Never
         * GitLab's per-project "pipelines must succeed". Fail-safe default: {@link PipelinePolicy#REQUIRED}.
         */
        default PipelinePolicy pipelinePolicy() {
            return PipelinePolicy.REQUIRED;
        }
    }

    /** A change generated again: the commit message and the complete content of every file it touches. */
    public record Regenerated(String message, List<FileChange> files) {
        public Regenerated {
            Objects.requireNonNull(message, "message");
            files = List.copyOf(files);
            if (files.isEmpty()) {
                throw new IllegalArgumentException("a change touches at least one file");
            }
        }
    }

    private final PipelineWatch pipelineWatch;
    private final Clock clock;
    private final BotApprovals approvals;
    private final MergeAttempts merges;
    private final RebaseAndPipeline heads;

    public ApproveAndMerge(MergeRequests mergeRequests, Settings settings, WorkflowPolicy policy, Clock clock) {
        this(mergeRequests, settings, policy, clock, RANDOM_JITTER);
    }

    /**
     * @param jitter the random part of merge retry delays: a fraction in [0, 1) per call ({@link #RANDOM_JITTER},
     *               or a seeded source in tests)
     */
    public ApproveAndMerge(MergeRequests mergeRequests, Settings settings, WorkflowPolicy policy, Clock clock,
                           DoubleSupplier jitter) {
        Objects.requireNonNull(jitter, "jitter");
        var rebaseWatch = new PipelineWatch(policy.rebasePolling(), policy.pendingRecheck(), Duration.ZERO);
        this.pipelineWatch = policy.pipelineWatch();
        this.clock = clock;
        // The phases hand over to each other through Handover (the fields are read when a phase ends, not now).
        var handover = new Handover();
        this.approvals = new BotApprovals(mergeRequests, settings, policy, handover);
        this.merges = new MergeAttempts(mergeRequests, policy, clock, jitter, rebaseWatch, pipelineWatch, handover);
        this.heads = new RebaseAndPipeline(mergeRequests, policy, clock, rebaseWatch, pipelineWatch, handover);
    }

    /** Where one phase hands over to the next. */
    private final class Handover implements BotApprovals.Then, MergeAttempts.Then, RebaseAndPipeline.Then {

        @Override
        public StepOutcome merge(MergeRequestRef mr, MergeProgress progress, Subject subject) {
            return merges.merge(mr, progress, subject);
        }

        @Override
        public StepOutcome mergeApproved(MergeRequestRef mr, MergeProgress progress, Subject subject,
                                         RemoteMergeRequest readBefore) {
            return merges.mergeApproved(mr, progress, subject, readBefore);
        }

        @Override
        public StepOutcome rebase(MergeRequestRef mr, MergeProgress progress, Subject subject) {
            return heads.rebase(mr, progress, subject);
        }

        @Override
        public StepOutcome reapprove(MergeRequestRef mr, MergeProgress progress, Subject subject) {
            return approvals.reapprove(mr, progress, subject);
        }

        @Override
        public StepOutcome approveAfresh(MergeRequestRef mr, MergeProgress progress, Subject subject) {
            return approvals.approve(mr, approvals.afresh(progress), subject);
        }
    }

    /** The choreography's phase recorded in {@code step}, if it is one of its own. */
    public static Optional<Phase> phaseOf(Step step) {
        var raw = step.value(PHASE);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        for (var phase : Phase.values()) {
            if (phase.name().equals(raw.get())) {
                return Optional.of(phase);
            }
        }
        return Optional.empty();
    }

    /** Continues at {@code phase}, as a previous run of the step left it. */
    public StepOutcome resume(Phase phase, MergeRequestRef mr, Step step, Subject subject) {
        var progress = MergeProgress.of(step);
        return switch (phase) {
            case APPROVE -> approvals.approve(mr, progress, subject);
            case MERGE -> merges.merge(mr, progress, subject);
            case REBASE -> heads.awaitRebase(mr, progress, subject);
            case PIPELINE -> heads.awaitPipeline(mr, progress, subject);
            case REWRITE -> heads.rewrite(mr, progress, subject);
        };
    }

    /**
     * Starts approving with the first bot, then merges. {@code readNow} is the merge request as this run of the step
     * read it a moment ago: the bots approve its head (GitLab refuses with 409 if it moved since), read no second time,
     * and once GitLab says it is approved the merge goes on from that read (its head proven again on the branch, issue
     * 33 item 3); read it with {@link io.changeflow.application.port.out.MergeRequests#getWithHeadPipeline} so its head
     * pipeline comes with it.
     */
    public StepOutcome approveAndMerge(MergeRequestRef mr, Step step, Subject subject, RemoteMergeRequest readNow) {
        return approveAndMerge(mr, step, subject, readNow, false);
    }

    /**
     * {@link #approveAndMerge(MergeRequestRef, Step, Subject, RemoteMergeRequest)}; {@code neverAsked}: the subject's
     * recorded state says no approval bot was asked to approve this merge request yet, so the approvals are not read
     * before the first approval (issue 33 item 3).
     */
    public StepOutcome approveAndMerge(MergeRequestRef mr, Step step, Subject subject, RemoteMergeRequest readNow,
                                       boolean neverAsked) {
        var progress = MergeProgress.of(step).at(Phase.APPROVE).atBot(0);
        var head = readNow.sha();
        return head == null || head.isBlank()
                ? approvals.approve(mr, progress, subject)
                : approvals.approve(mr, progress, subject, readNow, neverAsked);
    }

    /**
     * Looks at the pipeline of the merge request's current head again before anything else (a re-trigger after
     * its pipeline failed): merged only if that pipeline passed by now (e.g. someone ran it again on GitLab),
     * after the approvals are read and given again; a failed or unknown head is never merged.
     */
    public StepOutcome recheckPipeline(MergeRequestRef mr, Step step, Subject subject) {
        return heads.awaitPipeline(mr, MergeProgress.of(step).watching(Phase.PIPELINE, clock.instant()).reapprovingAfterPipeline(),
                subject);
    }

    /**
     * Merged or closed on GitLab: the subject's ending for it, whatever the step was about to do; empty while it is
     * open. A merge request GitLab does not have stops the step: an {@link IllegalStateException} saying it
     * {@code absence} (e.g. "does not exist").
     */
    public static Optional<StepOutcome> finishedRemotely(RemoteMergeRequest remote, MergeRequestRef mr, Subject subject,
                                                         String absence) {
        var finished = ending(remote, mr, subject);
        if (finished.isEmpty() && remote.state() == MergeRequestState.ABSENT) {
            throw new IllegalStateException("merge request !" + mr.iid() + " of " + subject.describe() + " " + absence);
        }
        return finished;
    }

    /** {@link #finishedRemotely}, for the phases. */
    static Optional<StepOutcome> ending(RemoteMergeRequest remote, MergeRequestRef mr, Subject subject) {
        if (remote.state() == MergeRequestState.MERGED) {
            return Optional.of(subject.merged(mr, Optional.empty()));
        }
        if (remote.state() == MergeRequestState.CLOSED) {
            return Optional.of(subject.closedRemotely(mr));
        }
        return Optional.empty();
    }
}
