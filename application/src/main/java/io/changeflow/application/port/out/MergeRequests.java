package io.changeflow.application.port.out;

import io.changeflow.domain.batch.Settlement;
import io.changeflow.domain.mr.MergeRequestState;
import io.changeflow.domain.operation.MergeRequestRef;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
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

    /**
     * A merge request as GitLab reports it now.
     *
     * @param headPipelineRead whether this read carries the merge request's {@code head_pipeline}
     *                         ({@link #getWithHeadPipeline} does where GitLab's answer has it, {@link #get} never): then
     *                         {@code headPipeline} is what {@link #headPipeline(String, long)} would answer for this
     *                         read, and no second read of the merge request is needed
     * @param headPipeline     the head's pipeline attributed to {@code sha} of the same answer; empty when GitLab
     *                         reports none, or when {@code headPipelineRead} is false
     * @param mergeAfter       GitLab's {@code merge_after} (the merge request may only be merged after it), read where
     *                         GitLab reports {@code merge_time}; empty otherwise, or when not read
     */
    record RemoteMergeRequest(String project, long iid, MergeRequestState state, String detailedMergeStatus,
                              String sha, String sourceBranch, String webUrl, boolean rebaseInProgress,
                              Optional<String> mergeError, boolean headPipelineRead, Optional<Pipeline> headPipeline,
                              Optional<Instant> mergeAfter) {

        public RemoteMergeRequest {
            Objects.requireNonNull(headPipeline, "headPipeline");
            Objects.requireNonNull(mergeAfter, "mergeAfter");
            if (!headPipelineRead && headPipeline.isPresent()) {
                throw new IllegalArgumentException("a head pipeline comes only with a read that carries it");
            }
        }

        /** A merge request whose {@code merge_after} was not read. */
        public RemoteMergeRequest(String project, long iid, MergeRequestState state, String detailedMergeStatus,
                                  String sha, String sourceBranch, String webUrl, boolean rebaseInProgress,
                                  Optional<String> mergeError, boolean headPipelineRead, Optional<Pipeline> headPipeline) {
            this(project, iid, state, detailedMergeStatus, sha, sourceBranch, webUrl, rebaseInProgress, mergeError,
                    headPipelineRead, headPipeline, Optional.empty());
        }

        /** This read with GitLab's {@code merge_after}. */
        public RemoteMergeRequest withMergeAfter(Optional<Instant> at) {
            return new RemoteMergeRequest(project, iid, state, detailedMergeStatus, sha, sourceBranch, webUrl,
                    rebaseInProgress, mergeError, headPipelineRead, headPipeline, at);
        }

        /** The reference an operation or a batch records of this merge request. */
        public MergeRequestRef ref() {
            return new MergeRequestRef(project, iid, sourceBranch, webUrl);
        }
    }

    /** A file to create or update in one commit. */
    record FileChange(String path, String content) {}

    /**
     * A file as {@link #readFile} answered it for a branch a moment ago: its content, or empty when it did not exist.
     * Handed to {@link #commit(String, String, String, FileChange, FileRead)} so the commit need not read it again.
     */
    record FileRead(String path, Optional<String> content) {
        public FileRead {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(content, "content");
        }
    }

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
        /** Created, pending, running, preparing, scheduled or waiting (for a resource, a callback): it goes on by itself. */
        RUNNING,
        /** Succeeded. */
        PASSED,
        /** Failed. */
        FAILED,
        /**
         * GitLab's {@code manual}: its automatic jobs are done and a manual job waits for a person to start it. It
         * does not go on by itself; it counts only for a target whose pipeline policy says so
         * ({@link io.changeflow.domain.request.PipelinePolicy#MANUAL_COUNTS}).
         */
        MANUAL,
        /** GitLab's {@code skipped}: nothing ran for the commit. Counts like {@link #MANUAL}. */
        SKIPPED,
        /** Canceled (or being canceled): it will not reach a result by itself and never counts. */
        CANCELED,
        /** A status this product does not know (a newer GitLab): never read as running or passed. */
        UNKNOWN
    }

    /**
     * Result of a merge attempt that GitLab answered, read by its reason ({@code detailed_merge_status},
     * {@code has_conflicts}, {@code merge_error}, the project's {@code merge_method}), never by the HTTP status
     * alone: GitLab 17/18 and 19 answer the same reasons with different statuses (see
     * docs/external-systems-gitlab.md).
     */
    enum MergeResult {
        /** Merged now. */
        MERGED,
        /** A conflict with the target branch, or the target moved on and the project merges fast-forward only: rebase first. */
        NOT_MERGEABLE,
        /** 409: the head sha moved or the MR is locked: re-read and retry. */
        SHA_MISMATCH_OR_LOCKED,
        /** GitLab is still checking whether it can be merged (checking, unchecked, preparing): re-read and retry. */
        CANNOT_BE_MERGED_YET,
        /** GitLab says it is not approved ({@code not_approved}): the approvals are read and given again. */
        NOT_APPROVED,
        /** The head's pipeline must pass and has not ({@code ci_must_pass}). */
        PIPELINE_NOT_PASSED,
        /** The head's pipeline is still running ({@code ci_still_running}): watch it. */
        PIPELINE_RUNNING,
        /**
         * Something only a person can remove: a draft, unresolved discussions, a blocking merge request, requested
         * changes, a policy, not open, or a status this product does not know.
         */
        BLOCKED,
        /**
         * 401: the account may not merge into the target branch (GitLab's {@code can_be_merged_by?}: no Maintainer role,
         * or not allowed to merge into the protected branch). No waiting helps: a person changes the rights.
         */
        NOT_ALLOWED,
        /**
         * 422 after every check passed: GitLab's merge itself failed ({@code merge_error}: a server hook, a push rule,
         * the branch updated meanwhile) with no conflict. Rebasing cannot help: retried a bounded number of times.
         */
        REFUSED_AFTER_CHECKS,
        /**
         * Not sent: the project runs merge trains and does not allow "Merge immediately without restarting the train"
         * ({@code merge_trains_skip_train_allowed}), so any merge from outside the train would restart every pipeline
         * on it. No waiting helps: a person allows skipping or turns merge trains off.
         */
        MERGE_TRAIN_NOT_SKIPPABLE;

        /**
         * What GitLab's {@code detailed_merge_status} says a merge attempt would answer now, for every value
         * GitLab documents; empty for {@code mergeable} (and for none reported: older GitLab). An undocumented
         * value is {@link #BLOCKED}: never guessed to be mergeable.
         */
        public static Optional<MergeResult> expectedFor(String detailedMergeStatus) {
            if (detailedMergeStatus == null || detailedMergeStatus.isBlank()) {
                return Optional.empty();
            }
            return switch (detailedMergeStatus.trim().toLowerCase(Locale.ROOT)) {
                case "mergeable" -> Optional.empty();
                case "checking", "unchecked", "preparing", "approvals_syncing" -> Optional.of(CANNOT_BE_MERGED_YET);
                case "conflict", "need_rebase", "broken_status" -> Optional.of(NOT_MERGEABLE);
                case "not_approved" -> Optional.of(NOT_APPROVED);
                case "ci_must_pass" -> Optional.of(PIPELINE_NOT_PASSED);
                case "ci_still_running" -> Optional.of(PIPELINE_RUNNING);
                default -> Optional.of(BLOCKED);
            };
        }
    }

    /** The content of {@code path} on {@code ref}, or empty when the file does not exist. */
    Optional<String> readFile(String project, String ref, String path);

    /** A commit as a log lists it: its sha and its whole message. */
    record CommitSummary(String sha, String message) {
        public CommitSummary {
            Objects.requireNonNull(sha, "sha");
            message = message == null ? "" : message;
        }
    }

    /**
     * The commits on {@code ref} that {@code branch} does not have and that changed {@code path}, newest first: git's
     * {@code git log branch..ref -- path} (GitLab: {@code GET /projects/:id/repository/commits} with
     * {@code ref_name=branch..ref} and {@code path}, lib/api/commits.rb). With git's default history simplification a
     * merge commit that took the file from one of its parents is not listed, the commit that changed it is. At most
     * {@code limit} commits; empty when none changed the file since the branch left {@code ref}.
     *
     * @throws ExternalCallException GitLab refused (e.g. 404 for a branch that does not exist) or did not answer
     */
    List<CommitSummary> commitsOnlyOn(String project, String ref, String branch, String path, int limit);

    /**
     * The commit a merged merge request put on its target branch, to read what the merge really wrote: GitLab's
     * {@code merged_commit_sha} (app/models/merge_request.rb: {@code merge_commit_sha}, else {@code squash_commit_sha},
     * else the head sha of a fast-forward merge). Empty while the merge request is not merged.
     */
    Optional<String> mergedCommit(String project, long iid);

    /**
     * Issue 37: whether commit {@code ancestor} is {@code descendant} itself or one of its ancestors, i.e. whether a
     * deploy of {@code descendant} holds what {@code ancestor} put there. Read as GitLab's merge base of the two being
     * {@code ancestor} ({@code GET /projects/:id/repository/merge_base?refs[]=ancestor&refs[]=descendant},
     * lib/api/repositories.rb: 400 "Could not find ref" for an unknown commit, 404 "Merge Base Not Found" when they
     * share no history); false for both of those.
     *
     * @throws ExternalCallException GitLab did not answer, or answered anything else
     */
    boolean isAncestor(String project, String ancestor, String descendant);

    /** The project's default branch (target of merge requests). */
    String defaultBranch(String project);

    /** Creates {@code branch} from {@code fromRef}; an existing branch is left as it is (idempotent). */
    void createBranch(String project, String branch, String fromRef);

    /**
     * The commit {@code branch} points to now, read from the repository (GitLab updates it synchronously with
     * the push, unlike a merge request's {@code sha}, which it refreshes a moment later). Empty when the branch
     * does not exist.
     */
    Optional<String> branchHead(String project, String branch);

    /** Commits all {@code files} to {@code branch} in one commit (creating files that do not exist). */
    void commit(String project, String branch, String message, List<FileChange> files);

    /**
     * {@link #commit(String, String, String, List)} of one file whose content on {@code branch} the caller has just read
     * ({@code read}, for the same path): its first attempt decides between creating and updating the file from that read
     * instead of reading it again (issue 33 item 3: one read of the grant file per create step). A read gone stale
     * meanwhile costs a refused commit, never a wrong one: GitLab refuses to create a file that exists and to update one
     * that does not (400 "A file with this name already exists" / "doesn't exist", lib/gitlab/git/index.rb), and the
     * content committed is the caller's either way. A try after a failed attempt (whose commit may have landed) reads
     * again. The default reads again.
     */
    default void commit(String project, String branch, String message, FileChange file, FileRead read) {
        if (!file.path().equals(read.path())) {
            throw new IllegalArgumentException("the read is of " + read.path() + ", the change of " + file.path());
        }
        commit(project, branch, message, List.of(file));
    }

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
     * {@link #get} carrying the merge request's head pipeline from the same answer
     * ({@link RemoteMergeRequest#headPipelineRead}), for a caller about to look at it: one GitLab call, not two. The
     * default carries none (the head pipeline is then read on its own).
     */
    default RemoteMergeRequest getWithHeadPipeline(String project, long iid) {
        return get(project, iid);
    }

    /**
     * The merge request's latest pipeline (the highest ID), whichever commit it ran for: right after a
     * push or a rebase it can still be the previous head's, until GitLab creates the new head's. The
     * caller compares {@link Pipeline#sha} with the head sha of {@link #get}.
     *
     * @return empty when the merge request has no pipeline yet (GitLab has not created it)
     */
    Optional<Pipeline> latestPipeline(String project, long iid);

    /**
     * The pipeline GitLab reports as the merge request's {@code head_pipeline}: the one that speaks for its head
     * {@code sha} as the same read reports it (for a merged-results pipeline that is the pipeline of the head merged
     * into the target: its own {@code sha} is the merge commit's, its {@link Pipeline#sha} here is the head's). The
     * head as read may lag behind a push (GitLab refreshes it asynchronously): the caller compares
     * {@link Pipeline#sha} with {@link #branchHead}.
     *
     * <p>The default, for GitLabs that report no head pipeline, is {@link #latestPipeline} if it ran for the head.
     *
     * @return empty when GitLab reports none for the head (not created yet, or no CI)
     */
    default Optional<Pipeline> headPipeline(String project, long iid) {
        var head = get(project, iid).sha();
        return latestPipeline(project, iid).filter(pipeline -> pipeline.ranFor(head));
    }

    /**
     * The head pipeline of {@code remote} (read just now): the one its read carries, with no call
     * ({@link RemoteMergeRequest#headPipelineRead}), otherwise {@link #headPipeline(String, long)}.
     */
    default Optional<Pipeline> headPipeline(RemoteMergeRequest remote) {
        return remote.headPipelineRead() ? remote.headPipeline() : headPipeline(remote.project(), remote.iid());
    }

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
     * Approves as approval bot {@code account} (one of {@link #approvalAccounts}). Already approved is success
     * (GitLab 19.x answers 304). GitLab 17/18.x answers 401 both when this account already approved and when it
     * may not approve: the caller re-reads {@link #approvedBy} to tell them apart. 403: this account is not
     * eligible to approve (not a member, not in an approval rule): approving again cannot help.
     */
    void approve(String project, long iid, String account);

    /**
     * The merge request's approvals as GitLab judges them: who approved, and whether its approval rules
     * ({@code approvals_required}, eligible approvers, code owners) are met. A merge is allowed by GitLab only
     * when {@code approved}; accounts of our approval bots in {@code approvedBy} do not prove it.
     *
     * @param approvedBy    accounts that approved so far, in approval order (GitLab removes them when it resets
     *                      approvals on push)
     * @param approved      GitLab says the merge request is approved ({@code approvals_left} is 0)
     * @param approvalsLeft how many approvals GitLab still requires (0 when approved)
     */
    record ApprovalState(Set<String> approvedBy, boolean approved, int approvalsLeft) {
        public ApprovalState {
            approvedBy = Collections.unmodifiableSet(new LinkedHashSet<>(approvedBy));
            approvalsLeft = Math.max(0, approvalsLeft);
        }
    }

    /**
     * Reads {@link ApprovalState} ({@code GET .../approvals}). The default answers from {@link #approvedBy}
     * alone, as if GitLab required nothing more: adapters that can read GitLab's judgement override it.
     */
    default ApprovalState approvalState(String project, long iid) {
        return new ApprovalState(approvedBy(project, iid), true, 0);
    }

    /**
     * Approves head {@code sha} as approval bot {@code account}: GitLab refuses (409) when the head moved since,
     * so an approval never covers a commit the caller did not see. Answers as {@link #approve(String, long, String)};
     * the default ignores {@code sha}.
     */
    default void approve(String project, long iid, String account, String sha) {
        approve(project, iid, account);
    }

    /**
     * {@link #approve(String, long, String, String)} answering the approval state GitLab's answer carries: GitLab answers
     * an approval with the same approvals entity as {@link #approvalState} reads ({@code post 'approve'} and
     * {@code get 'approvals'} both end in {@code present_approval(merge_request)}, lib/api/merge_request_approvals.rb),
     * so a caller whose last approval answered needs no read of the approvals after it (issue 33 item 3). Empty when
     * the answer carries none (GitLab 19.x's 304 for an approval given already); the default approves and answers
     * empty. Fails as {@link #approve(String, long, String, String)} does.
     */
    default Optional<ApprovalState> approveWithState(String project, long iid, String account, String sha) {
        approve(project, iid, account, sha);
        return Optional.empty();
    }

    /**
     * Merges if the head is still {@code sha} (pinned: GitLab refuses with 409 if it moved). A refusal is read by
     * its reason, see {@link MergeResult}.
     */
    MergeResult merge(String project, long iid, String sha);

    /**
     * {@link #merge}, answering the merged commit GitLab's answer names (issue 33 item 3): GitLab answers a merge done
     * now with the merge request as merged ({@code put ':id/merge_requests/:merge_request_iid/merge'} runs
     * {@code MergeService} in the request and presents the merge request, or answers 422 when it is not merged,
     * lib/api/merge_requests.rb, 16.x to 19.x), so its {@code merge_commit_sha} (else {@code squash_commit_sha}, else
     * {@code sha} for a fast-forward) is the commit {@link #mergedCommit} would read right after. Empty when the result is
     * not {@link MergeResult#MERGED} or the answer names none: the caller reads {@link #mergedCommit} as before. The
     * default merges and answers no commit. Fails as {@link #merge} does.
     */
    default MergeAnswer mergeWithCommit(String project, long iid, String sha) {
        return new MergeAnswer(merge(project, iid, sha), Optional.empty());
    }

    /** What a merge answered: its result and, when merged now, the merged commit the answer names. */
    record MergeAnswer(MergeResult result, Optional<String> mergedCommit) {
        public MergeAnswer {
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(mergedCommit, "mergedCommit");
            if (result != MergeResult.MERGED && mergedCommit.isPresent()) {
                throw new IllegalArgumentException("a merged commit without a merge: " + result);
            }
        }
    }

    /**
     * Asks GitLab to rebase; progress is read from {@link #get} ({@code rebaseInProgress}, {@code mergeError}). GitLab's
     * refusals leave as {@link ExternalCallException} with their status: 409, the rebase could not be queued (try again
     * later; nothing was started); 403, the author bot may not rewrite the source branch (it is protected from force
     * push, the bot may not push to it, or it is gone): a person changes that.
     */
    void rebase(String project, long iid);

    /** Closes the merge request; already closed or merged is not an error. */
    void close(String project, long iid);

    /**
     * Closes the merge request if it still needs closing ({@link Settlement#needsClose}) and answers its state:
     * read again after the close, or as first read when there was nothing to close. Merged wins over closed: the
     * caller reads the answer with {@link Settlement#afterReread}.
     */
    default MergeRequestState closeAndReread(String project, long iid) {
        var before = get(project, iid).state();
        if (!Settlement.needsClose(before)) {
            return before;
        }
        close(project, iid);
        return get(project, iid).state();
    }

    /**
     * Reopens a merge request closed without merging (its source branch must exist); an open one is left as it is.
     * A request keeps its one merge request: re-running the create step after someone closed it reopens it rather
     * than opening a second one.
     */
    void reopen(String project, long iid);
}
