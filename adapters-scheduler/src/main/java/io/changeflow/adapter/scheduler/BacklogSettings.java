package io.changeflow.adapter.scheduler;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The workflow's backlog bound ({@code changeflow.workflow.*}).
 *
 * @param backlogCapacity how many workflow steps may wait to run, cluster-wide, before new work is
 *                        refused (default 10000; missing, zero or negative: the default). Steps
 *                        waiting on purpose (polling a pipeline, backing off) count too.
 */
@ConfigurationProperties("changeflow.workflow")
record BacklogSettings(Integer backlogCapacity) {

    BacklogSettings {
        backlogCapacity = backlogCapacity == null || backlogCapacity < 1 ? 10_000 : backlogCapacity;
    }
}
