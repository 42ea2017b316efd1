package io.changeflow.application.workflow;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.MergeRequests.ApprovalState;
import io.changeflow.application.port.out.MergeRequests.RemoteMergeRequest;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.workflow.ApproveAndMerge.Phase;
import io.changeflow.application.workflow.ApproveAndMerge.Subject;
import io.changeflow.domain.operation.MergeRequestRef;
import io.changeflow.domain.polling.RetryPolicy;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * {@link ApproveAndMerge}'s approval phase: each approval bot approves on its own, the approvals read before the
 * first attempt of every run (one read answers for every bot; issue 33 item 3: not when no bot was asked before) and
 * again after a 401 or a last failed attempt;
 * failures are retried with backoff by rescheduling; then GitLab's own judgement decides whether merging may go on:
 * the one the last approval's answer carries, else read (docs/external-systems-gitlab.md, "Approving and merging").
 */
final class BotApprovals {

    private static final System.Logger LOG = System.getLogger(BotApprovals.class.getName());

    /** What comes after the approvals: merging. */
    interface Then {
        StepOutcome merge(MergeRequestRef mr, MergeProgress progress, Subject subject);

        /** {@link #merge} on the merge request as this run read it before approving ({@link MergeAttempts#mergeApproved}). */
        StepOutcome mergeApproved(MergeRequestRef mr, MergeProgress progress, Subject subject, RemoteMergeRequest readBefore);
    }

    private final MergeRequests mergeRequests;
    private final Settings settings;
    private final WorkflowPolicy policy;
    private final Then then;

    BotApprovals(MergeRequests mergeRequests, Settings settings, WorkflowPolicy policy, Then then) {
        this.mergeRequests = mergeRequests;
        this.settings = settings;
        this.policy = policy;
        this.then = then;
    }

    /** Approves with every bot from {@link MergeProgress#bot()} on, then merges once GitLab says it is approved. */
    StepOutcome approve(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        return approveFrom(mr, progress, subject, null, true);
    }

    /**
     * {@link #approve}, the bots approving the head of {@code readNow}, the merge request as this run of the step read it
     * already (with a head); once GitLab says it is approved, merging goes on from that read (issue 33 item 3).
     *
     * @param neverAsked no approval bot was asked to approve this merge request before this run (the subject's recorded
     *                   state says so): issue 33 item 3, the approvals are not read before the first approval (a bot that
     *                   approved by other means is answered 304, or 401 and then read, as after any approval)
     */
    StepOutcome approve(MergeRequestRef mr, MergeProgress progress, Subject subject, RemoteMergeRequest readNow,
                        boolean neverAsked) {
        Objects.requireNonNull(readNow.sha(), "readNow.sha");
        return approveFrom(mr, progress, subject, readNow, !neverAsked);
    }

    /**
     * @param readNow   the merge request read already in this run, or null: its head is read before the first approval
     * @param readFirst whether the approvals are read before the first approval of this run (one read for every bot)
     */
    private StepOutcome approveFrom(MergeRequestRef mr, MergeProgress progress, Subject subject, RemoteMergeRequest readNow,
                                    boolean readFirst) {
        var bots = mergeRequests.approvalAccounts();
        if (bots.isEmpty()) {
            // Never merge unapproved: a missing bot list is a configuration error, not "nothing to approve".
            throw new IllegalStateException("no approval bot accounts are configured; merge request !" + mr.iid()
                    + " is not approved");
        }
        var retries = new RetryPolicy(settings.approvalMaxRetries().value(), policy.approvalBackoff());
        var current = progress;
        var head = readNow == null ? null : readNow.sha();
        // GitLab's approval state as the answer of this run's last approval carried it (issue 33 item 3); empty when the
        // last thing this run learnt about the approvals came another way (a 401 read, a failure): then it is read
        Optional<ApprovalState> answered = Optional.empty();
        // One read of the approvals answers for every bot of this run (GET .../approvals lists them all): approving as
        // one bot changes nothing about another's, and one that approved meanwhile anyway is answered 401 (read again).
        Optional<Set<String>> approvedAtStart = Optional.empty();
        for (var index = current.bot(); index < bots.size(); index++) {
            var bot = bots.get(index);
            if (approvedAtStart.isEmpty() && readFirst) {
                approvedAtStart = approvedBy(mr, bot);
            }
            if (approvedAtStart.map(approved -> approved.contains(bot)).orElse(false)) {
                continue;
            }
            try {
                head = head != null ? head : headSha(mr);
                // The head this bot approves: GitLab refuses (409) if it moved since it was read.
                answered = mergeRequests.approveWithState(mr.project(), mr.iid(), bot, head);
                continue;
            } catch (ExternalCallException e) {
                answered = Optional.empty();
                if (e.status() == 401 && hasApprovalFrom(mr, bot)) {
                    LOG.log(Level.INFO, () -> "401 for " + bot + " on !" + mr.iid() + " meant 'already approved'");
                    continue;
                }
                var failures = current.failuresOf(bot) + 1;
                current = current.atBot(index).withFailures(bot, failures);
                if (e.kind() == ExternalCallException.Kind.HTTP_STATUS && (e.status() == 403 || e.status() == 401)) {
                    // GitLab says this account may not approve: 403, its role may not approve at all; 401 (it has not
                    // approved: read above), the approval service refused it: not an eligible approver of the project's
                    // rules, or the merge request's author. A setup problem: asking again cannot help, a person acts.
                    LOG.log(Level.WARNING, "approval by " + bot + " on !" + mr.iid() + " refused with " + e.status()
                            + ": the account may not approve it", e);
                    return subject.mergeBlocked(mr, notEligible(mr, bot, e.status()));
                }
                if (e.retryAfter().isPresent()) {
                    throw e; // rate limited: the step runs again after the wait, not counted as a failed approval
                }
                var delay = retries.afterFailure(failures);
                if (delay.isPresent()) {
                    LOG.log(Level.WARNING, "approval by " + bot + " on !" + mr.iid() + " failed (attempt " + failures
                            + "); retrying in " + delay.get(), e);
                    return StepOutcome.again(current.nextAttempt().step(), delay.get());
                }
                // After the last attempt there is no next read to correct things: read once more.
                if (hasApprovalFrom(mr, bot)) {
                    continue;
                }
                LOG.log(Level.WARNING, "approval by " + bot + " on !" + mr.iid() + " failed " + failures + " times", e);
                return subject.approvalFailed(mr, bot, failures);
            }
        }
        // The head these approvals are for, read before GitLab's judgement: a push after it is seen before merging.
        head = head != null ? head : headSha(mr);
        // GitLab's judgement after the last approval: carried by its answer, else read (issue 33 item 3)
        var state = answered.isPresent() ? answered : approvalState(mr);
        var judged = approvedByGitLab(mr, bots, current, retries, subject, state);
        if (judged.isPresent()) {
            return judged.get();
        }
        subject.approved(mr);
        var merging = current.approvalsSettled().approvedAt(head).freshMerge();
        if (readNow != null && state.map(ApprovalState::approved).orElse(false)) {
            // issue 33 item 3: no second read of the merge request in this run; MergeAttempts proves its head again
            return then.mergeApproved(mr, merging, subject, readNow);
        }
        return then.merge(mr, merging, subject);
    }

    /**
     * GitLab says the merge request is not approved (e.g. a push removed the approvals): every bot's approval is
     * read and given again, once; GitLab still saying so after that means approval rules the bots cannot
     * satisfy (code owners, named approvers), which a person resolves.
     */
    StepOutcome reapprove(MergeRequestRef mr, MergeProgress progress, Subject subject) {
        var refusals = progress.notApprovedRefusals() + 1;
        if (refusals > 1) {
            return subject.mergeBlocked(mr, "GitLab still reports merge request !" + mr.iid() + " as not approved after every "
                    + "approval bot approved it: its approval rules need approvals the bots cannot give (e.g. code owners); "
                    + "once someone gives them, re-trigger the request.");
        }
        LOG.log(Level.INFO, () -> "GitLab reports !" + mr.iid() + " as not approved; reading and giving the approvals again");
        return approve(mr, afresh(progress).withNotApprovedRefusals(refusals).withoutRefusal(), subject);
    }

    /** For a person: GitLab refused {@code bot}'s approval with {@code status} (401 or 403), and what to change. */
    private static String notEligible(MergeRequestRef mr, String bot, int status) {
        var why = status == 403
                ? "its role in the project may not approve merge requests: give it Developer or higher"
                : "it is not an eligible approver: add it to the project's approval rules (eligible approvers), and make "
                + "sure it is not the account that opens the merge requests";
        return "GitLab refused the approval of merge request !" + mr.iid() + " by the approval bot " + bot + " (" + status
                + "): " + why + "; then re-trigger the request.";
    }

    /** {@code progress} at the approval phase for a new head: from the first bot, no failures counted. */
    MergeProgress afresh(MergeProgress progress) {
        return progress.approvingAfresh(mergeRequests.approvalAccounts()).at(Phase.APPROVE);
    }

    /**
     * GitLab's own judgement once every bot approved ("approved" means GitLab says so, not that our bots did):
     * approvals GitLab reset are given again, at most {@link ApproveAndMerge#MAX_REAPPROVALS} times; rules the bots
     * cannot satisfy (code owners) are waited for like a failed approval. A failed read lets merging go on: GitLab
     * refuses an unapproved merge.
     *
     * @param judgement GitLab's approval state after the approvals (the last one's answer, or read); empty when the
     *                  read failed
     * @return empty when merging may go on
     */
    private Optional<StepOutcome> approvedByGitLab(MergeRequestRef mr, List<String> bots, MergeProgress progress,
                                                   RetryPolicy retries, Subject subject, Optional<ApprovalState> judgement) {
        if (judgement.isEmpty()) {
            return Optional.empty();
        }
        var state = judgement.get();
        var missing = bots.stream().filter(bot -> !state.approvedBy().contains(bot)).findFirst();
        if (missing.isPresent()) {
            var reapprovals = progress.reapprovals() + 1;
            if (reapprovals > ApproveAndMerge.MAX_REAPPROVALS) {
                return Optional.of(subject.approvalFailed(mr, missing.get(), reapprovals));
            }
            LOG.log(Level.INFO, () -> "GitLab removed the approval of " + missing.get() + " on !" + mr.iid()
                    + " (approvals reset after a push); approving again");
            return Optional.of(StepOutcome.again(progress.approvingAfresh(bots).withReapprovals(reapprovals).nextAttempt().step(),
                    policy.approvalBackoff().delayBefore(1)));
        }
        if (state.approved()) {
            return Optional.empty();
        }
        var waits = progress.ruleWaits() + 1;
        var delay = retries.afterFailure(waits);
        var rules = "GitLab's approval rules (" + state.approvalsLeft() + " approvals left after every approval bot approved)";
        if (delay.isEmpty()) {
            return Optional.of(subject.approvalFailed(mr, rules, waits));
        }
        LOG.log(Level.INFO, () -> "!" + mr.iid() + ": " + rules + "; reading again in " + delay.get());
        return Optional.of(StepOutcome.again(progress.withRuleWaits(waits).nextAttempt().step(), delay.get()));
    }

    /** GitLab's approval state read now; empty when the read failed (merging goes on: GitLab refuses an unapproved merge). */
    private Optional<ApprovalState> approvalState(MergeRequestRef mr) {
        try {
            return Optional.of(mergeRequests.approvalState(mr.project(), mr.iid()));
        } catch (RuntimeException e) {
            rethrowIfRateLimited(e);
            LOG.log(Level.WARNING, "could not read the approval state of !" + mr.iid() + "; merging, GitLab judges", e);
            return Optional.empty();
        }
    }

    /** The merge request's head as read now, for the approval to name; null (none sent) when it cannot be read. */
    private String headSha(MergeRequestRef mr) {
        try {
            var sha = mergeRequests.get(mr.project(), mr.iid()).sha();
            return sha == null || sha.isBlank() ? null : sha;
        } catch (RuntimeException e) {
            rethrowIfRateLimited(e);
            LOG.log(Level.WARNING, "could not read the head of !" + mr.iid() + "; approving without a sha", e);
            return null;
        }
    }

    /**
     * Who approved, for {@link #hasApprovalFrom}'s rules: empty after a read that failed with a 4xx answer, which
     * counts as "{@code bot} not yet" (and the next bot's approval is read on its own).
     */
    private Optional<Set<String>> approvedBy(MergeRequestRef mr, String bot) {
        try {
            return Optional.of(mergeRequests.approvedBy(mr.project(), mr.iid()));
        } catch (RuntimeException e) {
            if (e instanceof ExternalCallException call && call.isTransient()) {
                throw call;
            }
            LOG.log(Level.WARNING, "could not read the approvals of !" + mr.iid() + "; treating " + bot + " as not approved", e);
            return Optional.empty();
        }
    }

    /**
     * Whether {@code bot} approved. A read that failed transiently (or 429) leaves the step: "not approved yet" would
     * send an approval the bot may have given already. Any other failed read counts as "not yet" (fail-open: the
     * approval is sent and GitLab's answer decides). Why: docs/external-systems-gitlab.md, "Read retries".
     */
    private boolean hasApprovalFrom(MergeRequestRef mr, String bot) {
        // transient includes 429 (rate limited): both leave the step
        return approvedBy(mr, bot).map(approved -> approved.contains(bot)).orElse(false);
    }

    /** A read GitLab refused with 429 leaves the step (it runs again after the wait GitLab asked for). */
    private static void rethrowIfRateLimited(RuntimeException e) {
        if (e instanceof ExternalCallException call && call.retryAfter().isPresent()) {
            throw call;
        }
    }
}
