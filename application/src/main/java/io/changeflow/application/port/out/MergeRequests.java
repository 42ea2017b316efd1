package io.changeflow.application.port.out;

import io.changeflow.domain.mr.MergeRequestState;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * GitLab, as the workflow needs it. The author bot creates branches, commits and merge requests;
 * the approval bots ({@link #approvalAccounts}) approve; merging uses the head sha seen (GitLab refuses
 * if it moved). All methods that call GitLab throw {@link ExternalCallException} on failure, with the
 * real HTTP status.
 */
public interface MergeRequests {

    /** A merge request as GitLab reports it now. */
    record RemoteMergeRequest(String project, long iid, MergeRequestState state, String detailedMergeStatus,
                              String sha, String sourceBranch, String webUrl, boolean rebaseInProgress,
                              Optional<String> mergeError) {}

    /** A file to create or update in one commit. */
    record FileChange(String path, String content) {}

    /**
     * A pipeline of a merge request, tied to the commit it ran for: its result speaks for {@code sha}
     * only, so a passed pipeline of an older head says nothing about the merge request's head now.
     *
     * @param id     GitLab's pipeline ID (grows with every new pipeline)
     * @param sha    the commit the pipeline ran for ("" when GitLab did not say)
     * @param status what it says about that commit
     */
    record Pipeline(long id, String sha, PipelineStatus status) {
        public Pipeline {
            sha = sha == null ? "" : sha;
            Objects.requireNonNull(status, "status");
        }

        /** Whether this pipeline ran for {@code headSha} (the merge request's head as {@link #get} reads it). */
        public boolean ranFor(String headSha) {
            return !sha.isEmpty() && sha.equals(headSha);
        }
    }

    /** What a pipeline says about the commit it ran for. */
    enum PipelineStatus {
        /** Created, pending or running (or waiting, e.g. for a manual job). */
        RUNNING,
        /** Succeeded. */
        PASSED,
        /** Failed or canceled. */
        FAILED
    }

    /** Result of a merge attempt that GitLab answered. */
    enum MergeResult {
        /** Merged now. */
        MERGED,
        /** 405 (GitLab's real answer; the docs say 406) or a conflict: rebase, then retry. */
        NOT_MERGEABLE,
        /** 409: the head sha moved or the MR is locked: re-read and retry. */
        SHA_MISMATCH_OR_LOCKED,
        /** 422 "cannot be merged": often transient right after a push; re-read and retry. */
        CANNOT_BE_MERGED_YET
    }

    /** The content of {@code path} on {@code ref}, or empty when the file does not exist. */
    Optional<String> readFile(String project, String ref, String path);

    /** The project's default branch (target of merge requests). */
    String defaultBranch(String project);

    /** Creates {@code branch} from {@code fromRef}; an existing branch is left as it is (idempotent). */
    void createBranch(String project, String branch, String fromRef);

    /** Commits all {@code files} to {@code branch} in one commit (creating files that do not exist). */
    void commit(String project, String branch, String message, List<FileChange> files);

    /**
     * Replaces {@code branch} with exactly one new commit on top of {@code onto}'s current head, holding
     * {@code files} (GitLab: {@code POST /projects/:id/repository/commits} with {@code start_branch=onto} and
     * {@code force=true}). Whatever the branch held before is no longer on it: every file not named in
     * {@code files} is as on {@code onto}. Used to generate a change again on the current target branch when
     * its merge request cannot be rebased.
     *
     * <p>For an open merge request from {@code branch} this is a push: it gets a new head sha and a new
     * pipeline for it, GitLab checks its mergeability again, a rebase conflict it had is gone, and GitLab may
     * remove its approvals (the project's "reset approvals on push"); the caller reads
     * {@link #get}, {@link #latestPipeline} and {@link #approvedBy} again before merging. The branch is
     * created from {@code onto} when it does not exist.
     *
     * <p>Not idempotent in form (each call makes a new commit with a new sha) but in effect: calling it again
     * with the same arguments leaves the branch with the same files on the same base, so a call whose answer
     * was lost may simply be repeated.
     *
     * @param onto    the branch the new commit starts from (the merge request's target branch)
     * @param message the commit message
     * @param files   the complete content of each file the change touches, created or updated on {@code onto}'s content
     * @throws ExternalCallException GitLab refused or did not answer (e.g. {@code onto} does not exist: 400)
     */
    void rewriteBranch(String project, String branch, String onto, String message, List<FileChange> files);

    /** The open (or merged) merge request whose source is {@code branch}, if any (re-trigger safety). */
    Optional<RemoteMergeRequest> findBySourceBranch(String project, String branch);

    RemoteMergeRequest open(String project, String sourceBranch, String targetBranch, String title, String description);

    /** Reads the merge request; while GitLab still computes mergeability (checking/unchecked) the caller polls. */
    RemoteMergeRequest get(String project, long iid);

    /**
     * The merge request's latest pipeline (the highest ID), whichever commit it ran for: right after a
     * push or a rebase it can still be the previous head's, until GitLab creates the new head's. The
     * caller compares {@link Pipeline#sha} with the head sha of {@link #get}.
     *
     * @return empty when the merge request has no pipeline yet (GitLab has not created it)
     */
    Optional<Pipeline> latestPipeline(String project, long iid);

    /**
     * The approval bot accounts, in the order the workflow approves with them; every one of them approves
     * each merge request. Configuration of this adapter, not a GitLab call: no duplicates, the same answer
     * for the life of the process, never throws {@link ExternalCallException}. Empty when no approval bot
     * is configured: then nothing may be merged (the workflow refuses, it never reads empty as "no
     * approval needed").
     */
    List<String> approvalAccounts();

    /** Accounts that approved the merge request so far. */
    Set<String> approvedBy(String project, long iid);

    /**
     * Approves as approval bot {@code account} (one of {@link #approvalAccounts}). GitLab answers 401 both
     * when this account already approved and when it may not approve: the caller re-reads
     * {@link #approvedBy} to tell them apart.
     */
    void approve(String project, long iid, String account);

    /** Merges if the head is still {@code sha}. */
    MergeResult merge(String project, long iid, String sha);

    /** Asks GitLab to rebase; progress is read from {@link #get} ({@code rebaseInProgress}, {@code mergeError}). */
    void rebase(String project, long iid);

    /** Closes the merge request; already closed or merged is not an error. */
    void close(String project, long iid);
}
