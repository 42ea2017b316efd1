package io.changeflow.bootstrap;

import io.changeflow.application.approval.CheckApprovalStep;
import io.changeflow.application.approval.ReconcileApprovals;
import io.changeflow.application.approval.SubmitApproval;
import io.changeflow.application.batch.BatchSteps;
import io.changeflow.application.batch.MergeBatch;
import io.changeflow.application.batch.ReadmitBatchMember;
import io.changeflow.application.batch.SettleBatch;
import io.changeflow.application.batch.SettleBatchStep;
import io.changeflow.application.callback.HandleApprovalCallback;
import io.changeflow.application.callback.HandleDeployCallback;
import io.changeflow.application.close.CloseMergeRequest;
import io.changeflow.application.create.CreateMergeRequest;
import io.changeflow.application.deploy.DeployDeadline;
import io.changeflow.application.handle.HandleMergeRequest;
import io.changeflow.application.port.out.Activity;
import io.changeflow.application.port.out.Approvals;
import io.changeflow.application.port.out.AuditLog;
import io.changeflow.application.port.out.Batches;
import io.changeflow.application.port.out.BusinessMetrics;
import io.changeflow.application.port.out.CallbackInbox;
import io.changeflow.application.port.out.ExternalSystemHealth;
import io.changeflow.application.port.out.Directory;
import io.changeflow.application.port.out.IdempotencyRecords;
import io.changeflow.application.port.out.MergeRequests;
import io.changeflow.application.port.out.ProjectSetup;
import io.changeflow.application.port.out.Operations;
import io.changeflow.application.port.out.ScanCursors;
import io.changeflow.application.port.out.Permissions;
import io.changeflow.application.port.out.TargetFiles;
import io.changeflow.application.port.out.Targets;
import io.changeflow.application.port.out.WorkQueue;
import io.changeflow.application.port.out.WorkQueue.StepKind;
import io.changeflow.application.query.ListMyBindings;
import io.changeflow.application.query.ListMyRequests;
import io.changeflow.application.query.ListTargets;
import io.changeflow.application.query.PreviewChange;
import io.changeflow.application.query.RequestWaits;
import io.changeflow.application.query.ShowChangeRequest;
import io.changeflow.application.query.ShowOverview;
import io.changeflow.application.query.ShowStats;
import io.changeflow.application.reconcile.MarkDeployed;
import io.changeflow.application.reconcile.ReconcileMergedRequests;
import io.changeflow.application.recovery.CloseChangeRequest;
import io.changeflow.application.recovery.FindOverdueRequests;
import io.changeflow.application.setup.CheckGitLabSetup;
import io.changeflow.application.recovery.FindStuckRequests;
import io.changeflow.application.recovery.PurgeExpiredIdempotencyRecords;
import io.changeflow.application.recovery.RetriggerStep;
import io.changeflow.application.recovery.RetryTransientFailures;
import io.changeflow.application.recovery.ShowOperation;
import io.changeflow.application.recovery.SweepStuckRequests;
import io.changeflow.application.settings.Settings;
import io.changeflow.application.submit.SubmitChangeRequest;
import io.changeflow.application.workflow.PipelineWatch;
import io.changeflow.application.workflow.RunDueStep;
import io.changeflow.application.workflow.StateChanges;
import io.changeflow.application.workflow.StepLauncher;
import io.changeflow.application.workflow.TransientRetries;
import io.changeflow.application.workflow.WorkflowPolicy;
import io.changeflow.application.workflow.StepSafetyNet;
import io.changeflow.domain.state.Convergence;
import io.changeflow.domain.state.WorkflowEvent;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The use cases, built explicitly on the ports the adapters provide (no Spring in application). */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({WorkflowProperties.class, CatalogProperties.class, ApprovalCheckProperties.class,
        DeadlineProperties.class})
class WorkflowConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    Targets targets(CatalogProperties catalog) {
        return catalog.toTargets();
    }

    @Bean
    WorkflowPolicy workflowPolicy(WorkflowProperties properties, DeadlineProperties deadlines,
                                  org.springframework.core.env.Environment environment) {
        var policy = deadlines.applyTo(properties.toPolicy());
        var webhooks = GitLabWebhookSettings.from(environment);
        // issue 33: GitLab's events wake the pipeline waits, polling stays as the slower fallback for a lost event
        return webhooks.on() ? policy.withFallbackPipelinePolling(webhooks.fallbackPollInterval()) : policy;
    }

    /** The transient retries of the request steps: capped exponential backoff with jitter, until the transient deadline. */
    @Bean
    TransientRetries transientRetries(WorkflowPolicy policy, Clock clock) {
        return policy.transientRetries(clock, () -> ThreadLocalRandom.current().nextDouble());
    }

    @Bean
    RetryTransientFailures retryTransientFailures(Operations operations, MergeRequests mergeRequests, WorkQueue queue, StateChanges changes,
                                                  TransientRetries transientRetries, ScanCursors cursors) {
        return new RetryTransientFailures(operations, mergeRequests, queue, changes, transientRetries, cursors,
                RetryTransientFailures.DEFAULT_LIMIT);
    }

    @Bean
    StateChanges stateChanges(Operations operations, BusinessMetrics metrics) {
        return new StateChanges(operations, metrics);
    }

    @Bean
    StepLauncher stepLauncher(WorkQueue queue, StateChanges changes) {
        return new StepLauncher(queue, changes);
    }

    @Bean
    MarkDeployed markDeployed(Operations operations, BusinessMetrics metrics) {
        return new MarkDeployed(operations, metrics);
    }

    @Bean
    SubmitChangeRequest submitChangeRequest(Operations operations, Targets targets, Directory directory,
                                            IdempotencyRecords idempotency, Settings settings, StepLauncher launcher,
                                            BusinessMetrics metrics, Approvals approvals, Clock clock,
                                            WorkflowProperties properties) {
        return new SubmitChangeRequest(operations, targets, directory, idempotency, settings, launcher, metrics, approvals,
                clock, properties.keyTimeToLive(SubmitChangeRequest.DEFAULT_KEY_TIME_TO_LIVE), Thread::sleep);
    }

    @Bean
    HandleApprovalCallback handleApprovalCallback(CallbackInbox inbox, Operations operations, Targets targets,
                                                  Batches batches, StateChanges changes, StepLauncher launcher) {
        return new HandleApprovalCallback(inbox, operations, targets, batches, changes, launcher);
    }

    @Bean
    HandleDeployCallback handleDeployCallback(CallbackInbox inbox, Operations operations, MergeRequests mergeRequests,
                                              MarkDeployed markDeployed, StateChanges changes) {
        return new HandleDeployCallback(inbox, operations, mergeRequests, markDeployed, changes);
    }

    @Bean
    io.changeflow.application.callback.WakeOnGitLabEvent wakeOnGitLabEvent(CallbackInbox inbox, Operations operations,
                                                                           WorkQueue queue) {
        return new io.changeflow.application.callback.WakeOnGitLabEvent(inbox, operations, queue);
    }

    @Bean
    ReconcileMergedRequests reconcileMergedRequests(Operations operations, CallbackInbox inbox, ScanCursors cursors,
                                                    MarkDeployed markDeployed, AuditLog audit, WorkflowProperties properties,
                                                    Clock clock) {
        return new ReconcileMergedRequests(operations, inbox, cursors, markDeployed, audit, properties.reconciliationPolicy(),
                clock);
    }

    @Bean
    RunDueStep runDueStep(Operations operations, Targets targets, SubmitApproval submitApproval,
                                    ReconcileApprovals approvalCheck, MergeRequests gitlab,
                                    Batches batches, BusinessMetrics metrics, SettleBatch settleBatch,
                                    StateChanges changes, Settings settings, WorkflowPolicy policy, Clock clock,
                                    TransientRetries transientRetries) {
        var pipelineWatch = new PipelineWatch(policy.pipelinePolling(), policy.pendingRecheck(), policy.pendingGiveUpAfter());
        var steps = new ArrayList<StepSafetyNet>(List.of(
                new StepSafetyNet(StepKind.SUBMIT_APPROVAL, WorkflowEvent.APPROVAL_SUBMIT_FAILED,
                        submitApproval, changes, transientRetries),
                new StepSafetyNet(StepKind.CHECK_APPROVAL, new CheckApprovalStep(operations, approvalCheck),
                        CheckApprovalStep::onFailure, transientRetries),
                new StepSafetyNet(StepKind.CREATE, WorkflowEvent.CREATE_ERROR,
                        new CreateMergeRequest(operations, targets, gitlab, changes, pipelineWatch, clock), changes,
                        transientRetries),
                new StepSafetyNet(StepKind.HANDLE, WorkflowEvent.HANDLE_ERROR,
                        new HandleMergeRequest(operations, targets, gitlab, changes, settings, policy, clock), changes,
                        transientRetries),
                new StepSafetyNet(StepKind.CLOSE, WorkflowEvent.CLOSE_FAILED,
                        new CloseMergeRequest(operations, targets, gitlab, changes, policy), changes, transientRetries)));
        steps.addAll(BatchSteps.of(new MergeBatch(batches, operations, targets, gitlab, metrics, settings, policy, clock),
                new SettleBatchStep(settleBatch, policy), policy.transientRetry()));
        return new RunDueStep(steps);
    }

    @Bean
    SubmitApproval submitApproval(Operations operations, Approvals approvals, StateChanges changes,
                                  HandleApprovalCallback decisions) {
        return new SubmitApproval(operations, approvals, changes, decisions);
    }

    @Bean
    ReconcileApprovals reconcileApprovals(Operations operations, Approvals approvals, SubmitApproval submitApproval,
                                          HandleApprovalCallback decisions, ApprovalCheckProperties properties,
                                          Clock clock) {
        return new ReconcileApprovals(operations, approvals, submitApproval, decisions, properties.toPolicy(), clock);
    }

    @Bean
    SweepStuckRequests sweepStuckRequests(Operations operations, Targets targets, Batches batches, WorkQueue queue,
                                          StateChanges changes, ScanCursors cursors, WorkflowProperties properties) {
        return new SweepStuckRequests(operations, targets, batches, queue, changes, cursors, properties.sweepPolicy());
    }

    @Bean
    RetriggerStep retriggerStep(Operations operations, WorkQueue queue, ReadmitBatchMember readmit, AuditLog audit,
                                Clock clock) {
        return new RetriggerStep(operations, queue, readmit, audit, clock);
    }

    @Bean
    CloseChangeRequest closeChangeRequest(Operations operations, Targets targets, MergeRequests gitlab,
                                          Approvals approvals, StateChanges changes, AuditLog audit, Clock clock) {
        return new CloseChangeRequest(operations, targets, gitlab, approvals, changes, audit, clock);
    }

    @Bean
    FindStuckRequests findStuckRequests(Operations operations) {
        return new FindStuckRequests(operations);
    }

    /** The durations the owning jobs act on (each read fail-safe by its own properties): overdue, request waits, overview. */
    @Bean
    FindOverdueRequests.Deadlines convergenceDeadlines(WorkflowProperties properties, WorkflowPolicy policy,
                                                       ApprovalCheckProperties approvalCheck, DeployDeadline.Policy deploy) {
        var deadlines = new EnumMap<Convergence.Deadline, Duration>(Convergence.Deadline.class);
        deadlines.put(Convergence.Deadline.STEP_SILENCE, properties.sweepPolicy().failAfter());
        deadlines.put(Convergence.Deadline.APPROVAL, approvalCheck.toPolicy().deadline());
        deadlines.put(Convergence.Deadline.PIPELINE_PENDING, policy.pendingGiveUpAfter());
        deadlines.put(Convergence.Deadline.TRANSIENT, policy.transientDeadline());
        deadlines.put(Convergence.Deadline.DEPLOY, deploy.deadline());
        return new FindOverdueRequests.Deadlines(deadlines);
    }

    /** The GitLab setup check, on demand ({@code GET /ops/gitlab-check}) and once at start. */
    @Bean
    CheckGitLabSetup checkGitLabSetup(Targets targets, ProjectSetup projectSetup,
                                      org.springframework.core.env.Environment environment) {
        return new CheckGitLabSetup(targets, projectSetup, GitLabWebhookSettings.from(environment).on());
    }

    /**
     * At start, once the server answers: each finding of the setup check logged at WARN, on a thread of its own, so
     * the start neither waits on GitLab nor fails on what it answers.
     */
    @Bean
    ApplicationListener<ApplicationReadyEvent> gitLabSetupCheckAtStart(CheckGitLabSetup check) {
        return event -> Thread.ofVirtual().name("gitlab-setup-check").start(check::checkAtStart);
    }

    @Bean
    FindOverdueRequests findOverdueRequests(Operations operations, WorkQueue queue, FindOverdueRequests.Deadlines deadlines,
                                            Clock clock) {
        return new FindOverdueRequests(operations, queue, Convergence.standard(), deadlines, clock);
    }

    @Bean
    ShowOverview showOverview(Activity activity, WorkQueue queue, ObjectProvider<ExternalSystemHealth> systems, Targets targets,
                              FindOverdueRequests.Deadlines deadlines, Clock clock) {
        return new ShowOverview(activity, queue, systems.orderedStream().toList(), targets, Convergence.standard(), deadlines,
                clock);
    }

    @Bean
    ShowOperation showOperation(Operations operations, AuditLog audit) {
        return new ShowOperation(operations, audit);
    }

    @Bean
    PurgeExpiredIdempotencyRecords purgeExpiredIdempotencyRecords(IdempotencyRecords idempotency) {
        return new PurgeExpiredIdempotencyRecords(idempotency);
    }

    @Bean
    ShowChangeRequest showChangeRequest(Operations operations, Permissions permissions, WorkQueue queue,
                                        WorkflowPolicy policy, FindOverdueRequests.Deadlines deadlines) {
        return new ShowChangeRequest(operations, permissions, new RequestWaits(queue, policy, deadlines));
    }

    @Bean
    ShowStats showStats(Operations operations) {
        return new ShowStats(operations);
    }

    @Bean
    ListMyRequests listMyRequests(Operations operations) {
        return new ListMyRequests(operations);
    }

    @Bean
    ListMyBindings listMyBindings(Operations operations) {
        return new ListMyBindings(operations);
    }

    @Bean
    ListTargets listTargets(Targets targets) {
        return new ListTargets(targets);
    }

    @Bean
    PreviewChange previewChange(Targets targets, TargetFiles files, Permissions permissions, Clock clock) {
        return new PreviewChange(targets, files, permissions, clock);
    }
}
