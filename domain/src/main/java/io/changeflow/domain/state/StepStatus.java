package io.changeflow.domain.state;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The fine-grained step an operation stopped at, for troubleshooting and metrics. Codes are
 * allocated in ranges by phase so metrics aggregate by prefix: creation 100xx, handling 101xx,
 * closing 102xx, callbacks 103xx, approval submission 104xx, pending (waiting on something) 105xx.
 * Codes are persisted: never renumber a constant, only add.
 */
public enum StepStatus {

    /** Creating the branch, the commit and the merge request. */
    CREATE_STARTED(10001),
    /** The merge request exists and its check pipeline passed. */
    CREATE_SUCCEEDED(10002),
    /** Creating the merge request failed unexpectedly; safe to re-trigger. */
    CREATE_FAILED(10003),
    /** The merge request's check pipeline failed: the change itself is broken. */
    CREATE_PIPELINE_FAILED(10004),
    /** The merge request is open; its check pipeline is running. */
    CREATE_MR_OPENED(10005),
    /**
     * The merge request's check pipeline stayed pending past the pending deadline and nobody looks at it
     * any more: a person checks the pipeline on GitLab (stuck runner?), then re-triggers or closes.
     */
    CREATE_PIPELINE_UNFINISHED(10050),
    /**
     * Creating the merge request kept failing on transient GitLab errors (5xx, timeouts, an open breaker, a
     * full backlog) until the transient deadline: the automatic retries stopped; a person checks GitLab.
     */
    CREATE_GAVE_UP(10051),

    /** Handling started: checking the merge request before approving and merging. */
    HANDLE_STARTED(10101),
    /** Both approval bots have approved the merge request. */
    HANDLE_APPROVED(10102),
    /** The merge request is merged. */
    HANDLE_MERGED(10103),
    /** A bot could not approve the merge request, even after retries. */
    HANDLE_APPROVE_FAILED(10104),
    /** Rebasing the merge request hit a conflict: someone has to resolve it. */
    HANDLE_REBASE_CONFLICT(10105),
    /** Merging failed unexpectedly or kept failing; safe to re-trigger on the same merge request. */
    HANDLE_MERGE_FAILED(10106),
    /** The pipeline after a rebase failed: the change no longer passes its checks. */
    HANDLE_PIPELINE_FAILED(10107),
    /** The merge request is being rebased onto the target branch. */
    HANDLE_REBASING(10108),
    /** The merge request was closed on GitLab by someone else; nothing was merged. */
    HANDLE_MR_CLOSED(10109),
    /** Claimed by a batch: its change is part of the batch's merge request. */
    BATCH_CLAIMED(10110),
    /** The batch pipeline failed and bisection isolated this change as the cause. */
    BATCH_PIPELINE_FAILED(10111),
    /** The batch failed and the split limit was reached before the cause was isolated. */
    BATCH_FAILED(10112),
    /**
     * The pipeline before merging stayed pending past the pending deadline and nobody looks at it any more:
     * a person checks the pipeline on GitLab, then re-triggers or closes.
     */
    HANDLE_PIPELINE_UNFINISHED(10150),
    /**
     * Approving or merging kept failing on transient GitLab errors until the transient deadline: the
     * automatic retries stopped; a person checks GitLab, then re-triggers.
     */
    HANDLE_GAVE_UP(10151),
    /**
     * GitLab refuses to merge for a reason only a person can remove (a draft, unresolved discussions, a
     * blocking merge request, requested changes, a policy, approval rules the bots cannot satisfy, a pipeline
     * that did not run): the history says which. Re-trigger once it is removed.
     */
    HANDLE_MERGE_BLOCKED(10121),

    /** Closing the merge request (after a rejection or at an operator's request). */
    CLOSE_STARTED(10201),
    /** The merge request is closed (or was already closed or merged). */
    CLOSE_DONE(10202),
    /**
     * Closing the merge request failed; safe to re-trigger. For a request that ended (REJECTED, CLOSED) the failed-close
     * retry job tries again until the transient deadline, then moves it to {@link #CLOSE_GAVE_UP}.
     */
    CLOSE_FAILED(10203),
    /**
     * Closing the merge request kept failing until the transient deadline: the automatic retries stopped and its merge
     * request may still be open on GitLab. A person looks at it there (closes it by hand) or re-triggers the close.
     */
    CLOSE_GAVE_UP(10250),
    /** An operator closed the request; nothing was merged. */
    CLOSED_BY_OPERATOR(10204),
    /**
     * The person this request was asked for asked for it themselves before it was merging: their own request
     * replaced this one; nothing was merged, its merge request (if any) is closed, its approval withdrawn.
     */
    SUPERSEDED_BY_SUBJECT(10205),

    /** The deployment pipeline reported the change in effect (or reconciliation inferred it). */
    CALLED_BACK(10301),
    /** The approver approved the request. */
    APPROVAL_GRANTED(10302),
    /** The approver rejected the request. */
    APPROVAL_REJECTED(10303),
    /** The request was withdrawn in the approval system. */
    APPROVAL_WITHDRAWN(10304),
    /** Merged, but no deploy report confirmed it within the deploy deadline: a person checks. */
    DEPLOY_UNCONFIRMED(10310),
    /** The deploy pipeline reported the rollout failed, or an operator marked it failed. */
    DEPLOY_FAILED(10311),

    /** Sending the request to the approval system. */
    APPROVAL_SUBMITTING(10401),
    /** The approval system accepted the request; waiting for a decision. */
    APPROVAL_SUBMITTED(10402),
    /** The approval system could not be reached or refused the request. */
    APPROVAL_SUBMIT_FAILED(10403),
    /**
     * Sending to the approval system kept failing on transient errors until the transient deadline: the
     * automatic retries stopped; a person checks the approval system, then re-triggers.
     */
    APPROVAL_SUBMIT_GAVE_UP(10450),

    /** The pipeline before merging did not finish in time: outcome unknown, a person confirms. */
    HANDLE_PIPELINE_PENDING(10501),
    /** The merge request's check pipeline did not finish in time: outcome unknown. */
    CREATE_PIPELINE_PENDING(10502),
    /** Waiting in the batch waiting set for the next round. */
    BATCH_WAITING(10503),
    /** The batch holding this change is blocked (e.g. its pipeline did not finish in time). */
    BATCH_PENDING(10504);

    private static final Map<Integer, StepStatus> BY_CODE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(StepStatus::code, Function.identity()));

    private final int code;

    StepStatus(int code) {
        this.code = code;
    }

    /** The persisted numeric code. */
    public int code() {
        return code;
    }

    /** The phase prefix used to aggregate metrics, e.g. 101 for every handling step. */
    public int phase() {
        return code / 100;
    }

    public static Optional<StepStatus> fromCode(int code) {
        return Optional.ofNullable(BY_CODE.get(code));
    }
}
