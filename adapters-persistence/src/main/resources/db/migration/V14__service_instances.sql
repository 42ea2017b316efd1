-- Issue 31: every running instance's version and commit, so an operator sees a mixed-version cluster during a rolling
-- upgrade (GET /ops/instances). One row per instance, named as in scheduled_tasks.picked_by: written at start (a
-- restart under the same name replaces it), last_seen refreshed by the instance's heartbeat (database clock),
-- stopped_at set when it stops gracefully. The heartbeats delete rows not seen for changeflow.instances.forget-after.
CREATE TABLE service_instance (
  name       VARCHAR(100) NOT NULL COMMENT 'changeflow.scheduler.name: host name and process id by default',
  version    VARCHAR(64)  NOT NULL COMMENT 'the build version (build-info), unknown when built without it',
  commit_id  VARCHAR(64)  NOT NULL COMMENT 'the git commit the build was made from, unknown when built without git',
  started_at DATETIME(3)  NOT NULL,
  last_seen  DATETIME(3)  NOT NULL,
  stopped_at DATETIME(3)  NULL COMMENT 'set by a graceful stop; NULL while it runs (or after a crash)',
  PRIMARY KEY (name),
  KEY idx_service_instance_last_seen (last_seen)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
