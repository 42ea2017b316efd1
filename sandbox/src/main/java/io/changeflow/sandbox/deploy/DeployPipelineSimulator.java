package io.changeflow.sandbox.deploy;

import io.changeflow.sandbox.MergeListener;
import io.changeflow.sandbox.fault.Faults;
import io.changeflow.sandbox.webhook.CallbackControls;
import io.changeflow.sandbox.webhook.SimulatorCallbacks;
import io.changeflow.sandbox.webhook.WebhookSender;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deployment pipeline, simulated: after every merge it rolls the change out and calls back
 * {@code POST /callbacks/deploy} ({@code {projectId, mrIid, status: "success", operationIds?}},
 * signed per Standard Webhooks), in merge order; on request ({@link #reportCommit}) it reports a deploy of the
 * default branch at a commit instead ({@code {projectId, ref, sha, status}}): runs are queued on one thread, each a fixed delay
 * after its merge. A configurable share of callbacks is lost on purpose, so that reconciliation has
 * something to do; the {@code deploy} fault settings and {@link #callbacks()} add duplicates, late
 * and lost callbacks.
 */
public final class DeployPipelineSimulator implements MergeListener, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(DeployPipelineSimulator.class);
    static final String CALLBACK_PATH = "/callbacks/deploy";
    private static final Pattern OPERATION_LINE = Pattern.compile(
            "^\\s*Changeflow-Operation:\\s*([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\\s*$",
            Pattern.MULTILINE);

    /**
     * A deploy report handed to the sender (once, even when it is then delivered twice): the merge request it
     * reports and the operation IDs it names (empty when reports carry none). What a report "naming" a request is.
     */
    public record SentReport(String project, long mrIid, List<String> operationIds, String status, Instant at) {}

    /** A merge whose callback was lost on purpose. */
    public record LostCallback(String project, long mrIid) {}

    private final SimulatorCallbacks callbacks;
    private final Faults faults;
    private final Duration delay;
    private final List<LostCallback> lost = new ArrayList<>();
    private final List<SentReport> sent = new ArrayList<>();
    private volatile double lostShare;
    private volatile boolean includeOperationIds;

    public DeployPipelineSimulator(DeployPipelineProperties properties, SimulatorCallbacks callbacks, Faults faults) {
        this.callbacks = callbacks;
        this.faults = faults;
        this.delay = properties.delay();
        this.lostShare = properties.lostShare();
        this.includeOperationIds = properties.includeOperationIds();
    }

    /**
     * Queues the deploy run of one merge. Synchronized, so that runs are queued in the order the
     * merges are reported, and run in that order.
     */
    @Override
    public synchronized void merged(String project, long iid, String description) {
        if (faults.chance(lostShare)) {
            lost(project, iid, "lost share");
            return;
        }
        var plan = callbacks.next();
        if (plan.lost()) {
            lost(project, iid, "fault injection");
            return;
        }
        var body = new LinkedHashMap<String, Object>();
        body.put("projectId", project);
        body.put("mrIid", iid);
        body.put("status", "success");
        var named = List.<String>of();
        if (includeOperationIds) {
            var ids = operationIds(description);
            if (!ids.isEmpty()) {
                body.put("operationIds", ids);
                named = ids;
            }
        }
        sent.add(new SentReport(project, iid, named, "success", Instant.now()));
        log.info("deploy report of {}!{} queued ({} late)", project, iid, delay);
        callbacks.send(CALLBACK_PATH, body, delay, plan);
    }

    /**
     * Issue 37: a deploy of the default branch at a commit, as a pipeline that deploys {@code main} (not each merge
     * request) reports it: one signed callback {@code {projectId, ref, sha, status}} sent now, outside the merge queue
     * and the one-shot controls (its retries go on the sender's executor, as for every callback).
     */
    public void reportCommit(String project, String ref, String sha, String status) {
        var body = new LinkedHashMap<String, Object>();
        body.put("projectId", project);
        body.put("ref", ref);
        body.put("sha", sha);
        body.put("status", status);
        log.info("deploy report of {} at {} ({}) sent", ref, sha, status);
        callbacks.sendNow(CALLBACK_PATH, body);
    }

    /** The operation IDs listed as {@code Changeflow-Operation: <uuid>} lines, in order, lower case. */
    static List<String> operationIds(String description) {
        if (description == null) {
            return List.of();
        }
        var ids = new LinkedHashSet<String>();
        var matcher = OPERATION_LINE.matcher(description);
        while (matcher.find()) {
            ids.add(matcher.group(1).toLowerCase(Locale.ROOT));
        }
        return List.copyOf(ids);
    }

    public double lostShare() {
        return lostShare;
    }

    /** Changes the share of lost callbacks at runtime. */
    public void lostShare(double share) {
        if (!(share >= 0 && share <= 1)) {
            throw new IllegalArgumentException("lostShare is a share in [0, 1]");
        }
        lostShare = share;
    }

    public boolean includeOperationIds() {
        return includeOperationIds;
    }

    public void includeOperationIds(boolean include) {
        includeOperationIds = include;
    }

    /** One-shot controls of the outgoing callbacks: lose, duplicate or delay the next ones. */
    public CallbackControls callbacks() {
        return callbacks.controls();
    }

    /** Merges whose callback was lost on purpose, in merge order. */
    public synchronized List<LostCallback> lostCallbacks() {
        return List.copyOf(lost);
    }

    /** The deploy reports sent (handed to the sender), in merge order; lost ones are in {@link #lostCallbacks()}. */
    public synchronized List<SentReport> sentReports() {
        return List.copyOf(sent);
    }

    /** The delivery log of the callbacks. */
    public List<WebhookSender.Attempt> deliveries() {
        return callbacks.attempts();
    }

    /** Forgets lost callbacks and one-shot controls (tests). */
    public synchronized void reset() {
        lost.clear();
        sent.clear();
        callbacks.controls().reset();
    }

    @Override
    public void close() {
        callbacks.close();
    }

    private void lost(String project, long iid, String why) {
        lost.add(new LostCallback(project, iid));
        log.info("deploy callback of {}!{} is lost on purpose ({})", project, iid, why);
    }
}
