package io.changeflow.sandbox.gitlab;

import io.changeflow.sandbox.MergeListener;
import io.changeflow.sandbox.gitlab.GitLabSimulatorProperties.Account;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * An in-memory GitLab: projects, branches, files, commits, merge requests, pipelines, approvals and the
 * approval check items. Thread-safe: every access holds this object's monitor, so merges (and the
 * {@link MergeListener} notifications, made while merging) happen in one order.
 *
 * <p>Time-based behaviour (mergeability checks, pipelines, rebases) is evaluated lazily against the clock
 * when state is read, so there are no background threads and a settable clock makes tests deterministic.
 *
 * <p>Conflict model: a branch remembers the files of the ref it was created from (its base). Its change is
 * every path whose content differs from the base. A merge request conflicts when its target changed one of
 * those paths since the base to something else than the branch has. Merging writes the change onto the
 * target; rebasing moves the base to the target's current files (or fails with {@code merge_error} on
 * conflict).
 *
 * <p>The public methods are the control API for tests and for {@code /sim/gitlab/_control}; the REST v4
 * controller uses the package-private ones.
 */
public class GitLabSimulator {

    /**
     * File content that makes a pipeline of a change containing it fail (see {@link PipelineOutcome#AUTO}),
     * in any case: subjects are lower case, so a grant line carries it as e.g. {@code svc-fail_pipeline}.
     */
    public static final String FAIL_PIPELINE_MARKER = "FAIL_PIPELINE";

    private static final HexFormat HEX = HexFormat.of();

    /** Statuses GitLab 17/18.x answers with 422 "Branch cannot be merged" (the rest of "not mergeable" is 405). */
    private static final Set<String> CANNOT_BE_MERGED_17 = Set.of("checking", "unchecked", "conflict", "need_rebase",
            "broken_status");

    private final Clock clock;
    private final MergeListener mergeListener;
    private final Supplier<String> serverWebUrl;
    private volatile GitLabSimulatorProperties properties;

    private final Map<Long, Project> projects = new LinkedHashMap<>();
    private final GitLabProjectHooks hooks = new GitLabProjectHooks();
    /** The hook every project gets when created (the sandbox's Changeflow), null for none. */
    private String defaultHookUrl;
    private String defaultHookToken;
    /** Turns a stored hook URL into the one GitLab calls (placeholders resolved once the server runs). */
    private java.util.function.UnaryOperator<String> hookUrls = url -> url;
    private final Map<String, User> usersByToken = new HashMap<>();
    private User root;
    private long nextProjectId;
    private long nextMergeRequestId;
    private long nextPipelineId;
    private Duration pipelineCreationDelay = Duration.ZERO;
    private long nextUserId;
    private long shaCounter;
    /** Approval rules, the answers that differ by GitLab version, and the rate limit: see {@link GitLabBehaviourProperties}. */
    private final GitLabApprovalRules approvalRules = new GitLabApprovalRules(false);
    private GitLabBehaviourProperties behaviour = GitLabBehaviourProperties.defaults();
    /** The merge method and CI of projects: see {@link GitLabProjectDefaults}. */
    private GitLabProjectDefaults projectDefaults = GitLabProjectDefaults.defaults();
    /** Every merge performed, in merge order, with the evidence it was made on (see {@link #mergeRecords()}). */
    private final List<MergeRecord> mergeRecords = new ArrayList<>();

    /**
     * One merge as the simulator performed it: the merged head and the status, at the moment of the merge,
     * of that head's latest pipeline on the merge request's source branch ({@code null} when it had none).
     * The witness of "never merge a head whose pipeline did not pass".
     */
    public record MergeRecord(String project, long iid, String sourceBranch, String mergedSha, String pipelineStatus,
                              Long pipelineId, Instant at) {}

    /**
     * @param properties    accounts, timings and seeded projects
     * @param clock         time source of every time-based behaviour
     * @param mergeListener told about every merge, in merge order; may be null
     */
    public GitLabSimulator(GitLabSimulatorProperties properties, Clock clock, MergeListener mergeListener) {
        this(properties, clock, mergeListener, () -> GitLabSimulatorProperties.DEFAULT_WEB_URL);
    }

    /**
     * @param serverWebUrl where this simulator's web pages are, asked on every use while
     *                     {@code sandbox.gitlab.web-url} is not set (e.g. {@code http://localhost:<the server's
     *                     port>/sim/gitlab}: the port is only known once the server runs)
     */
    public GitLabSimulator(GitLabSimulatorProperties properties, Clock clock, MergeListener mergeListener,
                           Supplier<String> serverWebUrl) {
        this.properties = Objects.requireNonNull(properties, "properties");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.mergeListener = mergeListener;
        this.serverWebUrl = Objects.requireNonNull(serverWebUrl, "serverWebUrl");
        reset();
    }

    // ------------------------------------------------------------------ control API (public)

    /** Forgets everything and starts over with the configured accounts and seeded projects. */
    public synchronized void reset() {
        projects.clear();
        hooks.reset();
        usersByToken.clear();
        nextProjectId = 1;
        nextMergeRequestId = 1;
        nextPipelineId = 1;
        nextUserId = 1;
        shaCounter = 0;
        mergeRecords.clear();
        approvalRules.reset();
        root = addUser("root", "Administrator", null);
        var p = properties;
        addUser(p.author().username(), "Changeflow author bot", p.author().token());
        for (var approver : p.approvers()) {
            addUser(approver.username(), "Approval bot " + approver.username(), approver.token());
        }
        for (var path : p.projects()) {
            ensureProject(path, Map.of("README.md", "# " + path + "\n"));
        }
    }

    /**
     * The base of every {@code web_url} (merge requests: {@code <base>/<project path>/-/merge_requests/<iid>},
     * a page {@link GitLabWebController} serves): {@code sandbox.gitlab.web-url} when set, else where the server
     * runs now.
     */
    public String webUrl() {
        var fixed = properties.webUrl();
        if (fixed != null) {
            return fixed;
        }
        var server = serverWebUrl.get();
        return server == null || server.isBlank() ? GitLabSimulatorProperties.DEFAULT_WEB_URL
                : GitLabSimulatorProperties.stripSlash(server.trim());
    }

    /** The current settings. */
    public GitLabSimulatorProperties properties() {
        return properties;
    }

    /**
     * Changes how long mergeability checks, pipelines and rebases take. Checks and rebases under way follow
     * the new durations at once; pipelines keep the duration they started with (force their outcome instead).
     */
    public void setTimings(Duration checking, Duration pipeline, Duration rebase) {
        properties = properties.withTimings(checking, pipeline, rebase);
    }

    /**
     * Changes which GitLab's merge answers the simulator gives, whether merge request pipelines are merged-results
     * pipelines, and the refresh lag after a push (see {@link GitLabSimulatorProperties}); from the next request on.
     */
    public void setBehaviour(GitLabSimulatorProperties.Profile profile, boolean mergedResultsPipelines, Duration refreshLag) {
        properties = properties.withBehaviour(profile, mergedResultsPipelines, refreshLag);
    }

    /** The bot that opens merge requests. */
    public Account author() {
        return properties.author();
    }

    /** The approval bots. */
    public List<Account> approvers() {
        return properties.approvers();
    }

    /** Creates the project with {@code files} on {@code main} unless it exists; answers its numeric id. */
    public synchronized long ensureProject(String path, Map<String, String> files) {
        var existing = findProject(path);
        if (existing.isPresent()) {
            return existing.get().id;
        }
        var project = new Project(nextProjectId++, path, "main", now());
        project.resetApprovalsOnPush = behaviour.resetApprovalsOnPush();
        project.mergeMethod = projectDefaults.method();
        project.ci = !projectDefaults.projectsWithoutCi().contains(path);
        if (projectDefaults.protectDefaultBranch()) {
            project.protectedBranches.add(project.defaultBranch);
        }
        var commit = newCommit(project, List.of(), "Initial commit", root, new TreeMap<>(files));
        var main = new Branch("main", commit.sha, commit.files);
        project.branches.put(main.name, main);
        projects.put(project.id, project);
        if (defaultHookUrl != null) {
            hooks.add(project.id, defaultHookUrl, defaultHookToken, true, true, now());
        }
        return project.id;
    }

    /**
     * Every project, those there now and those created later, gets a hook for merge request and pipeline events to
     * {@code url} with {@code token} (the sandbox profile: this process's Changeflow).
     */
    public synchronized void hookEveryProject(String url, String token, java.util.function.UnaryOperator<String> resolve) {
        hookUrls = resolve;
        defaultHookUrl = url;
        defaultHookToken = token;
        projects.values().forEach(project -> hooks.add(project.id, url, token, true, true, now()));
    }

    /**
     * Commits {@code files} straight to {@code branch} (created from the default branch when missing), as a
     * person pushing would: open merge requests from or into that branch are re-checked.
     */
    public synchronized String push(String projectPath, String branch, Map<String, String> files, String message) {
        var project = project(projectPath);
        var b = project.branches.get(branch);
        if (b == null) {
            var from = project.branches.get(project.defaultBranch);
            b = new Branch(branch, from.head, from.files);
            project.branches.put(branch, b);
        }
        var newFiles = new TreeMap<>(b.files);
        newFiles.putAll(files);
        holdReportedHeads(project, b);
        var before = b.files;
        applyPush(project, b, newFiles, message, root);
        resetApprovalsOfMergeRequestsFrom(project, branch, changedPaths(before, b.files));
        return b.head;
    }

    /**
     * GitLab's project setting "Remove all approvals when commits are added to the source branch"
     * ({@code reset_approvals_on_push}): off by default here. When on, a commit pushed to a merge request's
     * source branch (through the commits API, also a forced one, or {@link #push}) removes its approvals; a
     * rebase does not.
     */
    public synchronized void resetApprovalsOnPush(String projectPath, boolean reset) {
        project(projectPath).resetApprovalsOnPush = reset;
    }

    /**
     * GitLab's project settings {@code merge_trains_enabled} and {@code merge_pipelines_enabled} (Premium; off by
     * default, {@code projects.merge_trains_enabled} DEFAULT false in db/structure.sql, 17.x to 19.1). Only what the
     * project answers changes: merges here never go through a train.
     */
    public synchronized void setMergeTrains(String projectPath, boolean enabled) {
        project(projectPath).mergeTrainsEnabled = enabled;
    }

    /**
     * GitLab's "Merge immediately without restarting the train" ({@code merge_trains_skip_train_allowed},
     * {@code project_ci_cd_settings}, off by default; 17.x to 19.1-pre): only where it is on does a merge sent with
     * {@code skip_merge_train=true} leave the train's pipelines alone (see {@link GitLabMergeTrain}).
     */
    public synchronized void setMergeTrainsSkipTrainAllowed(String projectPath, boolean allowed) {
        project(projectPath).mergeTrainsSkipTrainAllowed = allowed;
    }

    /** Puts the merge request on the project's merge train (a person's "Set to auto-merge"), with a train pipeline. */
    public synchronized void addToMergeTrain(String projectPath, long iid) {
        var project = project(projectPath);
        mergeRequest(project, iid);
        project.mergeTrain.add(iid, () -> nextPipelineId++);
    }

    /** A car of a merge train as a test reads it: the merge request, its train pipeline, how often that was recreated. */
    public record TrainCar(long iid, long pipelineId, int restarts) {}

    /** The project's merge train, first car first. */
    public synchronized List<TrainCar> mergeTrain(String projectPath) {
        return project(projectPath).mergeTrain.cars().stream()
                .map(car -> new TrainCar(car.iid(), car.pipelineId(), car.restarts())).toList();
    }

    /** {@code GET /projects/:id/merge_trains} (doc/api/merge_trains.md, 17.x to 19.1-pre): the cars, first first. */
    synchronized List<Map<String, Object>> mergeTrainJson(String idOrPath) {
        var project = project(idOrPath);
        var cars = new ArrayList<Map<String, Object>>();
        for (var car : project.mergeTrain.cars()) {
            var mr = mergeRequest(project, car.iid());
            var json = new LinkedHashMap<String, Object>();
            json.put("id", car.id());
            var mergeRequest = new LinkedHashMap<String, Object>();
            mergeRequest.put("id", mr.id);
            mergeRequest.put("iid", mr.iid);
            mergeRequest.put("project_id", project.id);
            mergeRequest.put("title", mr.title);
            mergeRequest.put("state", mr.state);
            json.put("merge_request", mergeRequest);
            var pipeline = new LinkedHashMap<String, Object>();
            pipeline.put("id", car.pipelineId());
            pipeline.put("project_id", project.id);
            pipeline.put("ref", "refs/merge-requests/" + mr.iid + "/train");
            pipeline.put("status", "running");
            json.put("pipeline", pipeline);
            json.put("target_branch", mr.targetBranch);
            json.put("status", "fresh");
            cars.add(json);
        }
        return cars;
    }

    /**
     * {@code account}'s role in the project as a GitLab access level (10 Guest, 20 Reporter, 30 Developer, 40
     * Maintainer, 50 Owner; 0: not a member). Every account is a Maintainer until set. A protected branch without an
     * "Allowed to merge" list admits Maintainers only, as GitLab's default rule does.
     */
    public synchronized void setRole(String projectPath, String account, int accessLevel) {
        project(projectPath).roles.put(account, accessLevel);
    }

    synchronized Optional<Map<String, Object>> protectedBranchJson(String idOrPath, String branch) {
        return GitLabSetupAnswers.protectedBranch(project(idOrPath), branch, this::userNamed);
    }

    synchronized Optional<Map<String, Object>> memberJson(String idOrPath, long userId) {
        var user = usersByToken.values().stream().filter(u -> u.id() == userId).findFirst();
        return user.flatMap(u -> GitLabSetupAnswers.member(project(idOrPath), u, webUrl()));
    }

    synchronized Map<String, Object> approvalSettingsJson(String idOrPath, User caller) {
        return GitLabSetupAnswers.approvalSettings(project(idOrPath), caller);
    }

    synchronized List<Map<String, Object>> approvalRulesJson(String idOrPath) {
        var project = project(idOrPath);
        return GitLabSetupAnswers.approvalRules(project, approvalRules.rules(project.id),
                approvalRules.eligibleNamed(project.id), this::userNamed, webUrl());
    }

    /**
     * The project setting "Require user re-authentication to approve" ({@code require_reauthentication_to_approve}, off
     * by default): an approval through the API without the user's password is refused with 401, as for every bot
     * (ee/app/services/ee/merge_requests/approval_service.rb, the approval service returns nothing:
     * {@code unauthorized! unless success} in lib/api/merge_request_approvals.rb; 17.x to 19.2).
     */
    public synchronized void requireReauthenticationToApprove(String projectPath, boolean required) {
        project(projectPath).requireReauthenticationToApprove = required;
    }

    /**
     * The project's approval settings ({@code GET /projects/:id/approvals}; all off by default, as GitLab's
     * {@code projects} and {@code project_settings} columns): {@code merge_requests_author_approval} (the author may
     * approve its own merge request), {@code merge_requests_disable_committers_approval} (an account that committed to
     * the merge request may not approve it: 401) and {@code selective_code_owner_removals} (a push removes only the
     * approvals of the code owners of the files it changed; {@code reset_approvals_on_push} removes all and wins).
     */
    public synchronized void setApprovalSettings(String projectPath, boolean authorApproval, boolean disableCommittersApproval,
                                                 boolean selectiveCodeOwnerRemovals) {
        var project = project(projectPath);
        project.mergeRequestsAuthorApproval = authorApproval;
        project.mergeRequestsDisableCommittersApproval = disableCommittersApproval;
        project.selectiveCodeOwnerRemovals = selectiveCodeOwnerRemovals;
    }

    /**
     * The merge request's "merge after" time (GitLab 17.5+, {@code merge_after}; null for none): until then
     * {@code detailed_merge_status} is {@code merge_time} and merging is refused with 405
     * ({@code MergeRequests::Mergeability::CheckMergeTimeService}, app/services/merge_requests/mergeability/
     * check_merge_time_service.rb, 17.x to 19.1; checked right after "open").
     */
    public synchronized void setMergeAfter(String projectPath, long iid, Instant mergeAfter) {
        update(projectPath, iid, mr -> mr.mergeAfter = mergeAfter);
    }

    /**
     * The project's push rule (Premium; none by default, as a project GitLab creates without global push rules), or
     * null to remove it: enforced on the commits API, new branches and merge commits as {@link GitLabPushRule} says.
     */
    public synchronized void setPushRule(String projectPath, GitLabPushRule rule) {
        var project = project(projectPath);
        project.pushRule = rule;
        project.pushRuleCreatedAt = rule == null ? null : now();
    }

    /**
     * {@code GET /projects/:id/push_rule} (ee/lib/api/project_push_rule.rb, 17.x to 19.1): {@code authorize_admin_project},
     * so 403 below Maintainer; empty when the project has none (GitLab answers 200 with the body {@code null}).
     */
    /**
     * Adds a project hook for merge request and pipeline events ({@code POST /projects/:id/hooks}, issue 33); the
     * events due are handed out by {@link #dueHookDeliveries}.
     */
    public synchronized long addHook(String projectPath, String url, String token) {
        return hooks.add(project(projectPath).id, url, token, true, true, now()).id();
    }

    /** Removes every hook of the project (a project whose hook is missing). */
    public synchronized void removeHooks(String projectPath) {
        hooks.removeAll(project(projectPath).id);
    }

    /**
     * {@code GET /projects/:id/hooks}: maintainers only, 403 otherwise, as {@code lib/api/project_hooks.rb}
     * ({@code authorize! :admin_project}); the token is never listed ({@code lib/api/entities/project_hook.rb}).
     */
    synchronized List<Map<String, Object>> hooksJson(String idOrPath, User caller) {
        var project = project(idOrPath);
        if (GitLabSetupAnswers.role(project, caller.username()) < GitLabSetupAnswers.MAINTAINER) {
            throw GitLabError.of(403, "403 Forbidden");
        }
        return hooks.of(project.id).stream().map(hook -> hook.json(hookUrls.apply(hook.url()))).toList();
    }

    /**
     * The webhook events due since the last call, one per hook that wants them: a pipeline whose status changed (a
     * created pipeline is news from its creation on), a merge request opened, pushed to, merged, closed or reopened.
     */
    synchronized String hookUrl(GitLabProjectHooks.Hook hook) {
        return hookUrls.apply(hook.url());
    }

    synchronized List<GitLabProjectHooks.Delivery> dueHookDeliveries() {
        var deliveries = new ArrayList<GitLabProjectHooks.Delivery>();
        var now = now();
        for (var project : projects.values()) {
            var projectHooks = hooks.of(project.id);
            if (projectHooks.isEmpty()) {
                continue;
            }
            for (var pipeline : project.pipelines.values()) {
                if (pipeline.createdAt.isAfter(now)) {
                    continue;
                }
                var status = status(project, pipeline, now);
                if (hooks.pipelineNews(pipeline.id, status)) {
                    var payload = pipelineEvent(project, pipeline, status);
                    projectHooks.stream().filter(GitLabProjectHooks.Hook::pipelineEvents)
                            .forEach(hook -> deliveries.add(new GitLabProjectHooks.Delivery(hook, "Pipeline Hook", payload)));
                }
            }
            for (var mr : project.mergeRequests.values()) {
                var action = hooks.mergeRequestNews(mr.id, mr.state, sha(project, mr));
                if (action != null) {
                    var payload = mergeRequestEvent(project, mr, action);
                    projectHooks.stream().filter(GitLabProjectHooks.Hook::mergeRequestsEvents).forEach(hook ->
                            deliveries.add(new GitLabProjectHooks.Delivery(hook, "Merge Request Hook", payload)));
                }
            }
        }
        return deliveries;
    }

    /** The project as webhook payloads show it. */
    private Map<String, Object> hookProject(Project project) {
        var json = new LinkedHashMap<String, Object>();
        json.put("id", project.id);
        json.put("name", project.path.substring(project.path.lastIndexOf('/') + 1));
        json.put("web_url", webUrl() + "/" + project.path);
        json.put("path_with_namespace", project.path);
        json.put("default_branch", project.defaultBranch);
        return json;
    }

    /**
     * A pipeline event ({@code lib/gitlab/data_builder/pipeline.rb}): {@code merge_request} only for a merge request
     * pipeline (source {@code merge_request_event}), null for a branch pipeline.
     */
    private Map<String, Object> pipelineEvent(Project project, Pipeline pipeline, String status) {
        var attributes = new LinkedHashMap<String, Object>();
        attributes.put("id", pipeline.id);
        attributes.put("iid", pipeline.iid);
        attributes.put("ref", pipeline.ref);
        attributes.put("tag", false);
        attributes.put("sha", pipeline.sha);
        attributes.put("before_sha", pipeline.beforeSha);
        attributes.put("source", pipeline.source);
        attributes.put("status", status);
        attributes.put("stages", List.of("test"));
        attributes.put("created_at", pipeline.createdAt.toString());
        var event = new LinkedHashMap<String, Object>();
        event.put("object_kind", "pipeline");
        event.put("object_attributes", attributes);
        var mr = "merge_request_event".equals(pipeline.source) ? project.mergeRequests.values().stream()
                .filter(candidate -> candidate.sourceBranch.equals(pipeline.ref)).reduce((first, last) -> last).orElse(null)
                : null;
        event.put("merge_request", mr == null ? null : Map.of("id", mr.id, "iid", mr.iid, "title", mr.title,
                "source_branch", mr.sourceBranch, "target_branch", mr.targetBranch, "state", mr.state,
                "url", webUrl() + "/" + project.path + "/-/merge_requests/" + mr.iid));
        event.put("user", Map.of("id", pipeline.user.id(), "username", pipeline.user.username(), "name", pipeline.user.name()));
        event.put("project", hookProject(project));
        event.put("builds", List.of());
        return event;
    }

    /** A merge request event with its {@code action} (open, update, merge, close, reopen). */
    private Map<String, Object> mergeRequestEvent(Project project, MergeRequest mr, String action) {
        var attributes = new LinkedHashMap<String, Object>();
        attributes.put("id", mr.id);
        attributes.put("iid", mr.iid);
        attributes.put("title", mr.title);
        attributes.put("source_branch", mr.sourceBranch);
        attributes.put("target_branch", mr.targetBranch);
        attributes.put("state", mr.state);
        attributes.put("action", action);
        attributes.put("last_commit", Map.of("id", sha(project, mr)));
        attributes.put("url", webUrl() + "/" + project.path + "/-/merge_requests/" + mr.iid);
        var event = new LinkedHashMap<String, Object>();
        event.put("object_kind", "merge_request");
        event.put("event_type", "merge_request");
        event.put("user", Map.of("id", mr.author.id(), "username", mr.author.username(), "name", mr.author.name()));
        event.put("project", hookProject(project));
        event.put("object_attributes", attributes);
        return event;
    }

    synchronized Optional<Map<String, Object>> pushRuleJson(String idOrPath, User caller) {
        var project = project(idOrPath);
        if (GitLabSetupAnswers.role(project, caller.username()) < GitLabSetupAnswers.MAINTAINER) {
            throw GitLabError.of(403, "403 Forbidden");
        }
        return Optional.ofNullable(project.pushRule).map(rule -> rule.json(project.id, project.id, project.pushRuleCreatedAt));
    }

    /** A push the project's push rule refuses: 400 with its message, as the commits and branches APIs answer it. */
    private static void checkPushRule(Project project, String newBranch, String message) {
        if (project.pushRule == null) {
            return;
        }
        var refusal = newBranch == null || newBranch.equals(project.defaultBranch) ? Optional.<String>empty()
                : project.pushRule.refusesBranch(newBranch);
        if (refusal.isEmpty() && message != null) {
            refusal = project.pushRule.refusesMessage(message);
        }
        if (refusal.isPresent()) {
            throw GitLabError.of(400, refusal.get());
        }
    }

    private Optional<User> userNamed(String account) {
        return usersByToken.values().stream().filter(u -> u.username().equals(account)).findFirst();
    }

    /** The content of {@code path} on {@code ref} (a branch name or a commit sha), if the file exists. */
    public synchronized Optional<String> file(String projectPath, String ref, String path) {
        return Optional.ofNullable(filesAt(project(projectPath), ref).get(path));
    }

    /** The head sha of {@code branch}, if the branch exists. */
    public synchronized Optional<String> branchHead(String projectPath, String branch) {
        return Optional.ofNullable(project(projectPath).branches.get(branch)).map(b -> b.head);
    }

    /**
     * Sets the approval check items of a project (the upstream configuration API answers them from now on).
     *
     * @param enforce when true an approval without check items is refused with 422 (end of the compatibility
     *                period); when false only approvals that carry stale items are refused
     */
    public synchronized void setCheckItems(String projectPath, List<String> items, boolean enforce) {
        var project = project(projectPath);
        project.checkItems = List.copyOf(items);
        project.enforceCheckItems = enforce;
    }

    public synchronized List<String> checkItems(String projectPath) {
        return project(projectPath).checkItems;
    }

    /** Makes the pipelines of merge request {@code iid}'s source branch end as {@code outcome}. */
    public synchronized void forcePipeline(String projectPath, long iid, PipelineOutcome outcome) {
        var project = project(projectPath);
        forceBranchPipeline(projectPath, mergeRequest(project, iid).sourceBranch, outcome);
    }

    /** Makes the pipelines of {@code branch} end as {@code outcome} ({@link PipelineOutcome#AUTO} to undo). */
    public synchronized void forceBranchPipeline(String projectPath, String branch, PipelineOutcome outcome) {
        var project = project(projectPath);
        if (outcome == PipelineOutcome.AUTO) {
            project.forcedOutcomes.remove(branch);
            project.forcedAt.remove(branch);
        } else {
            project.forcedOutcomes.put(branch, outcome);
            project.forcedAt.put(branch, now());
        }
    }

    /**
     * GitLab's project setting {@code merge_method} ({@code merge} by default): with {@code ff} or {@code rebase_merge}
     * a merge request whose target moved on reads {@code need_rebase} and merging it is refused as the profile's GitLab
     * does (17/18.x: 422 "Branch cannot be merged", 19.x: 405) until it is rebased; {@code ff} merges by moving the
     * target to the head (no merge commit).
     */
    public synchronized void setMergeMethod(String projectPath, GitLabProjectDefaults.MergeMethod method) {
        project(projectPath).mergeMethod = Objects.requireNonNull(method, "method");
    }

    /**
     * Whether the project has CI (true by default). Without, no pipeline is created for any push or merge request:
     * {@code head_pipeline} is null and the pipelines list empty, as on a GitLab project without a CI configuration.
     */
    public synchronized void setCi(String projectPath, boolean enabled) {
        project(projectPath).ci = enabled;
    }

    /**
     * Whether the project's pushes (and new merge requests) create pipelines from now on (true by default): false is a
     * project whose {@code rules:changes} or {@code [skip ci]} create none for them, while its earlier pipelines stay
     * and the merge request's stored {@code head_pipeline} stays the previous head's (see {@link #headPipeline}).
     */
    public synchronized void createPipelines(String projectPath, boolean create) {
        project(projectPath).createsPipelines = create;
    }

    /**
     * How long after a push its pipeline is created (0 by default: GitLab's {@code CreatePipelineWorker} runs within
     * moments). Until then the pipeline is in no answer and the merge request's {@code head_pipeline} is the previous
     * head's; pipelines already created are not moved. Survives {@link #reset()}, like the timings.
     */
    public synchronized void setPipelineCreationDelay(Duration delay) {
        pipelineCreationDelay = delay == null || delay.isNegative() ? Duration.ZERO : delay;
    }

    /**
     * Applies the project defaults to the projects that exist now (the seeded ones) and to those created from now on:
     * their merge method and whether they have CI.
     */
    public synchronized void apply(GitLabProjectDefaults defaults) {
        this.projectDefaults = Objects.requireNonNull(defaults, "defaults");
        for (var project : projects.values()) {
            project.mergeMethod = defaults.method();
            project.ci = !defaults.projectsWithoutCi().contains(project.path);
            if (defaults.protectDefaultBranch()) {
                project.protectedBranches.add(project.defaultBranch);
            } else {
                project.protectedBranches.remove(project.defaultBranch);
            }
        }
    }

    /**
     * Protects {@code branch} (GitLab's protected branches, {@code doc/user/project/repository/branches/protected.md})
     * or lifts the protection: no API account may push to a protected branch, forced or not (403 "You are not allowed
     * to push into this branch"); merging a merge request into it is allowed (the bots are allowed to merge). People
     * pushing through the control API ({@link #push}) are maintainers and may.
     */
    public synchronized void protectBranch(String projectPath, String branch, boolean protect) {
        var project = project(projectPath);
        if (protect) {
            project.protectedBranches.add(branch);
        } else {
            project.protectedBranches.remove(branch);
        }
    }

    /**
     * Who may merge into the protected {@code branch} (GitLab's "Allowed to merge"): {@code accounts} only, or, with
     * none given, every account (the default). Merging as any other account answers 401, as GitLab's merge endpoint
     * does before any other check but the 19.x {@code sha} ({@code lib/api/merge_requests.rb}, 17.x to 19.1:
     * {@code unauthorized! unless merge_request.can_be_merged_by?(current_user)}, "because user dont have permissions
     * to push into target branch").
     */
    public synchronized void allowedToMerge(String projectPath, String branch, Set<String> accounts) {
        var project = project(projectPath);
        if (accounts == null || accounts.isEmpty()) {
            project.allowedToMerge.remove(branch);
        } else {
            project.allowedToMerge.put(branch, Set.copyOf(accounts));
        }
    }

    /**
     * The namespace setting {@code require_sha_for_merge} (off by default; introduced in GitLab 19.2): a merge without
     * {@code sha} answers 400 "SHA must be provided when merging" before any other check ({@code lib/api/merge_requests.rb}
     * {@code PUT .../merge}: {@code user_project.namespace.require_sha_for_merge?}, 19.2). Honoured on the
     * {@code gitlab-19} profile only: 17.x and 18.x have no such setting.
     */
    public synchronized void requireShaForMerge(String projectPath, boolean required) {
        project(projectPath).requireShaForMerge = required;
    }

    /**
     * A merge request marked draft (GitLab: "Draft:" in the title or {@code /draft}): {@code detailed_merge_status}
     * {@code draft_status}, merging refused with 405 ({@code MergeRequests::Mergeability::CheckDraftStatusService}, one
     * of {@code MergeRequest.mergeable_state_checks} in app/models/merge_request.rb, checked before conflicts; 17.x to 19.2).
     */
    public synchronized void setDraft(String projectPath, long iid, boolean draft) {
        update(projectPath, iid, mr -> mr.draft = draft);
    }

    /**
     * The project setting {@code only_allow_merge_if_all_discussions_are_resolved} ("All threads must be resolved", off
     * by default: DEFAULT false in db/structure.sql, 17.x to 19.2).
     */
    public synchronized void requireResolvedDiscussions(String projectPath, boolean required) {
        project(projectPath).onlyAllowMergeIfAllDiscussionsAreResolved = required;
    }

    /**
     * How many blocking discussions of the merge request are unresolved: while the project requires them resolved,
     * {@code detailed_merge_status} {@code discussions_not_resolved}, {@code blocking_discussions_resolved} false and
     * merging refused with 405 ({@code MergeRequests::Mergeability::CheckDiscussionsStatusService}, 17.x to 19.2).
     */
    public synchronized void setUnresolvedDiscussions(String projectPath, long iid, int count) {
        update(projectPath, iid, mr -> mr.unresolvedDiscussions = Math.max(0, count));
    }

    /**
     * External status checks (Ultimate) configured for the project with the setting
     * {@code only_allow_merge_if_all_status_checks_passed} on (off by default): until the merge request's checks
     * passed ({@link #setStatusChecks}), {@code detailed_merge_status} {@code status_checks_must_pass} and merging
     * refused with 405 (ee/app/services/merge_requests/mergeability/check_external_status_checks_passed_service.rb,
     * 17.x to 19.2).
     */
    public synchronized void requireStatusChecks(String projectPath, boolean required) {
        project(projectPath).statusChecksMustPass = required;
    }

    /** The external status checks' answer for the merge request: {@code passed}, {@code failed} or {@code pending}. */
    public synchronized void setStatusChecks(String projectPath, long iid, String status) {
        update(projectPath, iid, mr -> mr.statusChecks = status);
    }

    /** A change a person makes to the merge request on GitLab (not a push): {@code updated_at} moves. */
    private void update(String projectPath, long iid, Consumer<MergeRequest> change) {
        var mr = mergeRequest(project(projectPath), iid);
        change.accept(mr);
        mr.updatedAt = now();
    }

    /**
     * The next {@code times} rebase requests of the project cannot be queued: GitLab could not take the merge request's
     * row lock in time ({@code MergeRequest#with_retried_nowait_lock}, app/models/merge_request.rb) and answers 409.
     */
    public synchronized void refuseRebaseEnqueue(String projectPath, int times) {
        project(projectPath).rebaseEnqueueRefusals = Math.max(0, times);
    }

    /**
     * The project's next {@code times} merges that pass every check fail with {@code mergeError} as their
     * {@code merge_error} (a push rule or a server hook refusing the merge commit): 422 "Branch cannot be merged", the
     * merge request stays open and mergeable, {@code has_conflicts} false.
     */
    public synchronized void refuseMerges(String projectPath, int times, String mergeError) {
        var project = project(projectPath);
        project.mergeRefusals = Math.max(0, times);
        project.mergeRefusalMessage = mergeError;
    }

    /** A person deletes {@code branch} (not the default branch): a merge request from it stays open but cannot be merged. */
    public synchronized void deleteBranch(String projectPath, String branch) {
        var project = project(projectPath);
        if (!branch.equals(project.defaultBranch)) {
            project.branches.remove(branch);
        }
    }

    /** Whether {@code branch} is protected in the project. */
    public synchronized boolean isProtected(String projectPath, String branch) {
        return project(projectPath).protectedBranches.contains(branch);
    }

    /** Requires a successful pipeline before merging (GitLab's "Pipelines must succeed"); off by default. */
    public synchronized void requirePipelineSuccess(String projectPath, boolean required) {
        project(projectPath).onlyAllowMergeIfPipelineSucceeds = required;
    }

    /**
     * Makes merging in this project need its approvals as {@link GitLabApprovalRules} judges them
     * ({@code approvals_required} and every rule, GitLab Premium): unmet, the merge request reads {@code not_approved}
     * and merging is refused with 405, as with {@code sandbox.gitlab.approvals-enforced} for every project (the same
     * check, {@link #approvalsMet}). Off by default (informational only); false leaves the global setting in force.
     */
    public synchronized void requireApprovals(String projectPath, boolean required) {
        approvalRules.enforce(project(projectPath).id, required);
    }

    /**
     * Makes merge request {@code iid} report {@code detailedMergeStatus} (e.g. {@code draft_status},
     * {@code discussions_not_resolved}, {@code blocked_status}) while it is open, and merging answer it as the profile's
     * GitLab would; null to stop.
     */
    public synchronized void forceDetailedMergeStatus(String projectPath, long iid, String detailedMergeStatus) {
        mergeRequest(project(projectPath), iid).forcedStatus = detailedMergeStatus;
    }

    /** The commit merge request {@code iid}'s source branch points to now (what the repository API reports). */
    public synchronized String liveHead(String projectPath, long iid) {
        var project = project(projectPath);
        var src = project.branches.get(mergeRequest(project, iid).sourceBranch);
        return src == null ? null : src.head;
    }

    /** Locks merge request {@code iid} for {@code duration}: its state reads {@code locked}, merging answers 409. */
    public synchronized void lock(String projectPath, long iid, Duration duration) {
        mergeRequest(project(projectPath), iid).lockedUntil = now().plus(duration);
    }

    /**
     * Applies the version profile, approval enforcement, the default of "reset approvals on push" (for projects
     * created from now on) and whether the check-items extension exists. The rate limit is {@link GitLabRateLimit}'s.
     */
    public synchronized void apply(GitLabBehaviourProperties behaviour) {
        this.behaviour = Objects.requireNonNull(behaviour, "behaviour");
        approvalRules.enforce(behaviour.approvalsEnforced());
        // the projects that exist now (the seeded ones) follow the setting as those created from now on do
        for (var project : projects.values()) {
            project.resetApprovalsOnPush = behaviour.resetApprovalsOnPush();
        }
    }

    public synchronized GitLabBehaviourProperties behaviour() {
        return behaviour;
    }

    /** The approval rules (and whether they block merging). */
    public GitLabApprovalRules approvalRules() {
        return approvalRules;
    }

    /** Replaces the approval rules of a project (GitLab Premium's project approval rules, code owners included). */
    public synchronized void setApprovalRules(String projectPath, List<GitLabApprovalRules.Rule> rules) {
        approvalRules.setRules(project(projectPath).id, rules);
    }

    /** Names the accounts that may approve in a project (others get 403); empty: everyone but the author. */
    public synchronized void setEligibleApprovers(String projectPath, Set<String> usernames) {
        approvalRules.setEligible(project(projectPath).id, usernames);
    }

    /**
     * Whether merge request {@code iid} is approved as GitLab judges it (the project's {@code approvals_required}
     * and every rule met); true whatever the approvals while rules are not {@linkplain GitLabApprovalRules#enforced()
     * enforced}. Merging answers 405 with {@code not_approved} while false.
     */
    public synchronized boolean approvalsMet(String projectPath, long iid) {
        var project = project(projectPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        return !approvalsBlockMerging(project, mr);
    }

    /** Unmet approvals while they are enforced (everywhere or for this project): {@code not_approved}, merging 405. */
    private boolean approvalsBlockMerging(Project project, MergeRequest mr) {
        return approvalRules.enforcedFor(project.id) && !judge(project, mr).approved();
    }

    private GitLabApprovalRules.Judgement judge(Project project, MergeRequest mr) {
        return approvalRules.judge(project.id, mr.approvals.stream().map(a -> a.user().username()).toList(),
                properties.approvalsRequired());
    }

    /** Usernames that approved merge request {@code iid}, in approval order. */
    public synchronized List<String> approvedBy(String projectPath, long iid) {
        var project = project(projectPath);
        var mr = mergeRequest(project, iid);
        removeApprovalsGivenBeforePushWasProcessed(project, mr);
        return mr.approvals.stream().map(a -> a.user.username).toList();
    }

    /** {@code opened}, {@code merged}, {@code closed} or {@code locked}. */
    public synchronized String mergeRequestState(String projectPath, long iid) {
        var mr = mergeRequest(project(projectPath), iid);
        return mr.state(now());
    }

    /** The merge request's {@code detailed_merge_status} now. */
    public synchronized String detailedMergeStatus(String projectPath, long iid) {
        var project = project(projectPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        return detailedStatus(project, mr);
    }

    /** The merge request's head sha (its source branch head while open). */
    public synchronized String mergeRequestSha(String projectPath, long iid) {
        var project = project(projectPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        return sha(project, mr);
    }

    /** An open merge request as the simulator holds it: number, source branch, description. */
    public record OpenMergeRequest(long iid, String sourceBranch, String description) {}

    /** The open merge requests of a project, oldest first. */
    public synchronized List<OpenMergeRequest> openMergeRequests(String projectPath) {
        var open = new ArrayList<OpenMergeRequest>();
        for (var mr : project(projectPath).mergeRequests.values()) {
            if (mr.state.equals("opened")) {
                open.add(new OpenMergeRequest(mr.iid, mr.sourceBranch, mr.description));
            }
        }
        return open;
    }

    /** Numbers of the merge requests of a project, oldest first. */
    public synchronized List<Long> mergeRequestIids(String projectPath) {
        return List.copyOf(project(projectPath).mergeRequests.keySet());
    }

    /**
     * Everything the merge request's web page shows ({@link GitLabWebController}), read at once. The change is
     * what the merge did to the target (first parent of the merge commit to the merge commit) once merged,
     * else the source branch against its base.
     */
    synchronized MergeRequestPage.View mergeRequestPage(String projectPath, long iid) {
        var project = project(projectPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        var now = now();
        Map<String, String> before = Map.of();
        Map<String, String> after = Map.of();
        var mergeCommit = mr.mergeCommitSha == null ? null : project.commits.get(mr.mergeCommitSha);
        if (mergeCommit != null) {
            var parent = mergeCommit.parents().isEmpty() ? null : project.commits.get(mergeCommit.parents().getFirst());
            before = parent == null ? Map.of() : parent.files();
            after = mergeCommit.files();
        } else {
            var src = project.branches.get(mr.sourceBranch);
            if (src != null) {
                before = src.base;
                after = src.files;
            }
        }
        var changes = new ArrayList<MergeRequestPage.FileChange>();
        for (var path : new TreeSet<>(union(before.keySet(), after.keySet()))) {
            if (!Objects.equals(before.get(path), after.get(path))) {
                changes.add(new MergeRequestPage.FileChange(path, before.get(path), after.get(path)));
            }
        }
        var latest = latestPipeline(project, mr);
        return new MergeRequestPage.View(project.path, mr.iid, mr.title, mr.description, mr.state(now),
                detailedStatus(project, mr), mr.sourceBranch, mr.targetBranch, mr.author.username(), mr.createdAt,
                mr.mergedAt, mr.closedAt, mr.approvals.stream().map(a -> a.user().username()).toList(),
                properties.approvalsRequired(), latest == null ? null : latest.id,
                latest == null ? null : status(project, latest, now), mr.mergeError, List.copyOf(changes));
    }

    // ------------------------------------------------------------------ REST v4 operations (package-private)

    /** The token of the account named {@code username} (the rate limit counts by token), if it has one. */
    public synchronized Optional<String> tokenOf(String username) {
        return usersByToken.entrySet().stream().filter(entry -> entry.getValue().username().equals(username))
                .map(Map.Entry::getKey).findFirst();
    }

    synchronized User authenticate(String token) {
        if (token == null) {
            throw GitLabError.unauthorized();
        }
        var user = usersByToken.get(token);
        if (user == null) {
            throw GitLabError.unauthorized();
        }
        return user;
    }

    synchronized Map<String, Object> userJson(User user) {
        return GitLabJson.user(user, webUrl());
    }

    synchronized Map<String, Object> projectJson(String idOrPath) {
        var project = project(idOrPath);
        return GitLabJson.project(project, webUrl());
    }

    synchronized Map<String, Object> fileJson(String idOrPath, String path, String ref) {
        var project = project(idOrPath);
        var resolvedRef = ref == null || ref.isBlank() ? project.defaultBranch : ref;
        var files = filesAtOrNull(project, resolvedRef);
        if (files == null || !files.containsKey(path)) {
            throw GitLabError.notFound("File");
        }
        var commitSha = headOf(project, resolvedRef);
        return GitLabJson.file(path, files.get(path), resolvedRef, commitSha, lastCommitTouching(project, commitSha, path));
    }

    /**
     * {@code GET /projects/:id/repository/files/:file_path/blame?ref=} (lib/api/files.rb, GitLab 16-17): the file's lines
     * grouped into ranges of consecutive lines last changed by the same commit ({@code Gitlab::Blame#groups}), each as
     * {@code Entities::BlameRange}: {@code commit} ({@code Entities::BlameRangeCommit}: id, parent_ids, message, authored
     * and committed date, name and email) and {@code lines}. {@code ref} is required (400 "ref is missing"); an unknown
     * ref or file is 404 "File Not Found". Which commit last changed a line is told as git blame does for this file
     * format (lines are unique): walking back from the commit read, a line comes from the first commit whose parents all
     * lack it; at a merge commit the parent that has it is followed (so a merged line is the branch commit's, not the
     * merge's).
     */
    synchronized List<Map<String, Object>> blameJson(String idOrPath, String path, String ref) {
        if (ref == null || ref.isBlank()) {
            throw GitLabError.of(400, "ref is missing");
        }
        var project = project(idOrPath);
        var files = filesAtOrNull(project, ref);
        if (files == null || !files.containsKey(path)) {
            throw GitLabError.notFound("File");
        }
        var head = project.commits.get(headOf(project, ref));
        var ranges = new ArrayList<Map<String, Object>>();
        Commit current = null;
        List<String> lines = null;
        for (var line : files.get(path).lines().toList()) {
            var origin = originOf(project, head, path, line);
            if (current == null || !current.sha().equals(origin.sha())) {
                current = origin;
                lines = new ArrayList<>();
                var json = new LinkedHashMap<String, Object>();
                var commit = GitLabJson.commitBasic(project, origin, webUrl());
                var blamed = new LinkedHashMap<String, Object>();
                for (var field : List.of("id", "parent_ids", "message", "authored_date", "author_name", "author_email",
                        "committed_date", "committer_name", "committer_email")) {
                    blamed.put(field, commit.get(field));
                }
                json.put("commit", blamed);
                json.put("lines", lines);
                ranges.add(json);
            }
            lines.add(line);
        }
        return ranges;
    }

    /** The commit that last brought {@code line} into {@code path}, walking back from {@code from}. */
    private Commit originOf(Project project, Commit from, String path, String line) {
        var current = from;
        while (true) {
            Commit next = null;
            for (var parentSha : current.parents()) {
                var parent = project.commits.get(parentSha);
                var content = parent == null ? null : parent.files().get(path);
                if (content != null && content.lines().anyMatch(line::equals)) {
                    next = parent;
                    break;
                }
            }
            if (next == null) {
                return current;
            }
            current = next;
        }
    }

    synchronized String rawFile(String idOrPath, String path, String ref) {
        var project = project(idOrPath);
        var files = filesAtOrNull(project, ref == null || ref.isBlank() ? project.defaultBranch : ref);
        if (files == null || !files.containsKey(path)) {
            throw GitLabError.notFound("File");
        }
        return files.get(path);
    }

    synchronized Map<String, Object> branchJson(String idOrPath, String branch) {
        var project = project(idOrPath);
        var b = project.branches.get(branch);
        if (b == null) {
            throw GitLabError.notFound("Branch");
        }
        return GitLabJson.branch(project, b, project.commits.get(b.head), webUrl(), isMerged(project, b));
    }

    /** {@code GET /projects/:id/repository/commits/:sha} (lib/api/commits.rb): 404 "Commit Not Found" for an unknown sha. */
    synchronized Map<String, Object> commitJson(String idOrPath, String sha) {
        var project = project(idOrPath);
        var commit = sha == null ? null : project.commits.get(sha);
        if (commit == null) {
            throw GitLabError.notFound("Commit");
        }
        return GitLabJson.commit(project, commit, webUrl());
    }

    /**
     * {@code GET /projects/:id/repository/commits} with {@code ref_name} (a branch, a sha, or a range {@code from..to}:
     * doc/api/commits.md, "The name of a repository branch, tag or revision range", 17.x to 19.x) and {@code path}, newest
     * first. Like {@code git log from..to -- path} with git's default history simplification: a commit is listed when it
     * changed the file against its parent; a merge commit only when the file differs from every parent (one that took
     * the file from a parent is not listed, the commit that changed it is). An unknown ref answers 404.
     */
    synchronized List<Map<String, Object>> listCommits(String idOrPath, String refName, String path) {
        var project = project(idOrPath);
        var range = refName == null || refName.isBlank() ? project.defaultBranch : refName;
        var dots = range.indexOf("..");
        var to = dots < 0 ? range : range.substring(dots + 2);
        var excluded = dots < 0 ? Set.<String>of() : ancestors(project, knownHead(project, range.substring(0, dots)));
        var listed = new ArrayList<Commit>();
        for (var sha : ancestors(project, knownHead(project, to))) {
            var commit = project.commits.get(sha);
            if (commit != null && !excluded.contains(sha) && (path == null || path.isBlank() || changed(project, commit, path))) {
                listed.add(commit);
            }
        }
        listed.sort(Comparator.comparing(Commit::at).reversed());
        return listed.stream().map(commit -> GitLabJson.commitBasic(project, commit, webUrl())).toList();
    }

    /**
     * {@code GET /projects/:id/repository/merge_base?refs[]=...} (lib/api/repositories.rb, gitlabhq 017a6c12): fewer
     * than two refs 400 "Provide at least 2 refs"; an unknown ref 400 "Could not find ref(s): ..."; no common ancestor
     * 404 "Merge Base Not Found"; otherwise the commit ({@code Entities::Commit}). The common ancestor found first walking
     * back from the last ref: git's merge base whenever one ref contains the other (what Changeflow asks), and one of
     * the common ancestors otherwise.
     */
    synchronized Map<String, Object> mergeBaseJson(String idOrPath, List<String> refs) {
        var project = project(idOrPath);
        if (refs.size() < 2) {
            throw GitLabError.of(400, "Provide at least 2 refs");
        }
        var unknown = refs.stream().filter(ref -> !project.commits.containsKey(headOf(project, ref))).toList();
        if (!unknown.isEmpty()) {
            throw GitLabError.of(400, "Could not find " + (unknown.size() == 1 ? "ref" : "refs") + ": "
                    + String.join(", ", unknown));
        }
        Set<String> common = ancestors(project, headOf(project, refs.getFirst()));
        String base = null;
        for (var ref : refs.subList(1, refs.size())) {
            var shared = common;
            base = ancestors(project, headOf(project, ref)).stream().filter(shared::contains).findFirst().orElse(null);
            if (base == null) {
                throw GitLabError.notFound("Merge Base");
            }
            common = ancestors(project, base);
        }
        return GitLabJson.commit(project, project.commits.get(base), webUrl());
    }

    private String knownHead(Project project, String ref) {
        var head = headOf(project, ref);
        if (!project.commits.containsKey(head)) {
            throw GitLabError.notFound("Ref");
        }
        return head;
    }

    /** The authors of the merge request's commits: those of its source branch that its target branch does not have. */
    private static Set<String> committers(Project project, MergeRequest mr) {
        var src = project.branches.get(mr.sourceBranch);
        var target = project.branches.get(mr.targetBranch);
        if (src == null || target == null) {
            return Set.of();
        }
        var onTarget = ancestors(project, target.head);
        var names = new HashSet<String>();
        for (var sha : ancestors(project, src.head)) {
            var commit = project.commits.get(sha);
            if (!onTarget.contains(sha) && commit != null && commit.author() != null) {
                names.add(commit.author().username());
            }
        }
        return names;
    }

    /** {@code sha} and every commit reachable from it. */
    private static Set<String> ancestors(Project project, String sha) {
        var seen = new LinkedHashSet<String>();
        var toVisit = new ArrayDeque<String>(List.of(sha));
        while (!toVisit.isEmpty()) {
            var next = toVisit.poll();
            var commit = project.commits.get(next);
            if (commit != null && seen.add(next)) {
                toVisit.addAll(commit.parents());
            }
        }
        return seen;
    }

    private static boolean changed(Project project, Commit commit, String path) {
        if (commit.parents().isEmpty()) {
            return commit.files().containsKey(path);
        }
        return commit.parents().stream().map(project.commits::get)
                .noneMatch(parent -> parent != null && Objects.equals(parent.files().get(path), commit.files().get(path)));
    }

    synchronized Map<String, Object> createBranch(String idOrPath, String branch, String ref, User caller) {
        var project = project(idOrPath);
        if (branch == null || branch.isBlank() || ref == null || ref.isBlank()) {
            throw GitLabError.of(400, "branch and ref are missing");
        }
        if (project.branches.containsKey(branch)) {
            throw GitLabError.of(400, "Branch already exists");
        }
        checkPushRule(project, branch, null); // lib/api/branches.rb: CreateBranchService's error, 400
        var files = filesAtOrNull(project, ref);
        if (files == null) {
            throw GitLabError.of(400, "Invalid reference name: " + ref);
        }
        var b = new Branch(branch, headOf(project, ref), files);
        project.branches.put(branch, b);
        return GitLabJson.branch(project, b, project.commits.get(b.head), webUrl(), false);
    }

    /**
     * {@code POST /projects/:id/repository/commits}: several actions in one commit, all or nothing. A missing
     * {@code branch} is created from {@code start_branch}. With {@code force} (and {@code start_branch}) the
     * branch is overwritten, as GitLab documents it: the new commit's parent is {@code start_branch}'s head and
     * the actions apply to its files, whatever the branch held before; the branch's base becomes
     * {@code start_branch}'s files, so a rebase conflict of a merge request from it is gone (its
     * {@code merge_error} is cleared). Either way it is a push: a new head, a new pipeline, mergeability checked
     * again, approvals removed where the project resets them on push.
     */
    synchronized Map<String, Object> commit(String idOrPath, String branch, String message, String startBranch,
                                            boolean force, List<Map<String, Object>> actions, User caller) {
        var project = project(idOrPath);
        if (branch == null || branch.isBlank() || message == null || message.isBlank()) {
            throw GitLabError.of(400, "branch, commit_message are missing");
        }
        if (actions == null || actions.isEmpty()) {
            throw GitLabError.of(400, "actions is empty");
        }
        if (project.protectedBranches.contains(branch)) {
            throw GitLabError.of(403, "403 Forbidden - You are not allowed to push into this branch");
        }
        var start = startBranch == null || startBranch.isBlank() ? null : project.branches.get(startBranch);
        var b = project.branches.get(branch);
        // lib/api/commits.rb: Commits::CreateService turns the pre-receive refusal into 400 with its message
        checkPushRule(project, b == null ? branch : null, message);
        if (project.pushRule != null) {
            // the author's email (EE::Gitlab::Checks::PushRules::CommitCheck#check_commit) and the new files' names
            // (EE::Gitlab::Checks::DiffCheck#file_name_validation), as the commits API's pre-receive refuses them: 400
            Map<String, String> baseFiles = b != null && !force ? b.files : start == null ? Map.of() : start.files;
            var newPaths = actions.stream().filter(action -> !"delete".equals(action.get("action")))
                    .map(action -> String.valueOf(action.get("file_path"))).filter(path -> !baseFiles.containsKey(path))
                    .toList();
            var refusal = project.pushRule.refusesAuthorEmail(GitLabJson.email(caller))
                    .or(() -> newPaths.stream().map(project.pushRule::refusesNewFile).flatMap(Optional::stream).findFirst());
            if (refusal.isPresent()) {
                throw GitLabError.of(400, refusal.get());
            }
        }
        if ((b == null || force) && startBranch != null && !startBranch.isBlank() && start == null) {
            throw GitLabError.of(400, "Invalid reference name: " + startBranch);
        }
        if (b == null) {
            if (start == null) {
                throw GitLabError.of(400, "You can only create or edit files when you are on a branch");
            }
            b = new Branch(branch, start.head, start.files);
            project.branches.put(branch, b);
        } else if (force && start != null) {
            // Overwrite the branch: restart it at start_branch's head before the new commit.
            holdReportedHeads(project, b);
            b.head = start.head;
            b.files = start.files;
            b.base = start.files;
            b.baseSha = start.head;
            for (var mr : project.mergeRequests.values()) {
                if (mr.state.equals("opened") && mr.sourceBranch.equals(branch)) {
                    mr.mergeError = null;
                }
            }
        }
        var files = new TreeMap<>(b.files);
        for (var action : actions) {
            applyAction(files, action);
        }
        if (!force) {
            holdReportedHeads(project, b);
        }
        var before = b.files;
        var commit = applyPush(project, b, files, message, caller);
        resetApprovalsOfMergeRequestsFrom(project, branch, changedPaths(before, b.files));
        return GitLabJson.commit(project, commit, webUrl());
    }

    synchronized List<Map<String, Object>> listMergeRequests(String idOrPath, Predicate<Map<String, Object>> filter) {
        var project = project(idOrPath);
        var result = new ArrayList<Map<String, Object>>();
        for (var mr : project.mergeRequests.values().stream().sorted((a, b) -> Long.compare(b.id, a.id)).toList()) {
            settle(project, mr);
            var json = mergeRequestJson(project, mr, false, false);
            if (filter.test(json)) {
                result.add(json);
            }
        }
        return result;
    }

    synchronized Map<String, Object> createMergeRequest(String idOrPath, String source, String target, String title,
                                                        String description, User caller) {
        var project = project(idOrPath);
        if (source == null || source.isBlank() || title == null || title.isBlank()) {
            throw GitLabError.of(400, "source_branch, title are missing");
        }
        var targetBranch = target == null || target.isBlank() ? project.defaultBranch : target;
        var src = project.branches.get(source);
        if (src == null || !project.branches.containsKey(targetBranch)) {
            throw GitLabError.validation(422, "Source branch or target branch does not exist");
        }
        if (source.equals(targetBranch)) {
            throw GitLabError.validation(422, "You can't use same project/branch for source and target");
        }
        refuseASecondOpenOne(project, source, targetBranch, 0);
        var now = now();
        var mr = new MergeRequest(nextMergeRequestId++, project.nextIid++, source, targetBranch, title,
                description == null ? "" : description, caller, now);
        mr.checkingSince = now;
        project.mergeRequests.put(mr.iid, mr);
        var hasPipeline = project.pipelines.values().stream()
                .anyMatch(p -> p.ref.equals(source) && p.forSha.equals(src.head));
        if (!hasPipeline) {
            newPipeline(project, src, src.head, "merge_request_event", caller);
        }
        return mergeRequestJson(project, mr, true, false);
    }

    synchronized Map<String, Object> getMergeRequest(String idOrPath, long iid, boolean includeRebaseInProgress,
                                                     boolean includeDivergedCommitsCount) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        var json = mergeRequestJson(project, mr, true, includeRebaseInProgress);
        if (includeDivergedCommitsCount) {
            json.put("diverged_commits_count", divergedCommits(project, mr));
        }
        return json;
    }

    /** 409 when a merge request other than {@code iid} from {@code source} to {@code target} is open. */
    private static void refuseASecondOpenOne(Project project, String source, String target, long iid) {
        for (var other : project.mergeRequests.values()) {
            if (other.iid != iid && other.state.equals("opened") && other.sourceBranch.equals(source)
                    && other.targetBranch.equals(target)) {
                throw GitLabError.validation(409,
                        "Another open merge request already exists for this source branch: !" + other.iid);
            }
        }
    }

    /** {@code PUT /projects/:id/merge_requests/:iid}: title, description and {@code state_event} (close, reopen). */
    synchronized Map<String, Object> updateMergeRequest(String idOrPath, long iid, String stateEvent, String title,
                                                        String description, User caller) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        var now = now();
        if (title != null && !title.isBlank()) {
            mr.title = title;
        }
        if (description != null) {
            mr.description = description;
        }
        if ("close".equals(stateEvent) && mr.state.equals("opened")) {
            mr.state = "closed";
            mr.closedAt = now;
            mr.closedBy = caller;
        } else if ("reopen".equals(stateEvent) && mr.state.equals("closed")) {
            // one open merge request per source and target branch, on a reopen as on a create: GitLab validates every
            // save of an opened merge request (MergeRequest#validate_branches with existing_mrs_targeting_same_branch,
            // app/models/merge_request.rb) and the API answers 409 (conflict!(errors[:validate_branches]),
            // lib/api/helpers/merge_requests_helpers.rb); the merge request stays closed
            refuseASecondOpenOne(project, mr.sourceBranch, mr.targetBranch, mr.iid);
            mr.state = "opened";
            mr.closedAt = null;
            mr.closedBy = null;
            mr.checkingSince = now;
        }
        mr.updatedAt = now;
        return mergeRequestJson(project, mr, true, false);
    }

    synchronized List<Map<String, Object>> mergeRequestPipelines(String idOrPath, long iid) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        var now = now();
        return project.pipelines.values().stream()
                .filter(p -> p.ref.equals(mr.sourceBranch) && created(p, now))
                .sorted((a, b) -> Long.compare(b.id, a.id))
                .map(p -> GitLabJson.pipelineBasic(project, p, status(project, p, now), webUrl()))
                .toList();
    }

    synchronized Map<String, Object> pipelineJson(String idOrPath, long pipelineId) {
        var project = project(idOrPath);
        var pipeline = project.pipelines.get(pipelineId);
        var now = now();
        if (pipeline == null || !created(pipeline, now)) {
            throw GitLabError.notFound("");
        }
        return GitLabJson.pipeline(project, pipeline, status(project, pipeline, now), pipelineTimes(project, pipeline, now),
                webUrl());
    }

    synchronized Map<String, Object> approvalsJson(String idOrPath, long iid, User caller) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        var json = GitLabJson.approvals(project, mr, caller, properties.approvalsRequired(), mergeStatus(project, mr),
                webUrl());
        approvalRules.annotate(json, project.id, judge(project, mr));
        return json;
    }

    /**
     * {@code POST .../approve}, in GitLab's order ({@code lib/api/merge_request_approvals.rb}, 17.x to 19.2): 403 when
     * the caller's role may not approve at all ({@code find_merge_request_with_access(..., :approve_merge_request)};
     * {@code app/policies/merge_request_policy.rb}: below Developer); 409 on a stale {@code sha}
     * ({@code check_sha_param!}); when it already approved 401 (profile {@code gitlab-17}) or 304 (profile
     * {@code gitlab-19}, {@code not_modified!}); 401 when the approval service refuses: the caller authored the
     * merge request, it is not open, or the project's approval rules do not make the caller an eligible approver
     * ({@code unauthorized! unless success}; {@code ee/app/services/ee/merge_requests/approval_service.rb}
     * {@code can_be_approved?} is {@code merge_request.can_approve?(current_user)}); 422 with the items in effect when
     * the request carries stale check items (or none while they are enforced).
     *
     * @param checkItems the items the request acknowledges; null when the request carried none
     */
    synchronized Map<String, Object> approve(String idOrPath, long iid, String sha, List<String> checkItems,
                                             User caller) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        if (GitLabSetupAnswers.role(project, caller.username()) < GitLabSetupAnswers.DEVELOPER) {
            throw GitLabError.of(403, "403 Forbidden");
        }
        if (sha != null && !sha.isBlank() && !sha.equals(sha(project, mr))) {
            throw GitLabError.of(409, "SHA does not match HEAD of source branch: " + sha(project, mr));
        }
        if (mr.approvals.stream().anyMatch(a -> a.user == caller)) {
            var status = behaviour.versionProfile().alreadyApproved();
            throw status == 401 ? GitLabError.unauthorized() : GitLabError.withBody(status, new LinkedHashMap<>());
        }
        // ApprovalState#eligible_for_approval_by? (ee/app/models/approval_state.rb, 17.x to 19.1): the author only where
        // merge_requests_author_approval is on, a committer not where merge_requests_disable_committers_approval is on
        var author = mr.author == caller && !project.mergeRequestsAuthorApproval;
        var committer = project.mergeRequestsDisableCommittersApproval && committers(project, mr).contains(caller.username());
        if (!mr.state.equals("opened") || author || committer || !approvalRules.eligible(project.id, caller.username())
                || project.requireReauthenticationToApprove) {
            throw GitLabError.unauthorized();
        }
        if (!behaviour.checkItemsExtension()) {
            checkItems = null; // stock GitLab ignores the unknown parameter
        }
        var stale = !behaviour.checkItemsExtension() ? false : checkItems != null
                ? !new HashSet<>(checkItems).equals(new HashSet<>(project.checkItems))
                : project.enforceCheckItems && !project.checkItems.isEmpty();
        if (stale) {
            var body = new LinkedHashMap<String, Object>();
            body.put("message", "422 Unprocessable Entity: the approval check items changed");
            body.put("check_items", project.checkItems);
            throw GitLabError.withBody(422, body);
        }
        mr.approvals.add(new Approval(caller, now()));
        mr.updatedAt = now();
        var json = GitLabJson.approvals(project, mr, caller, properties.approvalsRequired(), mergeStatus(project, mr),
                webUrl());
        approvalRules.annotate(json, project.id, judge(project, mr));
        return json;
    }

    /** The check items now in effect: what the upstream configuration API answers. */
    synchronized Map<String, Object> checkItemsJson(String idOrPath) {
        var project = project(idOrPath);
        if (!behaviour.checkItemsExtension()) {
            // Stock GitLab has no such route: Grape's answer to an unknown path.
            var body = new LinkedHashMap<String, Object>();
            body.put("error", "404 Not Found");
            throw GitLabError.withBody(404, body);
        }
        var body = new LinkedHashMap<String, Object>();
        body.put("project_id", project.id);
        body.put("check_items", project.checkItems);
        body.put("enforced", project.enforceCheckItems);
        return body;
    }

    /**
     * {@code PUT .../merge}, answered as the configured profile's GitLab does (see {@link GitLabSimulatorProperties.Profile}):
     * 17/18.x: 405 for a merge request that is not open, a draft, unresolved discussions, CI that must pass, missing
     * approvals or another blocking status, then 422 "Branch cannot be merged" for a conflict, a check in progress or
     * a needed rebase, then 409 for a stale {@code sha}; 19.x: 400 without {@code sha}, 405 for every "not
     * mergeable", then 409 for a stale {@code sha}. A locked merge request answers 409. The {@code sha} is compared
     * with the branch's real head: during the refresh lag a merge pinned to the head the merge request still reports
     * is refused (GitLab itself would merge that older commit).
     */
    synchronized Map<String, Object> merge(String idOrPath, long iid, String sha, User caller) {
        return merge(idOrPath, iid, sha, false, caller);
    }

    /**
     * {@link #merge(String, long, String, User)} with GitLab's {@code skip_merge_train}: on a project with merge trains,
     * a merge restarts the train's pipelines unless it was sent with it and the project allows skipping
     * ({@link GitLabMergeTrain}); the answer is the same either way.
     */
    synchronized Map<String, Object> merge(String idOrPath, long iid, String sha, boolean skipMergeTrain, User caller) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        var now = now();
        var profile = properties.gitlabProfile();
        var gitlab19 = profile == GitLabSimulatorProperties.Profile.GITLAB_19;
        if (gitlab19 && project.requireShaForMerge && (sha == null || sha.isBlank())) {
            throw GitLabError.of(400, "SHA must be provided when merging");
        }
        if (!GitLabSetupAnswers.mayMerge(project, mr.targetBranch, caller.username())) {
            throw GitLabError.unauthorized(); // can_be_merged_by? is false: no right to merge into the target
        }
        var src = project.branches.get(mr.sourceBranch);
        var target = project.branches.get(mr.targetBranch);
        var head = src == null ? null : src.head;
        var staleSha = sha != null && !sha.isBlank() && !sha.equals(head);
        if (gitlab19 && staleSha) {
            // 19.x: build_merge_params runs check_sha_param! before execute_merge asks mergeable? (lib/api/merge_requests.rb)
            throw GitLabError.of(409, "SHA does not match HEAD of source branch: " + sha(project, mr));
        }
        if (!mr.state.equals("opened")) {
            throw GitLabError.methodNotAllowed();
        }
        if (mr.lockedUntil != null && now.isBefore(mr.lockedUntil)) {
            throw GitLabError.of(409, "409 Conflict: the merge request is locked");
        }
        var detailed = detailedStatus(project, mr);
        if (!detailed.equals("mergeable")) {
            if (gitlab19 || !CANNOT_BE_MERGED_17.contains(detailed)) {
                throw GitLabError.methodNotAllowed();
            }
            throw GitLabError.of(422, "Branch cannot be merged");
        }
        if (staleSha) {
            // 17.x/18.x: not_allowed! and the 422 come before check_sha_param!
            throw GitLabError.of(409, "SHA does not match HEAD of source branch: " + sha(project, mr));
        }
        var mergeCommitMessage = "Merge branch '" + mr.sourceBranch + "' into '" + mr.targetBranch + "'\n\n" + mr.title;
        if (project.pushRule != null && project.mergeMethod != GitLabProjectDefaults.MergeMethod.FF) {
            // EE MergeService#hooks_validation_error (ee/app/services/ee/merge_requests/merge_service.rb, 17.x to 19.1):
            // the merge commit's message against the push rule, skipped where merges fast-forward; merge_error, 422.
            var refusal = project.pushRule.refusesMessage(mergeCommitMessage);
            if (refusal.isPresent()) {
                mr.mergeError = refusal.get();
                throw GitLabError.of(422, "Branch cannot be merged");
            }
        }
        if (project.mergeRefusals > 0) {
            // Every check passed and the merge itself failed (a push rule, a server hook): MergeService records
            // merge_error and the API answers 422 (lib/api/merge_requests.rb, execute_immediate_merge!, 17.x to 19.1).
            project.mergeRefusals--;
            mr.mergeError = project.mergeRefusalMessage;
            throw GitLabError.of(422, "Branch cannot be merged");
        }
        recordMerge(project, mr, head, now);
        if (project.mergeMethod == GitLabProjectDefaults.MergeMethod.FF) {
            // Fast-forward: the source contains the target's head (need_rebase otherwise); the target moves to it.
            target.files = src.files;
            target.head = src.head;
            mr.mergeCommitSha = null;
        } else {
            var merged = new TreeMap<>(target.files);
            applyChange(merged, src);
            var commit = newCommit(project, List.of(target.head, src.head), mergeCommitMessage, caller, merged);
            target.files = commit.files;
            target.head = commit.sha;
            mr.mergeCommitSha = commit.sha;
        }
        mr.state = "merged";
        mr.mergedAt = now;
        mr.mergedBy = caller;
        mr.mergedSha = src.head;
        mr.updatedAt = now;
        mr.mergeError = null;
        if (project.mergeTrainsEnabled) {
            // ee/app/services/ee/merge_requests/merge_service.rb: skipping_active_merge_train? is
            // params[:skip_merge_train] && project.merge_trains_skip_train_allowed?; otherwise the train restarts
            project.mergeTrain.mergedOutside(mr.iid, skipMergeTrain && project.mergeTrainsSkipTrainAllowed, () -> nextPipelineId++);
        }
        recheckMergeRequestsInto(project, target.name, mr);
        if (mergeListener != null) {
            // Told inside the lock on purpose: the deploy pipeline must see merges in merge order.
            mergeListener.merged(project.path, mr.iid, mr.description);
        }
        return mergeRequestJson(project, mr, true, false);
    }

    /**
     * {@code PUT .../rebase}: 202 now; the rebase completes (or fails with {@code merge_error}) after a moment. Refusals
     * as GitLab's ({@code lib/api/merge_requests.rb} rebase endpoint, {@code app/services/merge_requests/rebase_service.rb}
     * {@code validate}, {@code app/models/merge_request.rb} {@code rebase_async}; 17.x to 19.2): 403 "Source branch does
     * not exist", "Cannot push to source branch", "Source branch is protected from force push" ({@code forbidden!}),
     * and 409 when the rebase could not be queued ({@code RebaseLockTimeout}: "Failed to enqueue the rebase operation,
     * possibly due to a long-lived transaction. Try again later.", see {@link #refuseRebaseEnqueue}).
     */
    synchronized Map<String, Object> rebase(String idOrPath, long iid, User caller) {
        var project = project(idOrPath);
        var mr = mergeRequest(project, iid);
        settle(project, mr);
        if (!project.branches.containsKey(mr.sourceBranch)) {
            throw GitLabError.of(403, "403 Forbidden - Source branch does not exist");
        }
        if (GitLabSetupAnswers.role(project, caller.username()) < GitLabSetupAnswers.DEVELOPER) {
            throw GitLabError.of(403, "403 Forbidden - Cannot push to source branch");
        }
        if (project.protectedBranches.contains(mr.sourceBranch)) {
            // A protected branch here allows no force push (allow_force_push defaults to false).
            throw GitLabError.of(403, "403 Forbidden - Source branch is protected from force push");
        }
        if (project.rebaseEnqueueRefusals > 0) {
            project.rebaseEnqueueRefusals--;
            throw GitLabError.of(409, "Failed to enqueue the rebase operation, possibly due to a long-lived transaction. "
                    + "Try again later.");
        }
        if (!mr.state.equals("opened") || mr.rebaseRequestedAt != null) {
            // rebase_async raises StaleObjectError inside the rebase lock for a closed merge request or a rebase in
            // progress; the API answers that with 409 too.
            throw GitLabError.of(409, "409 Conflict");
        }
        mr.rebaseRequestedAt = now();
        mr.rebaseRequestedBy = caller;
        mr.mergeError = null;
        var body = new LinkedHashMap<String, Object>();
        body.put("rebase_in_progress", true);
        return body;
    }

    // ------------------------------------------------------------------ internals

    private User addUser(String username, String name, String token) {
        var user = new User(nextUserId++, username, name);
        if (token != null) {
            usersByToken.put(token, user);
        }
        return user;
    }

    private Instant now() {
        return clock.instant();
    }

    private Optional<Project> findProject(String idOrPath) {
        if (idOrPath == null) {
            return Optional.empty();
        }
        if (idOrPath.chars().allMatch(Character::isDigit) && !idOrPath.isEmpty()) {
            return Optional.ofNullable(projects.get(Long.parseLong(idOrPath)));
        }
        return projects.values().stream().filter(p -> p.path.equals(idOrPath)).findFirst();
    }

    private Project project(String idOrPath) {
        return findProject(idOrPath).orElseThrow(() -> GitLabError.notFound("Project"));
    }

    private MergeRequest mergeRequest(Project project, long iid) {
        var mr = project.mergeRequests.get(iid);
        if (mr == null) {
            throw GitLabError.of(404, "404 Not found");
        }
        return mr;
    }

    /** The head {@code sha} the merge request reports: its branch's head, or during the refresh lag the one before. */
    private String sha(Project project, MergeRequest mr) {
        if (mr.mergedSha != null) {
            return mr.mergedSha;
        }
        if (mr.staleUntil != null && now().isBefore(mr.staleUntil)) {
            return mr.staleSha;
        }
        var src = project.branches.get(mr.sourceBranch);
        return src == null ? null : src.head;
    }

    /** Files at a branch or commit sha; null when the ref does not exist. */
    private Map<String, String> filesAtOrNull(Project project, String ref) {
        var branch = project.branches.get(ref);
        if (branch != null) {
            return branch.files;
        }
        var commit = project.commits.get(ref);
        return commit == null ? null : commit.files;
    }

    private Map<String, String> filesAt(Project project, String ref) {
        var files = filesAtOrNull(project, ref);
        return files == null ? Map.of() : files;
    }

    private String headOf(Project project, String ref) {
        var branch = project.branches.get(ref);
        return branch != null ? branch.head : ref;
    }

    private String lastCommitTouching(Project project, String sha, String path) {
        var current = project.commits.get(sha);
        while (current != null && !current.parents.isEmpty()) {
            var parent = project.commits.get(current.parents.getFirst());
            if (parent == null || !Objects.equals(parent.files.get(path), current.files.get(path))) {
                return current.sha;
            }
            current = parent;
        }
        return current == null ? sha : current.sha;
    }

    private boolean isMerged(Project project, Branch branch) {
        return project.mergeRequests.values().stream()
                .anyMatch(mr -> mr.state.equals("merged") && mr.sourceBranch.equals(branch.name));
    }

    private static void applyAction(Map<String, String> files, Map<String, Object> action) {
        var kind = String.valueOf(action.get("action"));
        var path = action.get("file_path") == null ? null : String.valueOf(action.get("file_path"));
        if (path == null || path.isBlank()) {
            throw GitLabError.of(400, "actions[file_path] is missing");
        }
        var content = action.get("content") == null ? "" : String.valueOf(action.get("content"));
        if ("base64".equals(action.get("encoding"))) {
            content = new String(Base64.getMimeDecoder().decode(content), StandardCharsets.UTF_8);
        }
        switch (kind) {
            case "create" -> {
                if (files.containsKey(path)) {
                    throw GitLabError.of(400, "A file with this name already exists");
                }
                files.put(path, content);
            }
            case "update" -> {
                if (!files.containsKey(path)) {
                    throw GitLabError.of(400, "A file with this name doesn't exist");
                }
                files.put(path, content);
            }
            case "delete" -> {
                if (files.remove(path) == null) {
                    throw GitLabError.of(400, "A file with this name doesn't exist");
                }
            }
            case "move" -> {
                var previous = action.get("previous_path") == null ? null : String.valueOf(action.get("previous_path"));
                if (previous == null || !files.containsKey(previous)) {
                    throw GitLabError.of(400, "A file with this name doesn't exist");
                }
                var old = files.remove(previous);
                files.put(path, action.get("content") == null ? old : content);
            }
            case "chmod" -> {
                if (!files.containsKey(path)) {
                    throw GitLabError.of(400, "A file with this name doesn't exist");
                }
            }
            default -> throw GitLabError.of(400, "actions[action] does not have a valid value");
        }
    }

    /** Records a commit on {@code branch} and everything a push triggers. */
    private Commit applyPush(Project project, Branch branch, Map<String, String> files, String message, User author) {
        var commit = newCommit(project, List.of(branch.head), message, author, files);
        branch.files = commit.files;
        branch.head = commit.sha;
        afterPush(project, branch, author);
        return commit;
    }

    private void afterPush(Project project, Branch branch, User pusher) {
        var now = now();
        if (!branch.name.equals(project.defaultBranch)) {
            newPipeline(project, branch, branch.head, "push", pusher);
        }
        for (var mr : project.mergeRequests.values()) {
            if (mr.state.equals("opened") && mr.sourceBranch.equals(branch.name)) {
                mr.checkingSince = now;
                mr.pushedAt = now;
                mr.updatedAt = now;
            }
        }
        recheckMergeRequestsInto(project, branch.name, null);
    }

    /**
     * A push to a merge request's source branch removes its approvals where the project resets them on push; otherwise,
     * where the project removes "approvals by Code Owners if their files changed" ({@code selective_code_owner_removals},
     * EE {@code MergeRequests::BaseService#reset_approvals?}, ee/app/services/ee/merge_requests/base_service.rb, 17.x to
     * 19.1), the approvals of the code owners of a changed file (the accounts of a code-owner rule whose pattern matches
     * it) are removed, the others kept.
     */
    private void resetApprovalsOfMergeRequestsFrom(Project project, String branch, Set<String> changed) {
        if (!project.resetApprovalsOnPush && !project.selectiveCodeOwnerRemovals) {
            return;
        }
        var owners = new HashSet<String>();
        for (var rule : approvalRules.rules(project.id)) {
            if (rule.ruleType().equals("code_owner") && changed.stream().anyMatch(path -> codeOwnersPattern(rule.name(), path))) {
                owners.addAll(rule.eligible());
            }
        }
        for (var mr : project.mergeRequests.values()) {
            if (mr.state.equals("opened") && mr.sourceBranch.equals(branch)) {
                if (project.resetApprovalsOnPush) {
                    mr.approvals.clear();
                } else {
                    mr.approvals.removeIf(a -> owners.contains(a.user().username()));
                }
            }
        }
    }

    /** Paths whose content differs between two file sets. */
    private static Set<String> changedPaths(Map<String, String> before, Map<String, String> after) {
        var changed = new HashSet<String>();
        for (var path : union(before.keySet(), after.keySet())) {
            if (!Objects.equals(before.get(path), after.get(path))) {
                changed.add(path);
            }
        }
        return changed;
    }

    /**
     * Whether a CODEOWNERS {@code pattern} covers {@code path} (doc/user/project/codeowners/reference.md): a leading
     * {@code /} anchors at the root, a trailing {@code /} names a directory, {@code *} matches within one path segment
     * and {@code **} across them; a pattern without a slash matches the file name anywhere.
     */
    static boolean codeOwnersPattern(String pattern, String path) {
        var p = pattern.strip();
        if (p.endsWith("/")) {
            p = p + "**";
        }
        var anchored = p.startsWith("/") || p.substring(0, Math.max(0, p.length() - 1)).contains("/");
        p = p.startsWith("/") ? p.substring(1) : p;
        var regex = new StringBuilder(anchored ? "^" : "(^|.*/)");
        for (int i = 0; i < p.length(); i++) {
            var c = p.charAt(i);
            if (c == '*' && i + 1 < p.length() && p.charAt(i + 1) == '*') {
                regex.append(".*");
                i++;
            } else if (c == '*') {
                regex.append("[^/]*");
            } else if (c == '?') {
                regex.append("[^/]");
            } else {
                regex.append(java.util.regex.Pattern.quote(String.valueOf(c)));
            }
        }
        return path.matches(regex.append("$").toString());
    }

    /** A changed target branch makes GitLab re-check the mergeability of every open merge request into it. */
    private void recheckMergeRequestsInto(Project project, String target, MergeRequest except) {
        var now = now();
        for (var mr : project.mergeRequests.values()) {
            if (mr != except && mr.state.equals("opened") && mr.targetBranch.equals(target)) {
                mr.checkingSince = now;
            }
        }
    }

    private Commit newCommit(Project project, List<String> parents, String message, User author,
                             Map<String, String> files) {
        var sha = newSha(project.path + "\n" + message + "\n" + files.hashCode());
        var parentFiles = parents.isEmpty() ? Map.<String, String>of() : project.commits.get(parents.getFirst()).files;
        int additions = 0;
        int deletions = 0;
        for (var path : union(parentFiles.keySet(), files.keySet())) {
            if (!Objects.equals(parentFiles.get(path), files.get(path))) {
                additions += lines(files.get(path));
                deletions += lines(parentFiles.get(path));
            }
        }
        var commit = new Commit(sha, List.copyOf(parents), message, author, now(), Map.copyOf(files), additions,
                deletions);
        project.commits.put(sha, commit);
        return commit;
    }

    private static int lines(String content) {
        return content == null || content.isEmpty() ? 0 : (int) content.lines().count();
    }

    private String newSha(String seed) {
        try {
            var digest = MessageDigest.getInstance("SHA-1");
            return HEX.formatHex(digest.digest((seed + "\n" + (shaCounter++) + "\n" + System.nanoTime())
                    .getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        var all = new LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }

    /** Paths whose content on the branch differs from its base (null value: deleted). */
    private static Map<String, String> change(Branch branch) {
        var change = new LinkedHashMap<String, String>();
        for (var path : union(branch.base.keySet(), branch.files.keySet())) {
            if (!Objects.equals(branch.base.get(path), branch.files.get(path))) {
                change.put(path, branch.files.get(path));
            }
        }
        return change;
    }

    private static void applyChange(Map<String, String> files, Branch branch) {
        change(branch).forEach((path, content) -> {
            if (content == null) {
                files.remove(path);
            } else {
                files.put(path, content);
            }
        });
    }

    private static boolean conflicts(Branch source, Branch target) {
        for (var entry : change(source).entrySet()) {
            var path = entry.getKey();
            var onTarget = target.files.get(path);
            if (!Objects.equals(onTarget, source.base.get(path)) && !Objects.equals(onTarget, entry.getValue())) {
                return true;
            }
        }
        return false;
    }

    private int divergedCommits(Project project, MergeRequest mr) {
        var src = project.branches.get(mr.sourceBranch);
        var target = project.branches.get(mr.targetBranch);
        return src == null || target == null || src.base.equals(target.files) ? 0 : 1;
    }

    /** Completes a due rebase. */
    private void settle(Project project, MergeRequest mr) {
        removeApprovalsGivenBeforePushWasProcessed(project, mr);
        if (mr.rebaseRequestedAt == null || now().isBefore(mr.rebaseRequestedAt.plus(properties.rebaseDuration()))) {
            return;
        }
        mr.rebaseRequestedAt = null;
        var src = project.branches.get(mr.sourceBranch);
        var target = project.branches.get(mr.targetBranch);
        if (src == null || target == null || !mr.state.equals("opened")) {
            return;
        }
        if (conflicts(src, target)) {
            mr.mergeError = "Rebase failed: Rebase locally, resolve all conflicts, then push the branch.";
            return;
        }
        if (src.base.equals(target.files)
                && (!project.mergeMethod.needsRebasedSource() || Objects.equals(src.baseSha, target.head))) {
            return;
        }
        var rebased = new TreeMap<>(target.files);
        applyChange(rebased, src);
        src.base = target.files;
        src.baseSha = target.head;
        // The branch's commit replayed onto the target with its message (GitLab rebases through Gitaly's UserRebaseConfirmable,
        // app/services/merge_requests/rebase_service.rb, 17.x to 19.x: git's rebase keeps each commit's message).
        var replayed = project.commits.get(src.head);
        var commit = newCommit(project, List.of(target.head), replayed == null ? "Rebase " + src.name + " onto " + target.name
                : replayed.message(), mr.rebaseRequestedBy == null ? root : mr.rebaseRequestedBy, rebased);
        holdReportedHeads(project, src);
        src.files = commit.files;
        src.head = commit.sha;
        afterPush(project, src, mr.rebaseRequestedBy == null ? root : mr.rebaseRequestedBy);
    }

    /**
     * GitLab resets approvals on push once it has processed the push (asynchronously): an approval given after
     * the push but before that (while the merge request is still {@code checking}) is removed too.
     */
    private void removeApprovalsGivenBeforePushWasProcessed(Project project, MergeRequest mr) {
        // Only a push to the source branch resets approvals (MergeRequests::RefreshService), not the check after the
        // merge request was opened or its target branch moved.
        if (!project.resetApprovalsOnPush || mr.pushedAt == null) {
            return;
        }
        var processedAt = mr.pushedAt.plus(properties.checkingDuration());
        if (now().isBefore(processedAt)) {
            return;
        }
        mr.approvals.removeIf(a -> !a.at().isBefore(mr.pushedAt) && a.at().isBefore(processedAt));
    }

    /** Timings are read now, so shortening them (tests, the control API) also shortens waits already under way. */
    private boolean checking(MergeRequest mr, Instant now) {
        return mr.checkingSince != null && now.isBefore(mr.checkingSince.plus(properties.checkingDuration()));
    }

    private String detailedStatus(Project project, MergeRequest mr) {
        var now = now();
        if (!mr.state(now).equals("opened")) {
            return "not_open";
        }
        if (mr.rebaseRequestedAt != null || checking(mr, now)) {
            return "checking";
        }
        var src = project.branches.get(mr.sourceBranch);
        var target = project.branches.get(mr.targetBranch);
        if (src == null || target == null) {
            // a missing branch: CheckBrokenStatusService's broken_status on 17/18.x; CheckCommitsStatusService's
            // commits_status once the switch_broken_status flag is gone (app/services/merge_requests/mergeability/
            // check_commits_status_service.rb, "Checks source branch exists and contains commits"), the 19.x profile
            return properties.gitlabProfile() == GitLabSimulatorProperties.Profile.GITLAB_19 ? "commits_status" : "broken_status";
        }
        if (mr.forcedStatus != null) {
            return mr.forcedStatus;
        }
        // MergeRequest.mergeable_state_checks (app/models/merge_request.rb, 17.x to 19.2): open, merge time, draft,
        // commits, discussions, CI; the git checks (conflict, rebase) come after them.
        if (mr.mergeAfter != null && mr.mergeAfter.isAfter(now)) {
            return "merge_time"; // MergeRequests::Mergeability::CheckMergeTimeService: merge_after still in the future
        }
        if (mr.draft) {
            return "draft_status";
        }
        if (project.onlyAllowMergeIfAllDiscussionsAreResolved && mr.unresolvedDiscussions > 0) {
            return "discussions_not_resolved";
        }
        if (conflicts(src, target)) {
            return "conflict";
        }
        if (project.mergeMethod.needsRebasedSource() && !Objects.equals(src.baseSha, target.head)) {
            return "need_rebase";
        }
        if (approvalsBlockMerging(project, mr)) {
            return "not_approved";
        }
        if (project.statusChecksMustPass && !"passed".equals(mr.statusChecks)) {
            return "status_checks_must_pass";
        }
        if (project.onlyAllowMergeIfPipelineSucceeds) {
            var status = headPipelineStatus(project, mr, now);
            if (!"success".equals(status)) {
                return "failed".equals(status) || "canceled".equals(status) ? "ci_must_pass" : "ci_still_running";
            }
        }
        return "mergeable";
    }

    private String mergeStatus(Project project, MergeRequest mr) {
        return switch (detailedStatus(project, mr)) {
            case "checking" -> "checking";
            case "conflict", "broken_status", "commits_status" -> "cannot_be_merged";
            default -> "can_be_merged";
        };
    }

    /** Every merge performed since the last {@link #reset()}, in merge order, each with its pipeline evidence. */
    public synchronized List<MergeRecord> mergeRecords() {
        return List.copyOf(mergeRecords);
    }

    private void recordMerge(Project project, MergeRequest mr, String head, Instant now) {
        var pipeline = project.pipelines.values().stream()
                .filter(p -> p.ref.equals(mr.sourceBranch) && p.forSha.equals(head) && created(p, now))
                .max((a, b) -> Long.compare(a.id, b.id))
                .orElse(null);
        mergeRecords.add(new MergeRecord(project.path, mr.iid, mr.sourceBranch, head,
                pipeline == null ? null : status(project, pipeline, now), pipeline == null ? null : pipeline.id, now));
    }

    private Pipeline latestPipeline(Project project, MergeRequest mr) {
        var now = now();
        return project.pipelines.values().stream()
                .filter(p -> p.ref.equals(mr.sourceBranch) && created(p, now))
                .max((a, b) -> Long.compare(a.id, b.id))
                .orElse(null);
    }

    /**
     * The merge request's {@code head_pipeline} as the API answers it: the stored association, not the head's own
     * pipeline. GitLab sets it when a pipeline of the merge request's head is created
     * ({@code app/workers/merge_requests/update_head_pipeline_worker.rb} calling {@code MergeRequest#update_head_pipeline},
     * {@code app/models/merge_request.rb}, 17.x to 19.1) and exposes it as is ({@code lib/api/entities/merge_request.rb}:
     * {@code expose :head_pipeline}); a push that creates no pipeline (or before it is created) leaves the previous
     * head's. Only {@code MergeRequest#diff_head_pipeline} checks {@code matches_sha_or_source_sha?(diff_head_sha)}
     * ({@link #diffHeadPipeline}). Here: the latest created pipeline of the reported head, else the latest created one
     * of the source branch; null before the first.
     */
    private Pipeline headPipeline(Project project, MergeRequest mr) {
        var own = diffHeadPipeline(project, mr);
        return own != null ? own : latestPipeline(project, mr);
    }

    /** GitLab's {@code MergeRequest#diff_head_pipeline}: the created pipeline that ran for the reported head (by
     * {@code sha}, or for a merged-results pipeline by {@code source_sha}); null when that head has none. */
    private Pipeline diffHeadPipeline(Project project, MergeRequest mr) {
        var head = sha(project, mr);
        var now = now();
        return project.pipelines.values().stream()
                .filter(p -> p.ref.equals(mr.sourceBranch) && p.forSha.equals(head) && created(p, now))
                .max((a, b) -> Long.compare(a.id, b.id))
                .orElse(null);
    }

    /** Whether {@code pipeline} exists by {@code now} (see {@link #setPipelineCreationDelay}). */
    private static boolean created(Pipeline pipeline, Instant now) {
        return !pipeline.createdAt.isAfter(now);
    }

    private String headPipelineStatus(Project project, MergeRequest mr, Instant now) {
        // GitLab's mergeability check asks diff_head_pipeline (app/models/merge_request.rb, mergeable_ci_state?)
        var head = diffHeadPipeline(project, mr);
        return head == null ? null : status(project, head, now);
    }

    /**
     * Before {@code branch}'s head moves: every open merge request from it keeps reporting the head it reports now
     * for the refresh lag (GitLab refreshes merge requests asynchronously after a push).
     */
    private void holdReportedHeads(Project project, Branch branch) {
        var lag = properties.refreshLag();
        if (lag.isZero()) {
            return;
        }
        for (var mr : project.mergeRequests.values()) {
            if (mr.state.equals("opened") && mr.sourceBranch.equals(branch.name)) {
                mr.staleSha = sha(project, mr);
                mr.staleUntil = now().plus(lag);
            }
        }
    }

    private void newPipeline(Project project, Branch branch, String sha, String source, User user) {
        if (!project.ci || !project.createsPipelines) {
            return; // a project without CI, or whose rules create no pipeline for this push: GitLab creates none
        }
        var before = project.commits.get(sha);
        var beforeSha = before == null || before.parents.isEmpty() ? "0000000000000000000000000000000000000000"
                : before.parents.getFirst();
        var marker = change(branch).values().stream().anyMatch(GitLabSimulator::carriesFailMarker);
        var openFrom = project.mergeRequests.values().stream()
                .filter(mr -> mr.state.equals("opened") && mr.sourceBranch.equals(branch.name)).findFirst();
        var target = openFrom.map(mr -> project.branches.get(mr.targetBranch)).orElse(null);
        var mergedResults = properties.mergedResultsPipelines() && target != null;
        // A merged-results pipeline runs for the head merged into the target: its sha is that merge commit's, whose
        // parents are the target's head and the head (MergeRequests::MergeToRefService, app/services/merge_requests/
        // merge_to_ref_service.rb: Gitaly's UserMergeToRef with first_parent_ref), stored so the commits API answers it.
        var pipelineSha = mergedResults ? newCommit(project, List.of(target.head, sha), "Merge " + sha + " into "
                + target.name, user, branch.files).sha() : sha;
        var pipeline = new Pipeline(nextPipelineId++, project.nextPipelineIid++, branch.name, pipelineSha, beforeSha,
                mergedResults ? "merge_request_event" : source, user, now().plus(pipelineCreationDelay),
                properties.pipelineDuration(), marker, sha);
        project.pipelines.put(pipeline.id, pipeline);
    }

    /** Whether a changed file's content contains {@link #FAIL_PIPELINE_MARKER}, ignoring case. */
    static boolean carriesFailMarker(String content) {
        return content != null && content.toUpperCase(Locale.ROOT).contains(FAIL_PIPELINE_MARKER);
    }

        private String status(Project project, Pipeline pipeline, Instant now) {
        var forced = project.forcedOutcomes.getOrDefault(pipeline.ref, PipelineOutcome.AUTO);
        var elapsed = Duration.between(pipeline.createdAt, now);
        var queue = pipeline.duration.dividedBy(5);
        return switch (forced) {
            case SUCCESS -> "success";
            case FAILED -> "failed";
            case HANG -> elapsed.compareTo(queue) < 0 ? "pending" : "running";
            default -> forced.fixedStatus();
            case AUTO -> {
                if (elapsed.compareTo(pipeline.duration) >= 0) {
                    yield pipeline.marker ? "failed" : "success";
                }
                yield elapsed.compareTo(queue) < 0 ? "pending" : "running";
            }
        };
    }

    /**
     * started_at, finished_at and duration of a pipeline as far as known now. A pipeline forced to end (success,
     * failed) before its duration ran out finished when it was forced, as GitLab stamps {@code finished_at} when the
     * pipeline's status becomes a completed one ({@code Ci::Pipeline} state machine, {@code app/models/ci/pipeline.rb}:
     * {@code before_transition any => [:success, :failed, :canceled]} sets {@code finished_at}).
     */
    private PipelineTimes pipelineTimes(Project project, Pipeline pipeline, Instant now) {
        var started = pipeline.createdAt.plus(pipeline.duration.dividedBy(5));
        var finished = pipeline.createdAt.plus(pipeline.duration);
        var forced = project.forcedOutcomes.getOrDefault(pipeline.ref, PipelineOutcome.AUTO);
        var forcedAt = project.forcedAt.get(pipeline.ref);
        if ((forced == PipelineOutcome.SUCCESS || forced == PipelineOutcome.FAILED) && forcedAt != null) {
            var endedAt = forcedAt.isAfter(pipeline.createdAt) ? forcedAt : pipeline.createdAt;
            finished = endedAt.isBefore(finished) ? endedAt : finished;
            started = finished.isBefore(started) ? finished : started;
        }
        return new PipelineTimes(now.isBefore(started) ? null : started, now.isBefore(finished) ? null : finished);
    }

    private Map<String, Object> mergeRequestJson(Project project, MergeRequest mr, boolean single,
                                                 boolean includeRebaseInProgress) {
        var src = project.branches.get(mr.sourceBranch);
        var target = project.branches.get(mr.targetBranch);
        var latest = headPipeline(project, mr);
        var now = now();
        var view = new MergeRequestView(mr.state(now), detailedStatus(project, mr), mergeStatus(project, mr),
                sha(project, mr), src == null ? null : src.baseSha,
                src != null && target != null && conflicts(src, target) && mr.state.equals("opened"),
                latest == null ? null : GitLabJson.pipelineBasic(project, latest, status(project, latest, now),
                        webUrl()),
                src == null ? 0 : change(src).size(), mr.rebaseRequestedAt != null);
        return GitLabJson.mergeRequest(project, mr, view, single, includeRebaseInProgress, webUrl());
    }

    // ------------------------------------------------------------------ model

    record User(long id, String username, String name) {}

    record Approval(User user, Instant at) {}

    record Commit(String sha, List<String> parents, String message, User author, Instant at,
                  Map<String, String> files, int additions, int deletions) {}

    record PipelineTimes(Instant startedAt, Instant finishedAt) {}

    /** What the JSON of a merge request needs beyond the stored fields. */
    record MergeRequestView(String state, String detailedMergeStatus, String mergeStatus, String sha,
                            String baseSha, boolean hasConflicts, Map<String, Object> headPipeline,
                            int changesCount, boolean rebaseInProgress) {}

    static final class Project {
        final long id;
        final String path;
        final String defaultBranch;
        final Instant createdAt;
        final Map<String, Branch> branches = new LinkedHashMap<>();
        final Map<String, Commit> commits = new HashMap<>();
        final Map<Long, MergeRequest> mergeRequests = new LinkedHashMap<>();
        final Map<Long, Pipeline> pipelines = new LinkedHashMap<>();
        final Map<String, PipelineOutcome> forcedOutcomes = new HashMap<>();
        /** When each branch's outcome was forced: a forced end is the pipeline's {@code finished_at}. */
        final Map<String, Instant> forcedAt = new HashMap<>();
        long nextIid = 1;
        long nextPipelineIid = 1;
        List<String> checkItems = List.of();
        boolean enforceCheckItems;
        boolean onlyAllowMergeIfPipelineSucceeds;
        boolean resetApprovalsOnPush;
        /** Merge trains (and with them merged results pipelines) on; see {@link GitLabSimulator#setMergeTrains}. */
        boolean mergeTrainsEnabled;
        /** "Merge immediately without restarting the train"; see {@link GitLabSimulator#setMergeTrainsSkipTrainAllowed}. */
        boolean mergeTrainsSkipTrainAllowed;
        /** The merge requests on the project's merge train (see {@link GitLabMergeTrain}). */
        final GitLabMergeTrain mergeTrain = new GitLabMergeTrain();
        /** Project roles by account (GitLab access levels); an account not listed is a Maintainer (40). */
        final Map<String, Integer> roles = new HashMap<>();
        /** Protected branches with a restricted "Allowed to merge" (see {@link GitLabSimulator#allowedToMerge}). */
        final Map<String, Set<String>> allowedToMerge = new HashMap<>();
        /** How many merges passing every check still fail, and with which merge_error (see {@link GitLabSimulator#refuseMerges}). */
        int mergeRefusals;
        String mergeRefusalMessage;
        /** How many rebase requests answer 409, not queued (see {@link GitLabSimulator#refuseRebaseEnqueue}). */
        int rebaseEnqueueRefusals;
        /** The namespace setting {@code require_sha_for_merge} (see {@link GitLabSimulator#requireShaForMerge}). */
        boolean requireShaForMerge;
        /** {@code only_allow_merge_if_all_discussions_are_resolved} (see {@link GitLabSimulator#requireResolvedDiscussions}). */
        boolean onlyAllowMergeIfAllDiscussionsAreResolved;
        /** External status checks configured and required (see {@link GitLabSimulator#requireStatusChecks}). */
        boolean statusChecksMustPass;
        /** {@code require_reauthentication_to_approve} (see {@link GitLabSimulator#requireReauthenticationToApprove}). */
        boolean requireReauthenticationToApprove;
        /** Whether pushes create pipelines (see {@link GitLabSimulator#createPipelines}). */
        boolean createsPipelines = true;
        /** Approval settings (see {@link GitLabSimulator#setApprovalSettings}); GitLab's defaults: all off. */
        boolean mergeRequestsAuthorApproval;
        boolean mergeRequestsDisableCommittersApproval;
        boolean selectiveCodeOwnerRemovals;
        /** The project's push rule, null when it has none (see {@link GitLabSimulator#setPushRule}). */
        GitLabPushRule pushRule;
        Instant pushRuleCreatedAt;
        GitLabProjectDefaults.MergeMethod mergeMethod = GitLabProjectDefaults.MergeMethod.MERGE;
        /** Branches no API account may push to (GitLab protects the default branch by default). */
        final Set<String> protectedBranches = new HashSet<>();
        /** Whether the project has CI: without, no pipeline is ever created. */
        boolean ci = true;

        Project(long id, String path, String defaultBranch, Instant createdAt) {
            this.id = id;
            this.path = path;
            this.defaultBranch = defaultBranch;
            this.createdAt = createdAt;
        }

        String name() {
            var slash = path.lastIndexOf('/');
            return slash < 0 ? path : path.substring(slash + 1);
        }

        String namespace() {
            var slash = path.lastIndexOf('/');
            return slash < 0 ? "" : path.substring(0, slash);
        }
    }

    static final class Branch {
        final String name;
        String head;
        Map<String, String> files;
        /** The files of the ref this branch was created from, or rebased onto. */
        Map<String, String> base;
        String baseSha;

        /** A new branch at {@code sha}, whose base is the same commit. */
        Branch(String name, String sha, Map<String, String> files) {
            this.name = name;
            this.head = sha;
            this.files = Map.copyOf(files);
            this.base = this.files;
            this.baseSha = sha;
        }
    }

    static final class MergeRequest {
        final long id;
        final long iid;
        final String sourceBranch;
        final String targetBranch;
        final User author;
        final Instant createdAt;
        final List<Approval> approvals = new ArrayList<>();
        String title;
        String description;
        String state = "opened";
        Instant updatedAt;
        Instant mergedAt;
        Instant closedAt;
        User mergedBy;
        User closedBy;
        String mergeCommitSha;
        String mergedSha;
        String mergeError;
        /** The last push to the source or target; mergeability is being checked for the configured time after it. */
        Instant checkingSince;
        /** The last push to the source branch while open (approvals given before GitLab processed it are reset). */
        Instant pushedAt;
        /** A rebase was asked for and is in progress until the configured rebase duration has passed. */
        Instant rebaseRequestedAt;
        User rebaseRequestedBy;
        Instant lockedUntil;
        /** During the refresh lag after a push: the head reported until {@link #staleUntil}. */
        String staleSha;
        Instant staleUntil;
        /** A detailed merge status a test forces (e.g. draft_status); null: computed. */
        String forcedStatus;
        /** Marked draft (see {@link GitLabSimulator#setDraft}). */
        boolean draft;
        /** The "merge after" time, null when none (see {@link GitLabSimulator#setMergeAfter}). */
        Instant mergeAfter;
        /** Unresolved blocking discussions (see {@link GitLabSimulator#setUnresolvedDiscussions}). */
        int unresolvedDiscussions;
        /** The external status checks' answer for this merge request: passed, failed or pending (null: pending). */
        String statusChecks;

        MergeRequest(long id, long iid, String sourceBranch, String targetBranch, String title, String description,
                     User author, Instant createdAt) {
            this.id = id;
            this.iid = iid;
            this.sourceBranch = sourceBranch;
            this.targetBranch = targetBranch;
            this.title = title;
            this.description = description;
            this.author = author;
            this.createdAt = createdAt;
            this.updatedAt = createdAt;
        }

        String state(Instant now) {
            return state.equals("opened") && lockedUntil != null && now.isBefore(lockedUntil) ? "locked" : state;
        }
    }

    static final class Pipeline {
        final long id;
        final long iid;
        final String ref;
        final String sha;
        final String beforeSha;
        final String source;
        final User user;
        final Instant createdAt;
        final Duration duration;
        final boolean marker;
        /** The head this pipeline speaks for: its own {@link #sha}, or for a merged-results pipeline the merged head. */
        final String forSha;

        Pipeline(long id, long iid, String ref, String sha, String beforeSha, String source, User user,
                 Instant createdAt, Duration duration, boolean marker, String forSha) {
            this.id = id;
            this.iid = iid;
            this.ref = ref;
            this.sha = sha;
            this.beforeSha = beforeSha;
            this.source = source;
            this.user = user;
            this.createdAt = createdAt;
            this.duration = duration;
            this.marker = marker;
            this.forSha = forSha;
        }
    }
}
