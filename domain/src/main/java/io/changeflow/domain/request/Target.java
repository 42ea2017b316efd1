package io.changeflow.domain.request;

import io.changeflow.domain.drift.DriftPolicy;
import java.util.Objects;

/**
 * An entry of the catalog: what a request can name, and where its change goes.
 *
 * @param key         the stable name requests use
 * @param name        display name
 * @param description what access it grants, for people
 * @param project     GitLab project path holding the configuration, e.g. {@code platform/access-config}
 * @param filePath    file in that project that lists the grants of this target
 * @param batchable   approved requests wait for the next batch round instead of opening their own MR
 * @param partition   batches of different partitions may run in parallel (one active batch per partition)
 * @param pipeline    which pipeline results of the merge request's head count before merging ({@link PipelinePolicy});
 *                    null: {@link PipelinePolicy#REQUIRED}
 * @param removals    whether an expiry or an operator's revocation of a grant needs the approval system
 *                    ({@link RemovalPolicy}); null: {@link RemovalPolicy#NO_APPROVAL}
 * @param askFor      who may ask for whom ({@link AskPolicy}); null: {@link AskPolicy#SELF}
 * @param drift       what drift handling does with a line nobody approved or of an ended grant
 *                    ({@link DriftPolicy}); null: {@link DriftPolicy#REMOVE}
 * @param durations   how long a grant may last and what a request without an end gets ({@link GrantDurations});
 *                    null: {@link GrantDurations#NONE}
 */
public record Target(TargetKey key, String name, String description, String project, String filePath,
                     boolean batchable, String partition, PipelinePolicy pipeline, RemovalPolicy removals,
                     AskPolicy askFor, DriftPolicy drift, GrantDurations durations) {

    public static final String DEFAULT_PARTITION = "global";

    public Target {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(filePath, "filePath");
        partition = partition == null || partition.isBlank() ? DEFAULT_PARTITION : partition;
        pipeline = pipeline == null ? PipelinePolicy.REQUIRED : pipeline;
        removals = removals == null ? RemovalPolicy.NO_APPROVAL : removals;
        askFor = askFor == null ? AskPolicy.SELF : askFor;
        drift = drift == null ? DriftPolicy.REMOVE : drift;
        durations = durations == null ? GrantDurations.NONE : durations;
    }

    /** A target without duration rules of its own ({@link GrantDurations#NONE}). */
    public Target(TargetKey key, String name, String description, String project, String filePath, boolean batchable,
                  String partition, PipelinePolicy pipeline, RemovalPolicy removals, AskPolicy askFor,
                  DriftPolicy drift) {
        this(key, name, description, project, filePath, batchable, partition, pipeline, removals, askFor, drift,
                GrantDurations.NONE);
    }

    /** This target with the duration rules {@code durations}. */
    public Target withDurations(GrantDurations durations) {
        return new Target(key, name, description, project, filePath, batchable, partition, pipeline, removals, askFor,
                drift, durations);
    }

    /** A target whose drift lines are removed ({@code drift: remove}, the fail-safe). */
    public Target(TargetKey key, String name, String description, String project, String filePath, boolean batchable,
                  String partition, PipelinePolicy pipeline, RemovalPolicy removals, AskPolicy askFor) {
        this(key, name, description, project, filePath, batchable, partition, pipeline, removals, askFor,
                DriftPolicy.REMOVE);
    }

    /** This target with the drift policy {@code drift}. */
    public Target withDrift(DriftPolicy drift) {
        return new Target(key, name, description, project, filePath, batchable, partition, pipeline, removals, askFor,
                drift, durations);
    }

    /** A target where requesters ask for themselves only ({@link AskPolicy#SELF}). */
    public Target(TargetKey key, String name, String description, String project, String filePath, boolean batchable,
                  String partition, PipelinePolicy pipeline, RemovalPolicy removals) {
        this(key, name, description, project, filePath, batchable, partition, pipeline, removals, AskPolicy.SELF);
    }

    /** This target with the policy {@code askFor} of who may ask for whom. */
    public Target withAskFor(AskPolicy askFor) {
        return new Target(key, name, description, project, filePath, batchable, partition, pipeline, removals, askFor,
                drift, durations);
    }

    /** A target whose removals need no approval ({@link RemovalPolicy#NO_APPROVAL}), requested for oneself only. */
    public Target(TargetKey key, String name, String description, String project, String filePath, boolean batchable,
                  String partition, PipelinePolicy pipeline) {
        this(key, name, description, project, filePath, batchable, partition, pipeline, RemovalPolicy.NO_APPROVAL);
    }

    /** A target whose head's pipeline must pass ({@link PipelinePolicy#REQUIRED}), requested for oneself only. */
    public Target(TargetKey key, String name, String description, String project, String filePath, boolean batchable,
                  String partition) {
        this(key, name, description, project, filePath, batchable, partition, PipelinePolicy.REQUIRED,
                RemovalPolicy.NO_APPROVAL);
    }

    /** Where a change of {@code kind} waits for its batch round: a grant in {@link #partition}, a removal in {@link #removalPartition}. */
    public String partitionOf(io.changeflow.domain.state.ChangeKind kind) {
        return kind.removes() ? removalPartition() : partition;
    }

    /**
     * The batch partition of the removals (expiry, give-up, revocation) of this target's lines: one per grant
     * file, so a removal round opens one merge request per file for every line due, whatever {@link #batchable}
     * says. At most 64 characters (a long project or path is named by its digest).
     */
    public String removalPartition() {
        var name = "removal:" + project + ":" + filePath;
        if (name.length() <= 64) {
            return name;
        }
        try {
            var digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest((project + "\n" + filePath).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return "removal:" + java.util.HexFormat.of().formatHex(digest, 0, 16);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
