package io.changeflow.domain.request;

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
 */
public record Target(TargetKey key, String name, String description, String project, String filePath,
                     boolean batchable, String partition) {

    public static final String DEFAULT_PARTITION = "global";

    public Target {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(filePath, "filePath");
        partition = partition == null || partition.isBlank() ? DEFAULT_PARTITION : partition;
    }
}
