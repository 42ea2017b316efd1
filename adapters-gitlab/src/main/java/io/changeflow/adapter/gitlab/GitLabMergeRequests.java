package io.changeflow.adapter.gitlab;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.domain.mr.MergeRequestState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.gitlab4j.api.GitLabApi;
import org.gitlab4j.api.GitLabApiException;
import org.gitlab4j.api.models.AcceptMergeRequestParams;
import org.gitlab4j.api.models.CommitAction;
import org.gitlab4j.api.models.CommitPayload;
import org.gitlab4j.api.models.MergeRequest;
import org.gitlab4j.api.models.MergeRequestFilter;
import org.gitlab4j.api.models.MergeRequestParams;
import org.gitlab4j.models.Constants;

/**
 * {@link MergeRequests} on GitLab through gitlab4j-api. The author bot creates and reads; approvals go
 * through {@link BotApproval} as the named approval bot. Every call is guarded by {@link GitLabCalls}
 * (timeouts, circuit breaker, one exception type).
 *
 * <p>A refused merge is read by its reason, not its HTTP status, which differs between GitLab versions
 * ({@link GitLabMergeAnswers}); a stale sha answers 409 everywhere. {@link #get} reports the merge request's
 * status and the caller polls, nothing here waits for GitLab's state to change. Pipelines are the merge
 * request's {@code head_pipeline}, attributed to the commit it ran for ({@link GitLabHeadPipeline}), every status
 * mapped explicitly.
 *
 * <p>Reads (merge request, pipelines, approvals, files, project) go through {@link GitLabCalls#read}: one that
 * fails transiently is tried again a few times after a short pause. Writes are made once; the workflow reads
 * remote state before it repeats one.
 */
final class GitLabMergeRequests implements MergeRequests {

    private final GitLabBots bots;
    private final GitLabCalls calls;
    private final BotApproval approval;
    private final CommitParents parents;

    private final GitLabMergeTrains trains;
    private final GitLabMergeAfter mergeAfter;

    GitLabMergeRequests(GitLabBots bots, GitLabCalls calls, BotApproval approval, GitLabMergeTrains trains,
                        GitLabMergeAfter mergeAfter) {
        this.bots = bots;
        this.calls = calls;
        this.approval = approval;
        this.trains = trains;
        this.mergeAfter = mergeAfter;
        this.parents = new CommitParents((project, sha) -> GitLabHeadPipeline.commitParents(calls, bots, project).apply(sha));
    }

    @Override
    public Optional<String> readFile(String project, String ref, String path) {
        return calls.read("readFile", () -> {
            try {
                return Optional.of(author().getRepositoryFileApi().getFile(project, path, ref).getDecodedContentAsString());
            } catch (GitLabApiException e) {
                if (isFileOrRefNotFound(e)) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    /**
     * {@code GET /projects/:id/repository/commits?ref_name=branch..ref&path=path} (doc/api/commits.md: "ref_name: the
     * name of a repository branch, tag or revision range"), one page of at most {@code limit}.
     */
    @Override
    public List<CommitSummary> commitsOnlyOn(String project, String ref, String branch, String path, int limit) {
        return calls.read("commitsOnlyOn", () -> author().getCommitsApi()
                .getCommits(project, branch + ".." + ref, null, null, path, 1, Math.max(1, Math.min(limit, 100))).stream()
                .map(commit -> new CommitSummary(commit.getId(), commit.getMessage()))
                .toList());
    }

    @Override
    public Optional<String> mergedCommit(String project, long iid) {
        return calls.read("mergedCommit", () -> {
            var mr = author().getMergeRequestApi().getMergeRequest(project, iid);
            return mergedCommitOf(mr);
        });
    }

    /**
     * GitLab's {@code merged_commit_sha} of a merge request as its entity shows it: {@code merge_commit_sha}, else
     * {@code squash_commit_sha}, else the head {@code sha} (a fast-forward); empty unless it reads merged.
     */
    private static Optional<String> mergedCommitOf(MergeRequest mr) {
        if (mr == null || !"merged".equalsIgnoreCase(mr.getState())) {
            return Optional.empty();
        }
        return firstPresent(mr.getMergeCommitSha(), mr.getSquashCommitSha(), mr.getSha());
    }

    /**
     * {@code GET repository/merge_base?refs[]=ancestor&refs[]=descendant} (lib/api/repositories.rb): the ancestor is
     * contained when the merge base is itself. 400 "Could not find ref" (an unknown commit) and 404 "Merge Base Not
     * Found" (no shared history) answer false; anything else fails the call.
     */
    @Override
    public boolean isAncestor(String project, String ancestor, String descendant) {
        return calls.read("isAncestor", () -> {
            try {
                var base = author().getRepositoryApi().getMergeBase(project, List.of(ancestor, descendant));
                return base != null && ancestor.equalsIgnoreCase(base.getId());
            } catch (GitLabApiException e) {
                if ((e.getHttpStatus() == 400 && e.getMessage() != null && e.getMessage().contains("Could not find"))
                        || isFileOrRefNotFound(e)) {
                    return false;
                }
                throw e;
            }
        });
    }

    private static Optional<String> firstPresent(String... shas) {
        for (var sha : shas) {
            if (sha != null && !sha.isBlank()) {
                return Optional.of(sha);
            }
        }
        return Optional.empty();
    }

    @Override
    public String defaultBranch(String project) {
        if (trains != null) {
            return trains.projects().defaultBranch(project); // issue 33 item 3: cached for a short time (GitLabProjects)
        }
        return calls.read("defaultBranch", () -> author().getProjectApi().getProject(project).getDefaultBranch());
    }

    @Override
    public void createBranch(String project, String branch, String fromRef) {
        // idempotent in effect (an existing branch is success), so a transient failure is tried again at once
        calls.idempotent("createBranch", () -> calls.call("createBranch", () -> {
            try {
                return GitLabPushRefusals.of("createBranch", () -> author().getRepositoryApi().createBranch(project, branch, fromRef));
            } catch (GitLabApiException e) {
                // 400 "Branch already exists": an earlier attempt (maybe one whose answer was lost) made it.
                if (e.getHttpStatus() == 400 && branchExists(project, branch)) {
                    return null;
                }
                throw e;
            }
        }));
    }

    @Override
    public Optional<String> branchHead(String project, String branch) {
        return calls.read("branchHead", () -> {
            try {
                var found = author().getRepositoryApi().getBranch(project, branch);
                return Optional.ofNullable(found.getCommit()).map(commit -> commit.getId());
            } catch (GitLabApiException e) {
                if (isFileOrRefNotFound(e)) {
                    return Optional.empty();
                }
                throw e;
            }
        });
    }

    @Override
    public void commit(String project, String branch, String message, List<FileChange> files) {
        // idempotent in effect: each attempt first reads what the branch holds and commits only what is missing,
        // so an attempt whose answer was lost is not committed twice when it is tried again
        calls.idempotent("commit", () -> {
            commitOnce(project, branch, message, files);
            return null;
        });
    }

    /**
     * Issue 33 item 3: the first attempt decides create or update from the caller's read of the file; a try after a
     * failed attempt (whose commit may have landed) reads again, as {@link #commit(String, String, String, List)} does.
     */
    @Override
    public void commit(String project, String branch, String message, FileChange file, FileRead read) {
        if (!file.path().equals(read.path())) {
            throw new IllegalArgumentException("the read is of " + read.path() + ", the change of " + file.path());
        }
        var first = new AtomicBoolean(true);
        calls.idempotent("commit", () -> {
            commitOnce(project, branch, message, List.of(file), first.getAndSet(false) ? read : null);
            return null;
        });
    }

    private void commitOnce(String project, String branch, String message, List<FileChange> files) {
        commitOnce(project, branch, message, files, null);
    }

    /** @param known the caller's read of one of the files, used instead of reading that file again; null: none */
    private void commitOnce(String project, String branch, String message, List<FileChange> files, FileRead known) {
        var actions = new ArrayList<CommitAction>();
        for (var file : files) {
            var current = known != null && known.path().equals(file.path()) ? known.content()
                    : readFile(project, branch, file.path());
            if (current.isPresent() && current.get().equals(file.content())) {
                continue;
            }
            actions.add(new CommitAction()
                    .withAction(current.isPresent() ? CommitAction.Action.UPDATE : CommitAction.Action.CREATE)
                    .withFilePath(file.path())
                    .withContent(file.content())
                    .withEncoding(Constants.Encoding.TEXT));
        }
        if (actions.isEmpty()) {
            // Every file already has this content (a re-run after an earlier commit landed): nothing to commit.
            return;
        }
        calls.call("commit", () -> GitLabPushRefusals.of("commit", () -> author().getCommitsApi().createCommit(project,
                new CommitPayload().withBranch(branch).withCommitMessage(message).withActions(actions))));
    }

    @Override
    public void rewriteBranch(String project, String branch, String onto, String message, List<FileChange> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("a rewritten branch holds at least one changed file");
        }
        var actions = new ArrayList<CommitAction>();
        for (var file : files) {
            // The new commit starts from onto: create or update is decided against onto's content, not the branch's.
            actions.add(new CommitAction()
                    .withAction(readFile(project, onto, file.path()).isPresent() ? CommitAction.Action.UPDATE : CommitAction.Action.CREATE)
                    .withFilePath(file.path())
                    .withContent(file.content())
                    .withEncoding(Constants.Encoding.TEXT));
        }
        calls.call("rewriteBranch", () -> GitLabPushRefusals.of("rewriteBranch", () -> author().getCommitsApi().createCommit(project,
                new CommitPayload().withBranch(branch).withStartBranch(onto).withForce(true).withCommitMessage(message)
                        .withActions(actions))));
    }

    @Override
    public Optional<RemoteMergeRequest> findBySourceBranch(String project, String branch) {
        List<MergeRequest> found = calls.read("findBySourceBranch", () -> author().getMergeRequestApi().getMergeRequests(
                project, new MergeRequestFilter().withSourceBranch(branch).withState(Constants.MergeRequestState.ALL)));
        return found.stream()
                .filter(mr -> branch.equals(mr.getSourceBranch()))
                .filter(mr -> !"closed".equals(mr.getState()))
                .max(Comparator.comparing((MergeRequest mr) -> !"merged".equals(mr.getState()))
                        .thenComparing(mr -> mr.getIid() == null ? 0L : mr.getIid()))
                .map(mr -> toRemote(project, mr));
    }

    @Override
    public RemoteMergeRequest open(String project, String sourceBranch, String targetBranch, String title,
                                   String description) {
        // idempotent in effect (409 finds the one an earlier attempt opened): tried again on a transient failure
        return calls.idempotent("open", () -> openOnce(project, sourceBranch, targetBranch, title, description));
    }

    private RemoteMergeRequest openOnce(String project, String sourceBranch, String targetBranch, String title,
                                        String description) {
        try {
            var created = calls.call("open", () -> author().getMergeRequestApi().createMergeRequest(
                    project, sourceBranch, targetBranch, title, description, null));
            return toRemote(project, created);
        } catch (ExternalCallException e) {
            // 409: an open merge request from this branch exists already (e.g. the answer to an earlier try was lost).
            if (e.kind() == ExternalCallException.Kind.HTTP_STATUS && e.status() == 409) {
                var existing = findBySourceBranch(project, sourceBranch);
                if (existing.isPresent() && existing.get().state() != MergeRequestState.MERGED) {
                    return existing.get();
                }
            }
            throw e;
        }
    }

    @Override
    public RemoteMergeRequest get(String project, long iid) {
        return read(project, iid, false);
    }

    /** {@code GET .../merge_requests/:iid} answers with {@code head_pipeline} (null when there is none): it is kept. */
    @Override
    public RemoteMergeRequest getWithHeadPipeline(String project, long iid) {
        return read(project, iid, true);
    }

    private RemoteMergeRequest read(String project, long iid, boolean withHeadPipeline) {
        Optional<MergeRequest> found = calls.read("get", () -> {
            try {
                return Optional.of(author().getMergeRequestApi().getMergeRequest(project, iid, null, null, true));
            } catch (GitLabApiException e) {
                if (e.getHttpStatus() == 404 && !isProjectNotFound(e)) {
                    return Optional.empty();
                }
                throw e;
            }
        });
        if (found.isEmpty()) {
            return absent(project, iid);
        }
        var remote = withHeadPipeline ? withHeadPipeline(project, found.get()) : toRemote(project, found.get());
        if (mergeAfter != null && "merge_time".equalsIgnoreCase(String.valueOf(remote.detailedMergeStatus()))) {
            // issue 35: a merge request that may be merged only after a time waits for it (GitLabMergeAfter)
            return remote.withMergeAfter(mergeAfter.of(project, iid));
        }
        return remote;
    }

    @Override
    public Optional<Pipeline> latestPipeline(String project, long iid) {
        List<org.gitlab4j.api.models.Pipeline> pipelines = calls.read("latestPipeline",
                () -> author().getMergeRequestApi().getMergeRequestPipelines(project, iid));
        return pipelines.stream()
                .max(Comparator.comparing(p -> p.getId() == null ? 0L : p.getId()))
                .map(GitLabMergeRequests::toPipeline);
    }

    /** The merge request's {@code head_pipeline}, attributed to the commit it ran for ({@link GitLabHeadPipeline}). */
    @Override
    public Optional<Pipeline> headPipeline(String project, long iid) {
        MergeRequest mr = calls.read("headPipeline", () -> author().getMergeRequestApi().getMergeRequest(project, iid));
        return GitLabHeadPipeline.of(mr, parents.of(project));
    }

    /** {@link #toRemote} with the answer's {@code head_pipeline}: a look at it then needs no second read of the merge request. */
    private RemoteMergeRequest withHeadPipeline(String project, MergeRequest mr) {
        var remote = toRemote(project, mr);
        return new RemoteMergeRequest(remote.project(), remote.iid(), remote.state(), remote.detailedMergeStatus(),
                remote.sha(), remote.sourceBranch(), remote.webUrl(), remote.rebaseInProgress(), remote.mergeError(),
                true, GitLabHeadPipeline.of(mr, parents.of(project)));
    }

    @Override
    public List<String> approvalAccounts() {
        return bots.approverAccounts();
    }

    @Override
    public Set<String> approvedBy(String project, long iid) {
        return approvalState(project, iid).approvedBy();
    }

    /**
     * {@code GET .../approvals}: {@code approved_by[].user.username}, and GitLab's own judgement from
     * {@code approvals_left} (0: approved; absent, as on a GitLab without approval rules: nothing more required).
     */
    @Override
    public ApprovalState approvalState(String project, long iid) {
        return ApprovalAnswers.of(calls.read("approvedBy", () -> author().getMergeRequestApi().getApprovals(project, iid)));
    }

    @Override
    public void approve(String project, long iid, String account) {
        approval.approve(project, iid, account, null);
    }

    @Override
    public void approve(String project, long iid, String account, String sha) {
        approveWithState(project, iid, account, sha);
    }

    /** GitLab answers an approval with the approvals entity ({@link ApprovalAnswers}); 304 (given already) with none. */
    @Override
    public Optional<ApprovalState> approveWithState(String project, long iid, String account, String sha) {
        return approval.approve(project, iid, account, sha == null || sha.isBlank() ? null : sha);
    }

    @Override
    public MergeResult merge(String project, long iid, String sha) {
        return mergeWithCommit(project, iid, sha).result();
    }

    /**
     * The merge; a 200 answers the merge request as merged (lib/api/merge_requests.rb answers 422 when
     * {@code MergeService} did not merge it), whose merged commit is read from the answer as {@link #mergedCommit} reads
     * it from the merge request. The merge skipping a train (a raw call) names no commit: it is read after.
     */
    @Override
    public MergeAnswer mergeWithCommit(String project, long iid, String sha) {
        // Issue 35: never join a merge train, skip it where the project allows that, else leave it to a person
        // (a plain merge would restart every pipeline on the train): GitLabMergeTrains
        var way = trains.wayFor(project);
        if (way == GitLabMergeTrains.Way.NOT_SKIPPABLE) {
            return new MergeAnswer(MergeResult.MERGE_TRAIN_NOT_SKIPPABLE, Optional.empty());
        }
        try {
            if (way == GitLabMergeTrains.Way.SKIP_TRAIN) {
                trains.mergeSkippingTheTrain(project, iid, sha);
                return new MergeAnswer(MergeResult.MERGED, Optional.empty());
            }
            var merged = calls.call("merge", () -> author().getMergeRequestApi().acceptMergeRequest(
                    project, iid, new AcceptMergeRequestParams().withSha(sha)));
            return new MergeAnswer(MergeResult.MERGED, mergedCommitOf(merged));
        } catch (ExternalCallException e) {
            if (e.kind() != ExternalCallException.Kind.HTTP_STATUS) {
                throw e;
            }
            return new MergeAnswer(switch (e.status()) {
                case 409 -> MergeResult.SHA_MISMATCH_OR_LOCKED;
                // lib/api/merge_requests.rb: unauthorized! unless merge_request.can_be_merged_by?(current_user)
                case 401 -> MergeResult.NOT_ALLOWED;
                // 17/18.x and 19.x give these statuses different meanings: the reason is read from the merge request.
                case 405, 406, 422 -> refusalReason(project, iid, e.status());
                default -> throw e;
            }, Optional.empty());
        }
    }

    private MergeResult refusalReason(String project, long iid, int httpStatus) {
        MergeRequest mr = calls.read("get", () -> author().getMergeRequestApi().getMergeRequest(project, iid, null, null, true));
        return GitLabMergeAnswers.refusal(httpStatus, mr,
                () -> calls.read("mergeMethod", () -> author().getProjectApi().getProject(project).getMergeMethod()));
    }

    @Override
    public void rebase(String project, long iid) {
        // 409 is not "already in progress": GitLab could not queue the rebase (MergeRequest::RebaseLockTimeout, "Failed
        // to enqueue the rebase operation ... Try again later."), and 403 is RebaseService#validate refusing it (source
        // branch missing, the bot may not push to it, or it is protected from force push): lib/api/merge_requests.rb,
        // app/services/merge_requests/rebase_service.rb (17.x to 19.2). Both leave with their status for the caller.
        calls.call("rebase", () -> author().getMergeRequestApi().rebaseMergeRequest(project, iid));
    }

    @Override
    public void reopen(String project, long iid) {
        if (get(project, iid).state() != MergeRequestState.CLOSED) {
            return;
        }
        calls.call("reopen", () -> author().getMergeRequestApi().updateMergeRequest(project, iid,
                new MergeRequestParams().withStateEvent(Constants.StateEvent.REOPEN)));
    }

    @Override
    public void close(String project, long iid) {
        var current = get(project, iid);
        if (current.state() != MergeRequestState.OPENED && current.state() != MergeRequestState.LOCKED) {
            return;
        }
        calls.call("close", () -> author().getMergeRequestApi().updateMergeRequest(project, iid,
                new MergeRequestParams().withStateEvent(Constants.StateEvent.CLOSE)));
    }

    static RemoteMergeRequest toRemote(String project, MergeRequest mr) {
        return new RemoteMergeRequest(project, mr.getIid() == null ? 0 : mr.getIid(), toState(mr.getState()),
                mr.getDetailedMergeStatus(), mr.getSha(), mr.getSourceBranch(), mr.getWebUrl(),
                Boolean.TRUE.equals(mr.getRebaseInProgress()),
                Optional.ofNullable(mr.getMergeError()).filter(error -> !error.isBlank()), false, Optional.empty());
    }

    static MergeRequestState toState(String state) {
        if (state == null) {
            return MergeRequestState.ABSENT;
        }
        return switch (state.toLowerCase(Locale.ROOT)) {
            case "opened", "reopened" -> MergeRequestState.OPENED;
            case "merged" -> MergeRequestState.MERGED;
            case "closed" -> MergeRequestState.CLOSED;
            case "locked" -> MergeRequestState.LOCKED;
            default -> MergeRequestState.ABSENT;
        };
    }

    /** A pipeline as the port reports it: its ID, the commit it ran for and its status. */
    static Pipeline toPipeline(org.gitlab4j.api.models.Pipeline pipeline) {
        return new Pipeline(pipeline.getId() == null ? 0L : pipeline.getId(), pipeline.getSha(),
                GitLabMergeAnswers.pipelineStatus(pipeline));
    }

    private GitLabApi author() {
        return bots.author();
    }

    private static RemoteMergeRequest absent(String project, long iid) {
        return new RemoteMergeRequest(project, iid, MergeRequestState.ABSENT, null, null, null, null, false,
                Optional.empty(), false, Optional.empty());
    }

    private boolean branchExists(String project, String branch) throws GitLabApiException {
        try {
            author().getRepositoryApi().getBranch(project, branch);
            return true;
        } catch (GitLabApiException e) {
            if (e.getHttpStatus() == 404) {
                return false;
            }
            throw e;
        }
    }

    private static boolean isProjectNotFound(GitLabApiException e) {
        return e.getMessage() != null && e.getMessage().contains("Project Not Found");
    }

    /** 404 for the file (or the ref) rather than for the project, which must not read as "no such file". */
    private static boolean isFileOrRefNotFound(GitLabApiException e) {
        return e.getHttpStatus() == 404 && !isProjectNotFound(e);
    }
}
