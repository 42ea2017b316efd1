package io.changeflow.application.fake;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.TargetFiles;
import io.changeflow.domain.mr.MergeRequestState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * GitLab in memory, as the workflow sees it: projects with branches and files, merge requests with
 * monotonically increasing numbers per project, approvals, pipelines tied to the commit they ran for,
 * merge with the head sha, rebase (which takes a few reads to finish, may conflict and makes a new head
 * with a new pipeline), rewriting a branch as one commit on another (a push: new head, new pipeline, the
 * rebase conflict gone unless {@link #nextRebaseConflictPersists}, approvals removed with
 * {@link #resetApprovalsOnPush}), close. GitLab's mergeability check: after a merge into a branch the other
 * open merge requests into it read {@code checking} for a few reads ({@link #checkingAfterMerge},
 * {@link #checkFor}), and merging them answers CANNOT_BE_MERGED_YET meanwhile.
 *
 * <p>Faithful to the awkward parts: approving twice answers 401, exactly like an account that may
 * not approve; merging needs every approval bot and a passed pipeline of the current head; a new head
 * (a rebase, {@link #pushExternally}) gets its pipeline only after {@link #nextPipelineDelay} looks (or
 * {@link #setPipeline}), and until then the latest pipeline is the previous head's. Faults: any method can
 * be made to fail ({@link #failNext}); an approval or a merge can be applied while its answer is lost
 * ({@link #loseNextApproveAnswer}, {@link #loseNextMergeAnswer}); reads of the approvers can fail
 * ({@link #failApprovalReads}); an account can be forbidden to approve ({@link #forbid}). Like the sandbox's
 * GitLab simulator, a pipeline fails when the change (a file of the source branch that differs from the
 * target branch) contains the marker {@value #FAIL_PIPELINE} (in any case: subjects are lower case).
 */
public final class FakeMergeRequests implements MergeRequests, TargetFiles {

    private static final String MAIN = "main";
    /** A change containing this text (in any case) fails its pipeline. */
    public static final String FAIL_PIPELINE = "FAIL_PIPELINE";
    /** A commit of a change containing this text (in any case) fails with 502, every time: a transient-looking fault. */
    public static final String FAIL_TRANSIENTLY = "FAIL_TRANSIENTLY";

    private static final class Mr {
        final String project;
        final long iid;
        final String source;
        final String target;
        final String title;
        final String description;
        MergeRequestState state = MergeRequestState.OPENED;
        String sha;
        final Set<String> approvedBy = new LinkedHashSet<>();
        /** The latest pipeline GitLab shows (null: none yet). */
        Run pipeline;
        /** The new head's pipeline GitLab has not created yet, and how many more looks until it has. */
        Run comingPipeline;
        int looksUntilPipeline;
        int pipelineDelay;
        boolean needsRebase;
        Set<String> approvedAtMerge;
        boolean rebaseConflict;
        List<PipelineStatus> pipelineAfterRebase;
        boolean rebaseInProgress;
        int rebaseReadsLeft;
        boolean conflictPersists;
        int checkingReadsLeft;
        Optional<String> mergeError = Optional.empty();
        /** The head (and its pipeline) reads still report for {@link #staleReads} more reads after a push. */
        String staleSha;
        Run stalePipeline;
        int staleReads;
        /** The commit the merge put on the target branch; null until merged. */
        String mergedCommit;
        /** A detailed_merge_status forced by a test (e.g. draft_status); null: derived. */
        String forcedStatus;
        /** Its source branch was deleted ({@link #deleteBranchExternally}) and not pushed again since. */
        boolean sourceDeleted;
        /** GitLab's "merge after" and the clock it is judged by ({@link #setMergeAfter}); null: none. */
        java.time.Instant mergeAfter;
        java.time.Clock mergeAfterClock;

        boolean beforeMergeAfter() {
            return mergeAfter != null && mergeAfterClock.instant().isBefore(mergeAfter);
        }

        Mr(String project, long iid, String source, String target, String title, String description) {
            this.project = project;
            this.iid = iid;
            this.source = source;
            this.target = target;
            this.title = title;
            this.description = description;
        }
    }

    /** One pipeline: the commit it ran for and its statuses, one per look (the last one sticks). */
    private static final class Run {
        final long id;
        final String sha;
        final Deque<PipelineStatus> statuses;

        Run(long id, String sha, List<PipelineStatus> statuses) {
            if (statuses.isEmpty()) {
                throw new IllegalArgumentException("a pipeline needs at least one status");
            }
            this.id = id;
            this.sha = sha;
            this.statuses = new ArrayDeque<>(statuses);
        }

        boolean passedFor(String head) {
            return sha.equals(head) && statuses.peek() == PipelineStatus.PASSED;
        }
    }

    private static final class Project {
        final Map<String, Map<String, String>> branches = new HashMap<>();
        /** What each branch was based on (at creation or its last rewrite): a merge applies only what changed since. */
        final Map<String, Map<String, String>> bases = new HashMap<>();
        final Map<Long, Mr> mrs = new LinkedHashMap<>();
        long nextIid = 1;
        /**
         * Main's commits, oldest first (an initial empty one, then every commit, merge and hand edit): each names main's
         * files right after it, so a file read at a commit's sha ({@link #readFile}: {@link #branchHead} of main, a
         * merged commit) answers main as it was then. The one model of main's history: {@link #commitsOnlyOn},
         * {@link #mergedCommit} and {@link #branchHead} all read it.
         */
        final List<MainCommit> mainLog = new ArrayList<>();
        /** {@link #mainLog} by sha. */
        final Map<String, MainCommit> mainBySha = new HashMap<>();
        /** How many commits of {@link #mainLog} each branch has (since its creation, last rewrite or rebase). */
        final Map<String, Integer> forkedAt = new HashMap<>();
        /** The message of each branch's last commit, which a merge takes onto main (as the commit a merge keeps). */
        final Map<String, String> lastMessage = new HashMap<>();

        Project() {
            branches.put(MAIN, new TreeMap<>());
            addMainCommit("Initial commit", Set.of());
        }

        /** Records main as it is now as a new commit of {@code message} that changed {@code paths}; its sha. */
        String addMainCommit(String message, Set<String> paths) {
            // a sha of its own kind: it never meets a merge request's head sha (nextSha)
            var commit = new MainCommit(String.format("c%039x", mainLog.size() + 1), message, Set.copyOf(paths),
                    Map.copyOf(branches.get(MAIN)));
            mainLog.add(commit);
            mainBySha.put(commit.sha(), commit);
            return commit.sha();
        }

        /** Main's files at {@code ref} when it is a commit of main; null otherwise (a branch name, another sha). */
        Map<String, String> mainAt(String ref) {
            var commit = mainBySha.get(ref);
            return commit == null ? null : commit.files();
        }

        /** Where {@code sha} stands in main's history (0: the initial commit); -1 when it is no commit of main. */
        int mainIndexOf(String sha) {
            var commit = mainBySha.get(sha);
            return commit == null ? -1 : mainLog.indexOf(commit);
        }

        String mainHead() {
            return mainLog.getLast().sha();
        }
    }

    /** One commit on main: its message, the paths it changed and main's files right after it. */
    private record MainCommit(String sha, String message, Set<String> paths, Map<String, String> files) {}

    private List<String> approvalAccounts;
    private final Map<String, Project> projects = new HashMap<>();
    private final Map<String, Deque<RuntimeException>> failures = new HashMap<>();
    private final Set<String> forbidden = new LinkedHashSet<>();
    /** Approvals GitLab's rules require beyond the bots' (e.g. a code owner's); 0: the bots' suffice. */
    private int approvalsBeyondTheBots;
    /** Reads of the approval state that first find the approvals reset (GitLab processed a push after them). */
    private int approvalResetsOnStateRead;
    private final Map<String, Integer> lostApproveAnswers = new HashMap<>();
    private final Map<String, Integer> approveCalls = new HashMap<>();
    private final List<String> approvals = new ArrayList<>();
    private final Map<String, Deque<RuntimeException>> approveFailures = new HashMap<>();
    private final Deque<MergeResult> scriptedMerges = new ArrayDeque<>();
    private final Map<String, Deque<Runnable>> hooks = new HashMap<>();
    private List<PipelineStatus> nextPipeline = List.of(PipelineStatus.PASSED);
    private int nextPipelineDelay;
    private boolean nextNeedsRebase;
    private boolean nextRebaseConflict;
    private boolean nextConflictPersists;
    private boolean resetApprovalsOnPush;
    private boolean pipelinesMustSucceed = true;
    private boolean noPipelines;
    private int pushLag;
    private int checkingAfterMerge;
    private int lostRewriteAnswers;
    private int rewrites;
    private List<PipelineStatus> nextPipelineAfterRebase = List.of(PipelineStatus.PASSED);
    private int rebaseReads = 1;
    private int failingApprovalReads;
    private int lostMergeAnswers;
    /** Whether a merge's answer names the merged commit ({@link #mergeWithCommit}); GitLab's does. */
    private CommitInMergeAnswer commitInMergeAnswer = CommitInMergeAnswer.ALWAYS;
    /** The merges done now so far, counted for {@link CommitInMergeAnswer#EVERY_SECOND_MERGE_WITHOUT}. */
    private int mergesAnswered;
    private int shaCounter;
    private long pipelineIds;
    private int mergeCalls;
    private int merges;
    private int commits;
    private int opens;
    private int closes;
    private int rebases;
    private boolean carryHeadPipeline;
    private int commitsOnARead;
    /** Whether a read reports {@code not_approved} until every bot approved (GitLab's status); off: {@code mergeable}. */
    private boolean reportNotApproved;
    private boolean mislabelPipelines;
    private boolean conflictsOnChangedFiles;
    private boolean storedHeadPipeline;
    private String refusalMergeError = "";
    private boolean approvalsRequired = true;
    private final Map<String, Integer> calls = new TreeMap<>();
    /** Runs before every call of the port (after the call is counted); null: none. */
    private Runnable everyCall;

    /** @param approvalAccounts the approval bots, in the order the port names them; a merge needs each one's approval */
    public FakeMergeRequests(List<String> approvalAccounts) {
        this.approvalAccounts = List.copyOf(approvalAccounts);
    }

    // ---- the port ----------------------------------------------------------------------------------

    @Override
    public synchronized Optional<String> readFile(String project, String ref, String path) {
        fault("readFile");
        var atCommit = project(project).mainAt(ref);
        return Optional.ofNullable((atCommit != null ? atCommit : branch(project, ref)).get(path));
    }

    @Override
    public synchronized Optional<String> mergedCommit(String project, long iid) {
        fault("mergedCommit");
        var mr = existing(project, iid);
        return mr.state == MergeRequestState.MERGED ? Optional.ofNullable(mr.mergedCommit) : Optional.empty();
    }

    /**
     * Main's history is one line here: {@code ancestor} is contained when it comes at or before {@code descendant} on it.
     * A commit not on main's line (unknown, or a branch's) is no ancestor, as GitLab's 400 "Could not find ref" reads.
     */
    @Override
    public synchronized boolean isAncestor(String project, String ancestor, String descendant) {
        fault("isAncestor");
        var p = project(project);
        var at = p.mainIndexOf(ancestor);
        var of = p.mainIndexOf(descendant);
        return at >= 0 && of >= 0 && at <= of;
    }

    /** A person's commit on main that changes no grant file (e.g. the deploy pipeline's own change): its sha. */
    public synchronized String commitOnMain(String project) {
        return project(project).addMainCommit("A change on main that is no grant", Set.of());
    }

    /** Lists main's history only (the workflow's target branch); the commits of {@code branch} are not kept apart. */
    @Override
    public synchronized List<CommitSummary> commitsOnlyOn(String project, String ref, String branch, String path, int limit) {
        fault("commitsOnlyOn");
        var p = project(project);
        if (!MAIN.equals(ref)) {
            throw new UnsupportedOperationException("the fake keeps the history of " + MAIN + " only");
        }
        branch(project, branch);
        var log = p.mainLog.subList(p.forkedAt.getOrDefault(branch, 0), p.mainLog.size());
        var listed = new ArrayList<CommitSummary>();
        for (int i = log.size() - 1; i >= 0 && listed.size() < limit; i--) {
            if (log.get(i).paths().contains(path)) {
                listed.add(new CommitSummary(log.get(i).sha(), log.get(i).message()));
            }
        }
        return listed;
    }

    @Override
    public synchronized Optional<String> currentContent(String project, String path) {
        return readFile(project, defaultBranch(project), path);
    }

    @Override
    public synchronized String defaultBranch(String project) {
        fault("defaultBranch");
        project(project);
        return MAIN;
    }

    @Override
    public synchronized void createBranch(String project, String branch, String fromRef) {
        fault("createBranch");
        var p = project(project);
        if (!p.branches.containsKey(branch)) {
            p.branches.put(branch, new TreeMap<>(branch(project, fromRef)));
            p.bases.put(branch, new TreeMap<>(branch(project, fromRef)));
            p.forkedAt.put(branch, p.mainLog.size());
            p.mrs.values().stream().filter(mr -> mr.source.equals(branch)).forEach(mr -> mr.sourceDeleted = false);
        }
    }

    @Override
    public synchronized void commit(String project, String branch, String message, List<FileChange> files) {
        fault("commit");
        if (files.stream().anyMatch(f -> f.content().toUpperCase(Locale.ROOT).contains(FAIL_TRANSIENTLY))) {
            throw ExternalCallException.status("gitlab", 502, "Bad Gateway");
        }
        var content = branch(project, branch);
        var changed = files.stream().filter(f -> !f.content().equals(content.get(f.path()))).map(FileChange::path)
                .collect(Collectors.toSet());
        files.forEach(f -> content.put(f.path(), f.content()));
        commits++;
        project(project).lastMessage.put(branch, message);
        if (branch.equals(MAIN)) {
            project(project).addMainCommit(message, changed);
        }
        project(project).mrs.values().stream()
                .filter(mr -> mr.source.equals(branch) && mr.state == MergeRequestState.OPENED)
                .forEach(mr -> {
                    newHead(mr, nextPipeline);
                    afterPush(mr);
                });
    }

    /**
     * The commit on the caller's read of the file (one "commit" call, no read), refused as GitLab refuses it when the read
     * went stale: 400 to create a file that exists or to update one that does not (lib/gitlab/git/index.rb).
     */
    @Override
    public synchronized void commit(String project, String branch, String message, FileChange file, FileRead read) {
        if (!file.path().equals(read.path())) {
            throw new IllegalArgumentException("the read is of " + read.path() + ", the change of " + file.path());
        }
        var exists = branch(project, branch).containsKey(file.path());
        if (exists != read.content().isPresent()) {
            fault("commit");
            throw ExternalCallException.status("gitlab", 400, exists ? "A file with this name already exists"
                    : "A file with this name doesn't exist");
        }
        commitsOnARead++;
        commit(project, branch, message, List.of(file));
    }

    /** Commits made on the caller's read of their file ({@link #commit(String, String, String, FileChange, FileRead)}). */
    public synchronized int commitsOnARead() {
        return commitsOnARead;
    }

    @Override
    public synchronized void rewriteBranch(String project, String branch, String onto, String message, List<FileChange> files) {
        fault("rewriteBranch");
        var content = new TreeMap<>(branch(project, onto));
        project(project).bases.put(branch, new TreeMap<>(content));
        files.forEach(f -> content.put(f.path(), f.content()));
        project(project).branches.put(branch, content);
        project(project).forkedAt.put(branch, project(project).mainLog.size());
        project(project).lastMessage.put(branch, message);
        rewrites++;
        project(project).mrs.values().stream()
                .filter(mr -> mr.source.equals(branch) && mr.state == MergeRequestState.OPENED)
                .forEach(mr -> {
                    mr.sourceDeleted = false;
                    mr.needsRebase = mr.conflictPersists;
                    mr.rebaseConflict = mr.conflictPersists;
                    mr.mergeError = Optional.empty();
                    newHead(mr, mr.pipelineAfterRebase.isEmpty() ? List.of(PipelineStatus.PASSED) : mr.pipelineAfterRebase);
                    afterPush(mr);
                });
        if (lostRewriteAnswers > 0) {
            lostRewriteAnswers--;
            throw new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "read timed out", null);
        }
    }

    @Override
    public synchronized Optional<RemoteMergeRequest> findBySourceBranch(String project, String branch) {
        fault("findBySourceBranch");
        return project(project).mrs.values().stream()
                .filter(mr -> mr.source.equals(branch)
                        && (mr.state == MergeRequestState.OPENED || mr.state == MergeRequestState.MERGED))
                .reduce((first, second) -> second)
                .map(this::snapshot);
    }

    @Override
    public synchronized RemoteMergeRequest open(String project, String sourceBranch, String targetBranch, String title,
                                                String description) {
        fault("open");
        var p = project(project);
        if (p.mrs.values().stream().anyMatch(mr -> mr.source.equals(sourceBranch) && mr.state == MergeRequestState.OPENED)) {
            throw ExternalCallException.status("gitlab", 409, "Another open merge request already exists for this source branch");
        }
        branch(project, sourceBranch);
        var mr = new Mr(project, p.nextIid++, sourceBranch, targetBranch, title, description);
        mr.pipelineDelay = nextPipelineDelay;
        newHead(mr, nextPipeline);
        mr.needsRebase = nextNeedsRebase;
        mr.rebaseConflict = nextRebaseConflict;
        mr.conflictPersists = nextConflictPersists;
        mr.pipelineAfterRebase = nextPipelineAfterRebase;
        p.mrs.put(mr.iid, mr);
        opens++;
        return snapshot(mr);
    }

    @Override
    public synchronized RemoteMergeRequest get(String project, long iid) {
        fault("get");
        var mr = project(project).mrs.get(iid);
        if (mr == null) {
            return new RemoteMergeRequest(project, iid, MergeRequestState.ABSENT, "not_found", "", "", "", false, Optional.empty(),
                    false, Optional.empty());
        }
        if (mr.staleReads > 0) {
            var stale = snapshot(mr);
            mr.staleReads--;
            return stale;
        }
        if (mr.checkingReadsLeft > 0) {
            var checking = snapshot(mr);
            mr.checkingReadsLeft--;
            return checking;
        }
        if (mr.rebaseInProgress && --mr.rebaseReadsLeft <= 0) {
            mr.rebaseInProgress = false;
            if (mr.sourceDeleted) {
                // the fake's assumption: a rebase needs the source branch; it ends with an error, nothing pushed
                mr.mergeError = Optional.of("Rebase failed: source branch does not exist");
            } else if (mr.rebaseConflict) {
                mr.mergeError = Optional.of("Rebase failed: merge conflict");
            } else {
                mr.needsRebase = false;
                project(project).forkedAt.put(mr.source, project(project).mainLog.size());
                newHead(mr, mr.pipelineAfterRebase);
            }
        }
        return snapshot(mr);
    }

    /** {@link #get} (the same call), with the head pipeline of the state it read when {@link #carryHeadPipeline} is on. */
    @Override
    public synchronized RemoteMergeRequest getWithHeadPipeline(String project, long iid) {
        var mr = project(project).mrs.get(iid);
        var stale = mr != null && mr.staleReads > 0;
        var remote = get(project, iid);
        if (!carryHeadPipeline || mr == null) {
            return remote;
        }
        // a stale read reports the previous head with its pipeline, as headPipeline would during the same lag
        var pipeline = headPipelineOf(mr, stale);
        return new RemoteMergeRequest(remote.project(), remote.iid(), remote.state(), remote.detailedMergeStatus(),
                remote.sha(), remote.sourceBranch(), remote.webUrl(), remote.rebaseInProgress(), remote.mergeError(),
                true, pipeline, remote.mergeAfter());
    }

    @Override
    public synchronized Optional<Pipeline> latestPipeline(String project, long iid) {
        fault("latestPipeline");
        return latestOf(existing(project, iid));
    }

    private Optional<Pipeline> latestOf(Mr mr) {
        if (mr.comingPipeline != null && mr.looksUntilPipeline-- <= 0) {
            mr.pipeline = mr.comingPipeline;
            mr.comingPipeline = null;
        }
        var run = mr.pipeline;
        if (run == null) {
            return Optional.empty();
        }
        var status = run.statuses.size() > 1 ? run.statuses.poll() : run.statuses.peek();
        return Optional.of(new Pipeline(run.id, mislabelPipelines ? mr.sha : run.sha, status));
    }

    @Override
    public synchronized Optional<Pipeline> headPipeline(String project, long iid) {
        fault("headPipeline");
        var mr = existing(project, iid);
        if (mr.staleReads > 0) {
            return stalePipelineOf(mr);
        }
        var head = mr.sha;
        return latestPipeline(project, iid).filter(pipeline -> storedHeadPipeline || pipeline.ranFor(head));
    }

    /** The head pipeline {@link #getWithHeadPipeline} carries: from the same read, so no call of its own. */
    private Optional<Pipeline> headPipelineOf(Mr mr, boolean stale) {
        if (stale) {
            return stalePipelineOf(mr);
        }
        var head = mr.sha;
        return latestOf(mr).filter(pipeline -> storedHeadPipeline || pipeline.ranFor(head));
    }

    private static Optional<Pipeline> stalePipelineOf(Mr mr) {
        return Optional.ofNullable(mr.stalePipeline).map(run -> new Pipeline(run.id, run.sha, run.statuses.peekLast()));
    }

    @Override
    public synchronized Optional<String> branchHead(String project, String branch) {
        fault("branchHead");
        var p = project(project);
        if (!p.branches.containsKey(branch)) {
            return Optional.empty();
        }
        if (branch.equals(MAIN)) {
            return Optional.of(p.mainHead());
        }
        return Optional.of(p.mrs.values().stream().filter(mr -> mr.source.equals(branch)).reduce((first, second) -> second)
                .map(mr -> mr.sha).orElse("0000000000000000000000000000000000000000"));
    }

    @Override
    public synchronized void reopen(String project, long iid) {
        fault("reopen");
        var mr = existing(project, iid);
        if (mr.state == MergeRequestState.CLOSED) {
            refuseASecondOpenOne(mr);
            mr.state = MergeRequestState.OPENED;
        }
    }

    /**
     * GitLab keeps one open merge request per source and target branch: a reopen is refused while another one from the
     * same branch is open ({@code MergeRequest#validate_branches}, run on every save of an opened merge request, with
     * {@code existing_mrs_targeting_same_branch}, {@code app/models/merge_request.rb} of gitlabhq/gitlabhq; the API
     * answers it 409, {@code conflict!(errors[:validate_branches])} in {@code lib/api/helpers/merge_requests_helpers.rb}).
     */
    private void refuseASecondOpenOne(Mr mr) {
        var other = project(mr.project).mrs.values().stream().filter(o -> o != mr && o.state == MergeRequestState.OPENED
                && o.source.equals(mr.source) && o.target.equals(mr.target)).findFirst();
        if (other.isPresent()) {
            throw ExternalCallException.status("gitlab", 409,
                    "Another open merge request already exists for this source branch: !" + other.get().iid);
        }
    }

    @Override
    public synchronized List<String> approvalAccounts() {
        return approvalAccounts;
    }

    @Override
    public synchronized Set<String> approvedBy(String project, long iid) {
        fault("approvedBy");
        if (failingApprovalReads > 0) {
            failingApprovalReads--;
            throw new ExternalCallException("gitlab", ExternalCallException.Kind.IO, 0, "connection reset", null);
        }
        return Set.copyOf(existing(project, iid).approvedBy);
    }

    /** GitLab's judgement: approved only when no approvals beyond the bots' are required. */
    @Override
    public synchronized ApprovalState approvalState(String project, long iid) {
        resetApprovalsIfDue(project, iid);
        return new ApprovalState(approvedBy(project, iid), approvalsBeyondTheBots == 0, approvalsBeyondTheBots);
    }

    /**
     * An approval answered with GitLab's approval state after it, as {@link #approvalState} judges it (one "approve"
     * call, no read); the answer to the approval that completes every bot's counts as one of the reads
     * {@link #resetApprovalsOnNextStateReads} names (the state after the approvals).
     */
    @Override
    public synchronized Optional<ApprovalState> approveWithState(String project, long iid, String account, String sha) {
        approve(project, iid, account, sha);
        if (existing(project, iid).approvedBy.containsAll(approvalAccounts)) {
            resetApprovalsIfDue(project, iid);
        }
        return Optional.of(new ApprovalState(Set.copyOf(existing(project, iid).approvedBy), approvalsBeyondTheBots == 0,
                approvalsBeyondTheBots));
    }

    private void resetApprovalsIfDue(String project, long iid) {
        if (approvalResetsOnStateRead > 0) {
            approvalResetsOnStateRead--;
            existing(project, iid).approvedBy.clear();
        }
    }

    @Override
    public synchronized void approve(String project, long iid, String account) {
        fault("approve");
        approveCalls.merge(account, 1, Integer::sum);
        var queued = approveFailures.get(account);
        if (queued != null && !queued.isEmpty()) {
            throw queued.poll();
        }
        var mr = existing(project, iid);
        if (forbidden.contains(account) || mr.approvedBy.contains(account)) {
            throw ExternalCallException.status("gitlab", 401, "401 Unauthorized");
        }
        mr.approvedBy.add(account);
        approvals.add(account);
        if (lostApproveAnswers.getOrDefault(account, 0) > 0) {
            lostApproveAnswers.merge(account, -1, Integer::sum);
            throw new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "read timed out", null);
        }
    }

    @Override
    public synchronized MergeResult merge(String project, long iid, String sha) {
        fault("merge");
        mergeCalls++;
        var mr = existing(project, iid);
        if (!scriptedMerges.isEmpty() && scriptedMerges.peek() != MergeResult.MERGED) {
            var scripted = scriptedMerges.poll();
            if (scripted == MergeResult.REFUSED_AFTER_CHECKS) {
                mr.mergeError = Optional.of(refusalMergeError);
            }
            return scripted;
        }
        scriptedMerges.poll();
        if (mr.state == MergeRequestState.OPENED && mr.checkingReadsLeft > 0) {
            return MergeResult.CANNOT_BE_MERGED_YET;
        }
        if (mr.state != MergeRequestState.OPENED || mr.needsRebase || mr.rebaseInProgress || mr.sourceDeleted) {
            return MergeResult.NOT_MERGEABLE;
        }
        if (mr.forcedStatus != null) {
            return MergeResult.expectedFor(mr.forcedStatus).orElse(MergeResult.BLOCKED);
        }
        if (mr.beforeMergeAfter()) {
            return MergeResult.BLOCKED;
        }
        if (conflictsOnChangedFiles && conflicts(mr)) {
            mr.needsRebase = true;
            mr.rebaseConflict = true;
            return MergeResult.NOT_MERGEABLE;
        }
        if (!mr.sha.equals(sha)) {
            return MergeResult.SHA_MISMATCH_OR_LOCKED;
        }
        // GitLab's "pipelines must succeed" (a project setting): the head's own pipeline, not an earlier commit's.
        if (pipelinesMustSucceed && (mr.pipeline == null || !mr.pipeline.passedFor(mr.sha))) {
            return MergeResult.CANNOT_BE_MERGED_YET;
        }
        if (approvalsRequired && !mr.approvedBy.containsAll(approvalAccounts)) {
            return MergeResult.CANNOT_BE_MERGED_YET;
        }
        mr.approvedAtMerge = Set.copyOf(mr.approvedBy);
        mergeNow(mr);
        if (lostMergeAnswers > 0) {
            lostMergeAnswers--;
            throw new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "read timed out", null);
        }
        return MergeResult.MERGED;
    }

    /**
     * {@link #merge}, the answer naming the merged commit as GitLab's merge answer does (the merge request as merged,
     * lib/api/merge_requests.rb), unless {@link #mergeAnswersNoCommit} turned that off. One {@code merge} call.
     */
    @Override
    public synchronized MergeAnswer mergeWithCommit(String project, long iid, String sha) {
        var result = merge(project, iid, sha);
        if (result != MergeResult.MERGED || !commitInMergeAnswer.names(++mergesAnswered)) {
            return new MergeAnswer(result, Optional.empty());
        }
        return new MergeAnswer(result, Optional.ofNullable(existing(project, iid).mergedCommit));
    }

    /** From now on a merge's answer names no merged commit (the caller reads it, as before issue 33's cut). */
    public synchronized FakeMergeRequests mergeAnswersNoCommit() {
        commitInMergeAnswer = CommitInMergeAnswer.NEVER;
        return this;
    }

    /**
     * From now on every second merge done now answers no merged commit (a merge skipping a train does), so a world
     * takes both ways to the merged commit without a choice of its own (the simulation's seeds choose nothing here).
     */
    public synchronized FakeMergeRequests mergeAnswersCommitOnAlternateMerges() {
        commitInMergeAnswer = CommitInMergeAnswer.EVERY_SECOND_MERGE_WITHOUT;
        return this;
    }

    @Override
    public synchronized void rebase(String project, long iid) {
        fault("rebase");
        rebases++;
        var mr = existing(project, iid);
        mr.rebaseInProgress = true;
        mr.rebaseReadsLeft = rebaseReads;
        mr.mergeError = Optional.empty();
    }

    @Override
    public synchronized void close(String project, long iid) {
        fault("close");
        closes++;
        var mr = existing(project, iid);
        if (mr.state == MergeRequestState.OPENED || mr.state == MergeRequestState.LOCKED) {
            mr.state = MergeRequestState.CLOSED;
        }
    }

    // ---- behaviour of merge requests opened from now on --------------------------------------------

    /** The pipeline statuses the next merge requests report, one per look (the last one sticks). */
    public synchronized FakeMergeRequests nextPipeline(PipelineStatus... statuses) {
        nextPipeline = List.of(statuses);
        return this;
    }

    /**
     * In the next merge requests, every new head (opening, a rebase, a push) gets its pipeline only
     * after {@code looks} looks at {@link #latestPipeline}; until then the latest pipeline is the
     * previous head's (none right after opening).
     */
    public synchronized FakeMergeRequests nextPipelineDelay(int looks) {
        nextPipelineDelay = looks;
        return this;
    }

    /** The approval bots the port names from now on (GitLab's configuration changed). */
    public synchronized FakeMergeRequests approvalAccounts(List<String> accounts) {
        approvalAccounts = List.copyOf(accounts);
        return this;
    }

    /** The next merge requests cannot be merged before a rebase, which conflicts or runs these pipelines. */
    public synchronized FakeMergeRequests nextNeedRebase(boolean conflict, PipelineStatus... pipelineAfterRebase) {
        nextNeedsRebase = true;
        nextRebaseConflict = conflict;
        nextPipelineAfterRebase = List.of(pipelineAfterRebase);
        return this;
    }

    /**
     * In the next merge requests a rebase conflict persists: every rewrite of the branch is overtaken by
     * another change to the same lines, so the merge request needs a rebase again, which conflicts again.
     */
    public synchronized FakeMergeRequests nextRebaseConflictPersists() {
        nextConflictPersists = true;
        return this;
    }

    /** GitLab removes a merge request's approvals when commits are pushed to its source branch (a project setting). */
    public synchronized FakeMergeRequests resetApprovalsOnPush() {
        resetApprovalsOnPush = true;
        return this;
    }

    /**
     * The project does not enforce "pipelines must succeed" (GitLab's default): GitLab merges whatever the
     * pipeline says, so only the workflow's own evidence keeps a failed head out.
     */
    public synchronized FakeMergeRequests pipelinesNeedNotPass() {
        pipelinesMustSucceed = false;
        return this;
    }

    /**
     * The projects have no CI: GitLab creates no pipeline for any head ({@code head_pipeline} null) and, having none,
     * does not require one to merge.
     */
    public synchronized FakeMergeRequests noPipelines() {
        noPipelines = true;
        pipelinesMustSucceed = false;
        return this;
    }

    /**
     * GitLab refreshes a merge request asynchronously after a push: for the next {@code reads} reads after every
     * push (a rewrite, a rebase, someone's push) the merge request still reports the previous head and that head's
     * pipeline; the branch itself ({@link #branchHead}) has the new head at once.
     */
    public synchronized FakeMergeRequests pushLag(int reads) {
        pushLag = reads;
        return this;
    }

    /**
     * The merge request's {@code merge_after} (GitLab 17.5+): until {@code clock} reaches it, GitLab reports
     * {@code merge_time} with the time and refuses to merge (405); null: none.
     */
    public synchronized void setMergeAfter(String project, long iid, java.time.Instant at, java.time.Clock clock) {
        var mr = existing(project, iid);
        mr.mergeAfter = at;
        mr.mergeAfterClock = clock;
    }

    /** GitLab reports this {@code detailed_merge_status} (e.g. draft_status) and refuses to merge for it; null: derived again. */
    public synchronized void forceDetailedStatus(String project, long iid, String detailedMergeStatus) {
        existing(project, iid).forcedStatus = detailedMergeStatus;
    }

    /**
     * After every merge into a branch, GitLab checks the other open merge requests into it again: they read
     * {@code checking} for the next {@code reads} reads, and merging them answers CANNOT_BE_MERGED_YET meanwhile.
     */
    public synchronized FakeMergeRequests checkingAfterMerge(int reads) {
        checkingAfterMerge = reads;
        return this;
    }

    // ---- faults ------------------------------------------------------------------------------------

    /** The next call of {@code method} (e.g. "approve", "commit") throws {@code failure}. */
    public synchronized FakeMergeRequests failNext(String method, RuntimeException failure) {
        failures.computeIfAbsent(method, m -> new ArrayDeque<>()).add(failure);
        return this;
    }

    /** The next {@code times} calls of {@code method} throw, each a new failure from {@code failure}. */
    public synchronized FakeMergeRequests failNext(String method, int times, Supplier<? extends RuntimeException> failure) {
        for (var i = 0; i < times; i++) {
            failNext(method, failure.get());
        }
        return this;
    }

    /** GitLab recovers: the queued failures of {@code method} are dropped. */
    public synchronized FakeMergeRequests clearFailures(String method) {
        failures.remove(method);
        return this;
    }

    /** GitLab's approval rules require {@code approvals} more than every bot gives (e.g. a code owner's). */
    public synchronized FakeMergeRequests requireApprovalsBeyondTheBots(int approvals) {
        approvalsBeyondTheBots = approvals;
        return this;
    }

    /**
     * The next {@code reads} reads of the approval state (a read, or the state an approval's answer carries) find the
     * approvals removed, as after a push GitLab processed late.
     */
    public synchronized FakeMergeRequests resetApprovalsOnNextStateReads(int reads) {
        approvalResetsOnStateRead = reads;
        return this;
    }

    /**
     * A read of a merge request that not every approval bot approved yet reports {@code detailed_merge_status}
     * {@code not_approved}, as GitLab does where approvals are required; off by default ({@code mergeable}).
     */
    public synchronized FakeMergeRequests reportNotApprovedUntilApproved() {
        reportNotApproved = true;
        return this;
    }

    /**
     * {@link #get} answers with the merge request's head pipeline, as GitLab's {@code GET .../merge_requests/:iid}
     * does ({@link RemoteMergeRequest#headPipelineRead}); off by default: the head pipeline is read on its own.
     */
    public synchronized FakeMergeRequests carryHeadPipeline() {
        carryHeadPipeline = true;
        return this;
    }

    /**
     * The head pipeline is GitLab's stored association, as its API answers it: after a push it stays the previous head's
     * (with that head's sha) until the new head's pipeline exists, and for good when the push creates none
     * ({@code app/models/merge_request.rb}, {@code update_head_pipeline}); off by default: only the head's own.
     */
    public synchronized FakeMergeRequests reportStoredHeadPipeline() {
        storedHeadPipeline = true;
        return this;
    }

    /**
     * GitLab merges without any approval (GitLab Free, or no approval rule: approvals are optional); by default the
     * fake refuses to merge until every approval bot approved.
     */
    public synchronized FakeMergeRequests approvalsNotRequired() {
        approvalsRequired = false;
        return this;
    }

    /**
     * The next {@code times} merges fail after every check passed, as a push rule or a server hook makes GitLab's merge
     * fail: {@link MergeResult#REFUSED_AFTER_CHECKS}, the merge request's {@code merge_error} reading {@code mergeError}.
     */
    public synchronized FakeMergeRequests refuseMergesAfterChecks(int times, String mergeError) {
        refusalMergeError = mergeError;
        for (var i = 0; i < times; i++) {
            scriptedMerges.add(MergeResult.REFUSED_AFTER_CHECKS);
        }
        return this;
    }

    /** The accounts whose approvals the merge request had when it was merged; empty before. */
    public synchronized Set<String> approvedAtMerge(String project, long iid) {
        var approved = existing(project, iid).approvedAtMerge;
        return approved == null ? Set.of() : approved;
    }

    /**
     * Calls of the port's methods so far, by method name ({@code get}, {@code branchHead}, ...): one per GitLab call
     * they stand for (a method that answers from another, as {@link #headPipeline} does from {@link #latestPipeline},
     * counts both).
     */
    public synchronized Map<String, Integer> calls() {
        return Map.copyOf(calls);
    }

    /** The {@link #calls} made since {@code before} (an earlier answer of it), the methods not called left out. */
    public synchronized Map<String, Integer> callsSince(Map<String, Integer> before) {
        var since = new TreeMap<String, Integer>();
        calls.forEach((method, n) -> {
            if (n > before.getOrDefault(method, 0)) {
                since.put(method, n - before.getOrDefault(method, 0));
            }
        });
        return since;
    }

    /**
     * Merging conflicts, as in the sandbox's GitLab simulator and git, when the target branch changed a file of the
     * change since the branch's base to something else: the merge answers NOT_MERGEABLE, the merge request needs a
     * rebase and the rebase conflicts, until the branch is rewritten onto the current target. Off by default: a merge
     * then writes the change's files over the target's.
     */
    public synchronized FakeMergeRequests conflictsOnChangedFiles() {
        conflictsOnChangedFiles = true;
        return this;
    }

    /**
     * A planted defect, not GitLab's behaviour: every pipeline read names the merge request's current head as the
     * commit the latest pipeline ran for, whatever commit it ran for (the simulation shows it finds the merges this lets
     * through on another head's pipeline).
     */
    public synchronized FakeMergeRequests mislabelPipelines() {
        mislabelPipelines = true;
        return this;
    }

    /** The next approval attempt by {@code account} throws {@code failure} without approving. */
    public synchronized FakeMergeRequests failNextApprove(String account, RuntimeException failure) {
        approveFailures.computeIfAbsent(account, a -> new ArrayDeque<>()).add(failure);
        return this;
    }

    /** The next merge attempts answer these results without merging (a MERGED entry lets the merge go through). */
    public synchronized FakeMergeRequests nextMergeResults(MergeResult... results) {
        scriptedMerges.addAll(List.of(results));
        return this;
    }

    /**
     * Runs {@code action} when the next call of {@code method} (e.g. "close", "open") reaches GitLab, just
     * before it applies: e.g. the merge request merges right before a close, or another settler runs first.
     */
    public synchronized FakeMergeRequests beforeNext(String method, Runnable action) {
        hooks.computeIfAbsent(method, m -> new ArrayDeque<>()).add(action);
        return this;
    }

    /** {@code account} may not approve: GitLab answers 401, the same as for a repeated approval. */
    public synchronized FakeMergeRequests forbid(String account) {
        forbidden.add(account);
        return this;
    }

    /** The next approval by {@code account} reaches GitLab but its answer is lost (a timeout). */
    public synchronized FakeMergeRequests loseNextApproveAnswer(String account) {
        lostApproveAnswers.merge(account, 1, Integer::sum);
        return this;
    }

    /** The next successful merge happens but its answer is lost (a timeout). */
    public synchronized FakeMergeRequests loseNextMergeAnswer() {
        lostMergeAnswers++;
        return this;
    }

    /** The next rewrite of a branch happens but its answer is lost (a timeout). */
    public synchronized FakeMergeRequests loseNextRewriteAnswer() {
        lostRewriteAnswers++;
        return this;
    }

    /** The next {@code count} reads of the approvers fail. */
    public synchronized FakeMergeRequests failApprovalReads(int count) {
        failingApprovalReads = count;
        return this;
    }

    // ---- things other people do on GitLab ----------------------------------------------------------

    public synchronized void approveAs(String project, long iid, String account) {
        existing(project, iid).approvedBy.add(account);
    }

    /** A person merges the merge request (unless, with {@link #conflictsOnChangedFiles}, it conflicts: GitLab refuses). */
    public synchronized void mergeExternally(String project, long iid) {
        var mr = existing(project, iid);
        if (mr.sourceDeleted || conflictsOnChangedFiles && conflicts(mr)) {
            return;
        }
        mergeNow(mr);
    }

    /**
     * A person deletes {@code branch} (e.g. a merge request's source branch from its page). An open merge request from
     * it stays open but cannot be merged: GitLab's {@code MergeRequest#broken?} is {@code has_no_commits? ||
     * branch_missing? || cannot_be_merged?} ({@code app/models/merge_request.rb}) and
     * {@code Mergeability::CheckBrokenStatusService} reports it as {@code broken_status} (gitlabhq/gitlabhq as indexed;
     * the sandbox's GitLab simulator answers the same), which the port maps to NOT_MERGEABLE. A push to the branch
     * (creating it again) makes it mergeable again. False when there was no such branch.
     */
    public synchronized boolean deleteBranchExternally(String project, String branch) {
        var p = project(project);
        if (MAIN.equals(branch) || p.branches.remove(branch) == null) {
            return false;
        }
        p.bases.remove(branch);
        p.mrs.values().stream().filter(mr -> mr.source.equals(branch) && mr.state == MergeRequestState.OPENED)
                .forEach(mr -> mr.sourceDeleted = true);
        return true;
    }

    /**
     * A person commits {@code content} as {@code path} straight to {@code branch} (e.g. a hand edit of a grant file on
     * main), outside the port: no call counted, no injected failure. Merge requests into that branch see their target
     * moved (with {@link #conflictsOnChangedFiles}, a change of the same file conflicts).
     */
    public synchronized void commitExternally(String project, String branch, String path, String content) {
        branch(project, branch).put(path, content);
        if (MAIN.equals(branch)) {
            project(project).addMainCommit("Edit " + path + " by hand", Set.of(path));
        }
    }

    /** Whether {@code branch} exists now (without counting as a call). */
    public synchronized boolean hasBranch(String project, String branch) {
        return project(project).branches.containsKey(branch);
    }

    /**
     * Runs {@code hook} before every call of the port from now on (null: none), e.g. to stop a step at its n-th call
     * the way a killed process stops.
     */
    public synchronized FakeMergeRequests beforeEveryCall(Runnable hook) {
        everyCall = hook;
        return this;
    }

    public synchronized void closeExternally(String project, long iid) {
        existing(project, iid).state = MergeRequestState.CLOSED;
    }

    /** A person reopens a closed merge request on GitLab (no call of this service: no fault, not counted). */
    public synchronized void reopenExternally(String project, long iid) {
        var mr = existing(project, iid);
        if (mr.state == MergeRequestState.CLOSED) {
            refuseASecondOpenOne(mr);
            mr.state = MergeRequestState.OPENED;
        }
    }

    /** GitLab shows a new pipeline for the merge request's current head now, with these statuses (one per look). */
    public synchronized void setPipeline(String project, long iid, PipelineStatus... statuses) {
        var mr = existing(project, iid);
        mr.pipeline = new Run(++pipelineIds, mr.sha, List.of(statuses));
        mr.comingPipeline = null;
    }

    /**
     * Someone pushes a commit to the merge request's source branch: a new head whose pipeline
     * ({@code statuses}) GitLab creates after the merge request's pipeline delay; until then the latest
     * pipeline is the previous head's. Without statuses no pipeline comes until {@link #setPipeline}.
     *
     * @return the new head sha
     */
    public synchronized String pushExternally(String project, long iid, PipelineStatus... statuses) {
        var mr = existing(project, iid);
        if (statuses.length == 0) {
            mr.sha = nextSha();
            mr.comingPipeline = null;
        } else {
            newHead(mr, List.of(statuses));
        }
        afterPush(mr);
        return mr.sha;
    }

    /**
     * GitLab checks the merge request's mergeability now (e.g. its target branch just moved): it reads
     * {@code checking} for the next {@code reads} reads, and merging it answers CANNOT_BE_MERGED_YET meanwhile.
     */
    public synchronized void checkFor(String project, long iid, int reads) {
        existing(project, iid).checkingReadsLeft = reads;
    }

    /** Lets the rebase of existing merge requests conflict or not from now on. */
    public synchronized void setRebaseConflict(String project, long iid, boolean conflict) {
        existing(project, iid).rebaseConflict = conflict;
    }

    // ---- what tests look at ------------------------------------------------------------------------

    public synchronized Optional<RemoteMergeRequest> find(String project, long iid) {
        return Optional.ofNullable(project(project).mrs.get(iid)).map(this::snapshot);
    }

    public synchronized Set<String> approvers(String project, long iid) {
        return Set.copyOf(existing(project, iid).approvedBy);
    }

    public synchronized String description(String project, long iid) {
        return existing(project, iid).description;
    }

    public synchronized List<Long> mergeRequestsOf(String project) {
        return new ArrayList<>(project(project).mrs.keySet());
    }

    /** The content of {@code path} at {@code ref} (a branch or a commit of main), without counting as a call. */
    public synchronized Optional<String> fileAt(String project, String ref, String path) {
        var atCommit = project(project).mainAt(ref);
        return atCommit != null ? Optional.ofNullable(atCommit.get(path)) : fileOn(project, ref, path);
    }

    /** A person's edit of {@code path} on main (a commit nobody reviewed): {@code content} replaces the file. */
    public synchronized void editMain(String project, String path, String content) {
        var p = project(project);
        p.branches.computeIfAbsent(MAIN, b -> new TreeMap<>()).put(path, content);
        p.addMainCommit("Edit " + path + " by hand", Set.of(path));
    }

    public synchronized Optional<String> fileOn(String project, String branch, String path) {
        var content = project(project).branches.get(branch);
        return content == null ? Optional.empty() : Optional.ofNullable(content.get(path));
    }

    /** The latest pipeline as it stands now (the commit it really ran for), without counting as a look; empty: none yet. */
    public synchronized Optional<Pipeline> pipelineNow(String project, long iid) {
        var run = existing(project, iid).pipeline;
        return run == null ? Optional.empty() : Optional.of(new Pipeline(run.id, run.sha, run.statuses.peek()));
    }

    public synchronized int approveCalls(String account) {
        return approveCalls.getOrDefault(account, 0);
    }

    /** Accounts whose approval GitLab accepted, in the order it did. */
    public synchronized List<String> approvalsInOrder() {
        return List.copyOf(approvals);
    }

    /** The merge request's head sha now. */
    public synchronized String headSha(String project, long iid) {
        return existing(project, iid).sha;
    }

    public synchronized int mergeCalls() {
        return mergeCalls;
    }

    /** Merge requests actually merged (by us or by others). */
    public synchronized int merges() {
        return merges;
    }

    public synchronized int commits() {
        return commits;
    }

    public synchronized int opens() {
        return opens;
    }

    public synchronized int closes() {
        return closes;
    }

    public synchronized int rebases() {
        return rebases;
    }

    /** Branches rewritten as one new commit on another ({@link #rewriteBranch}). */
    public synchronized int rewrites() {
        return rewrites;
    }

    // ---- internals ---------------------------------------------------------------------------------

    /** A new head sha; its pipeline shows up after the merge request's pipeline delay (at once without one). */
    private void newHead(Mr mr, List<PipelineStatus> statuses) {
        if (pushLag > 0 && mr.sha != null) {
            mr.staleSha = mr.sha;
            mr.stalePipeline = mr.pipeline;
            mr.staleReads = pushLag;
        }
        mr.sha = nextSha();
        if (noPipelines) {
            mr.pipeline = null;
            mr.comingPipeline = null;
            return;
        }
        var run = new Run(++pipelineIds, mr.sha, carriesFailMarker(mr) ? List.of(PipelineStatus.FAILED) : statuses);
        if (mr.pipelineDelay <= 0) {
            mr.pipeline = run;
            mr.comingPipeline = null;
        } else {
            mr.comingPipeline = run;
            mr.looksUntilPipeline = mr.pipelineDelay;
        }
    }

    /** Whether a file of the source branch that differs from the target branch contains {@link #FAIL_PIPELINE}. */
    private boolean carriesFailMarker(Mr mr) {
        var branches = project(mr.project).branches;
        var source = branches.getOrDefault(mr.source, Map.of());
        var target = branches.getOrDefault(mr.target, Map.of());
        return source.entrySet().stream()
                .filter(file -> !Objects.equals(target.get(file.getKey()), file.getValue()))
                .anyMatch(file -> file.getValue().toUpperCase(Locale.ROOT).contains(FAIL_PIPELINE));
    }

    private void mergeNow(Mr mr) {
        if (!mr.target.equals(MAIN)) {
            throw new UnsupportedOperationException("the fake keeps the commits of " + MAIN + " only");
        }
        mr.state = MergeRequestState.MERGED;
        mr.checkingReadsLeft = 0;
        merges++;
        // like git: the files the source branch changed since its base, not the whole snapshot (another merge request
        // merged meanwhile keeps its changes)
        var source = branch(mr.project, mr.source);
        var base = project(mr.project).bases.getOrDefault(mr.source, Map.of());
        var target = branch(mr.project, mr.target);
        var changed = new LinkedHashSet<String>();
        source.forEach((path, content) -> {
            if (!Objects.equals(base.get(path), content)) {
                if (!Objects.equals(target.get(path), content)) {
                    changed.add(path);
                }
                target.put(path, content);
            }
        });
        var p = project(mr.project);
        mr.mergedCommit = p.addMainCommit(p.lastMessage.getOrDefault(mr.source, mr.title), changed);
        project(mr.project).mrs.values().stream()
                .filter(other -> other != mr && other.state == MergeRequestState.OPENED && other.target.equals(mr.target))
                .forEach(other -> other.checkingReadsLeft = Math.max(other.checkingReadsLeft, checkingAfterMerge));
    }

    /** Whether the target changed, since the source branch's base, a file the source branch changed. */
    private boolean conflicts(Mr mr) {
        var source = branch(mr.project, mr.source);
        var base = project(mr.project).bases.getOrDefault(mr.source, Map.of());
        var target = branch(mr.project, mr.target);
        return source.entrySet().stream().anyMatch(file -> !Objects.equals(base.get(file.getKey()), file.getValue())
                && !Objects.equals(base.get(file.getKey()), target.get(file.getKey()))
                && !Objects.equals(file.getValue(), target.get(file.getKey())));
    }

    /** What a push to the merge request's source branch does besides the new head. */
    private void afterPush(Mr mr) {
        if (resetApprovalsOnPush) {
            mr.approvedBy.clear();
        }
    }

    private void fault(String method) {
        calls.merge(method, 1, Integer::sum);
        if (everyCall != null) {
            everyCall.run();
        }
        var hook = hooks.getOrDefault(method, new ArrayDeque<>()).poll();
        if (hook != null) {
            hook.run();
        }
        var queue = failures.get(method);
        if (queue != null && !queue.isEmpty()) {
            throw queue.poll();
        }
    }

    private Project project(String project) {
        return projects.computeIfAbsent(project, p -> new Project());
    }

    private Map<String, String> branch(String project, String ref) {
        var content = project(project).branches.get(ref);
        if (content == null) {
            throw ExternalCallException.status("gitlab", 404, "404 Branch Not Found");
        }
        return content;
    }

    private Mr existing(String project, long iid) {
        var mr = project(project).mrs.get(iid);
        if (mr == null) {
            throw ExternalCallException.status("gitlab", 404, "404 Not found");
        }
        return mr;
    }

    private String nextSha() {
        return String.format("%040x", ++shaCounter);
    }

    private RemoteMergeRequest snapshot(Mr mr) {
        var detailed = mr.state != MergeRequestState.OPENED ? mr.state.name().toLowerCase()
                : mr.checkingReadsLeft > 0 ? "checking"
                : mr.sourceDeleted ? "broken_status"
                : mr.forcedStatus != null ? mr.forcedStatus
                : mr.beforeMergeAfter() ? "merge_time"
                : reportNotApproved && !mr.approvedBy.containsAll(approvalAccounts) ? "not_approved"
                : mr.needsRebase ? "need_rebase" : "mergeable";
        var sha = mr.staleReads > 0 ? mr.staleSha : mr.sha;
        return new RemoteMergeRequest(mr.project, mr.iid, mr.state, detailed, sha, mr.source,
                "https://gitlab.example/" + mr.project + "/-/merge_requests/" + mr.iid, mr.rebaseInProgress, mr.mergeError,
                false, Optional.empty(), "merge_time".equals(detailed) ? Optional.ofNullable(mr.mergeAfter) : Optional.empty());
    }

    /** Which merges done now answer their merged commit ({@link #mergeWithCommit}). */
    private enum CommitInMergeAnswer {
        ALWAYS, NEVER, EVERY_SECOND_MERGE_WITHOUT;

        /** Whether the {@code nth} merge done now (from 1) names its merged commit. */
        boolean names(int nth) {
            return this == ALWAYS || (this == EVERY_SECOND_MERGE_WITHOUT && nth % 2 == 1);
        }
    }
}
