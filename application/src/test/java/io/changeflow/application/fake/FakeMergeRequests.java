package io.changeflow.application.fake;

import io.changeflow.application.port.out.ExternalCallException;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.domain.mr.MergeRequestState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * GitLab in memory, as the workflow sees it: projects with branches and files, merge requests with
 * monotonically increasing numbers per project, approvals, pipelines, merge with the head sha,
 * rebase (which takes a few reads to finish, may conflict and starts a new pipeline), close.
 *
 * <p>Faithful to the awkward parts: approving twice answers 401, exactly like an account that may
 * not approve; merging needs every required approver and a passed pipeline. Faults: any method can
 * be made to fail ({@link #failNext}); an approval or a merge can be applied while its answer is lost
 * ({@link #loseNextApproveAnswer}, {@link #loseNextMergeAnswer}); reads of the approvers can fail
 * ({@link #failApprovalReads}); an account can be forbidden to approve ({@link #forbid}).
 */
public final class FakeMergeRequests implements MergeRequests {

    private static final String MAIN = "main";

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
        Deque<PipelineStatus> pipeline;
        boolean needsRebase;
        boolean rebaseConflict;
        List<PipelineStatus> pipelineAfterRebase;
        boolean rebaseInProgress;
        int rebaseReadsLeft;
        Optional<String> mergeError = Optional.empty();

        Mr(String project, long iid, String source, String target, String title, String description) {
            this.project = project;
            this.iid = iid;
            this.source = source;
            this.target = target;
            this.title = title;
            this.description = description;
        }
    }

    private static final class Project {
        final Map<String, Map<String, String>> branches = new HashMap<>();
        final Map<Long, Mr> mrs = new LinkedHashMap<>();
        long nextIid = 1;

        Project() {
            branches.put(MAIN, new TreeMap<>());
        }
    }

    private final Set<String> requiredApprovers;
    private final Map<String, Project> projects = new HashMap<>();
    private final Map<String, Deque<RuntimeException>> failures = new HashMap<>();
    private final Set<String> forbidden = new LinkedHashSet<>();
    private final Map<String, Integer> lostApproveAnswers = new HashMap<>();
    private final Map<String, Integer> approveCalls = new HashMap<>();
    private final Map<String, Deque<RuntimeException>> approveFailures = new HashMap<>();
    private final Deque<MergeResult> scriptedMerges = new ArrayDeque<>();
    private List<PipelineStatus> nextPipeline = List.of(PipelineStatus.PASSED);
    private boolean nextNeedsRebase;
    private boolean nextRebaseConflict;
    private List<PipelineStatus> nextPipelineAfterRebase = List.of(PipelineStatus.PASSED);
    private int rebaseReads = 1;
    private int failingApprovalReads;
    private int lostMergeAnswers;
    private int shaCounter;
    private int mergeCalls;
    private int merges;
    private int commits;
    private int opens;
    private int closes;
    private int rebases;

    /** @param requiredApprovers accounts whose approval a merge needs (the approval bots) */
    public FakeMergeRequests(Set<String> requiredApprovers) {
        this.requiredApprovers = Set.copyOf(requiredApprovers);
    }

    // ---- the port ----------------------------------------------------------------------------------

    @Override
    public synchronized Optional<String> readFile(String project, String ref, String path) {
        fault("readFile");
        return Optional.ofNullable(branch(project, ref).get(path));
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
        }
    }

    @Override
    public synchronized void commit(String project, String branch, String message, List<FileChange> files) {
        fault("commit");
        var content = branch(project, branch);
        files.forEach(f -> content.put(f.path(), f.content()));
        commits++;
        project(project).mrs.values().stream()
                .filter(mr -> mr.source.equals(branch) && mr.state == MergeRequestState.OPENED)
                .forEach(mr -> mr.sha = nextSha());
    }

    @Override
    public synchronized Optional<RemoteMergeRequest> findBySourceBranch(String project, String branch) {
        fault("findBySourceBranch");
        return project(project).mrs.values().stream()
                .filter(mr -> mr.source.equals(branch)
                        && (mr.state == MergeRequestState.OPENED || mr.state == MergeRequestState.MERGED))
                .reduce((first, second) -> second)
                .map(FakeMergeRequests::snapshot);
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
        mr.sha = nextSha();
        mr.pipeline = new ArrayDeque<>(nextPipeline);
        mr.needsRebase = nextNeedsRebase;
        mr.rebaseConflict = nextRebaseConflict;
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
            return new RemoteMergeRequest(project, iid, MergeRequestState.ABSENT, "not_found", "", "", "", false, Optional.empty());
        }
        if (mr.rebaseInProgress && --mr.rebaseReadsLeft <= 0) {
            mr.rebaseInProgress = false;
            if (mr.rebaseConflict) {
                mr.mergeError = Optional.of("Rebase failed: merge conflict");
            } else {
                mr.needsRebase = false;
                mr.sha = nextSha();
                mr.pipeline = new ArrayDeque<>(mr.pipelineAfterRebase);
            }
        }
        return snapshot(mr);
    }

    @Override
    public synchronized PipelineStatus latestPipeline(String project, long iid) {
        fault("latestPipeline");
        var mr = existing(project, iid);
        if (mr.pipeline.isEmpty()) {
            return PipelineStatus.NONE;
        }
        return mr.pipeline.size() > 1 ? mr.pipeline.poll() : mr.pipeline.peek();
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
            return scriptedMerges.poll();
        }
        scriptedMerges.poll();
        if (mr.state != MergeRequestState.OPENED || mr.needsRebase || mr.rebaseInProgress) {
            return MergeResult.NOT_MERGEABLE;
        }
        if (!mr.sha.equals(sha)) {
            return MergeResult.SHA_MISMATCH_OR_LOCKED;
        }
        if (mr.pipeline.peek() != PipelineStatus.PASSED || !mr.approvedBy.containsAll(requiredApprovers)) {
            return MergeResult.CANNOT_BE_MERGED_YET;
        }
        mergeNow(mr);
        if (lostMergeAnswers > 0) {
            lostMergeAnswers--;
            throw new ExternalCallException("gitlab", ExternalCallException.Kind.TIMEOUT, 0, "read timed out", null);
        }
        return MergeResult.MERGED;
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

    /** The next merge requests cannot be merged before a rebase, which conflicts or runs these pipelines. */
    public synchronized FakeMergeRequests nextNeedRebase(boolean conflict, PipelineStatus... pipelineAfterRebase) {
        nextNeedsRebase = true;
        nextRebaseConflict = conflict;
        nextPipelineAfterRebase = List.of(pipelineAfterRebase);
        return this;
    }

    // ---- faults ------------------------------------------------------------------------------------

    /** The next call of {@code method} (e.g. "approve", "commit") throws {@code failure}. */
    public synchronized FakeMergeRequests failNext(String method, RuntimeException failure) {
        failures.computeIfAbsent(method, m -> new ArrayDeque<>()).add(failure);
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

    /** The next {@code count} reads of the approvers fail. */
    public synchronized FakeMergeRequests failApprovalReads(int count) {
        failingApprovalReads = count;
        return this;
    }

    // ---- things other people do on GitLab ----------------------------------------------------------

    public synchronized void approveAs(String project, long iid, String account) {
        existing(project, iid).approvedBy.add(account);
    }

    public synchronized void mergeExternally(String project, long iid) {
        mergeNow(existing(project, iid));
    }

    public synchronized void closeExternally(String project, long iid) {
        existing(project, iid).state = MergeRequestState.CLOSED;
    }

    public synchronized void setPipeline(String project, long iid, PipelineStatus... statuses) {
        existing(project, iid).pipeline = new ArrayDeque<>(List.of(statuses));
    }

    /** Lets the rebase of existing merge requests conflict or not from now on. */
    public synchronized void setRebaseConflict(String project, long iid, boolean conflict) {
        existing(project, iid).rebaseConflict = conflict;
    }

    // ---- what tests look at ------------------------------------------------------------------------

    public synchronized Optional<RemoteMergeRequest> find(String project, long iid) {
        return Optional.ofNullable(project(project).mrs.get(iid)).map(FakeMergeRequests::snapshot);
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

    public synchronized Optional<String> fileOn(String project, String branch, String path) {
        var content = project(project).branches.get(branch);
        return content == null ? Optional.empty() : Optional.ofNullable(content.get(path));
    }

    public synchronized int approveCalls(String account) {
        return approveCalls.getOrDefault(account, 0);
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

    // ---- internals ---------------------------------------------------------------------------------

    private void mergeNow(Mr mr) {
        mr.state = MergeRequestState.MERGED;
        merges++;
        var source = branch(mr.project, mr.source);
        branch(mr.project, mr.target).putAll(source);
    }

    private void fault(String method) {
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

    private static RemoteMergeRequest snapshot(Mr mr) {
        var detailed = mr.state != MergeRequestState.OPENED ? mr.state.name().toLowerCase()
                : mr.needsRebase ? "need_rebase" : "mergeable";
        return new RemoteMergeRequest(mr.project, mr.iid, mr.state, detailed, mr.sha, mr.source,
                "https://gitlab.example/" + mr.project + "/-/merge_requests/" + mr.iid, mr.rebaseInProgress, mr.mergeError);
    }
}
