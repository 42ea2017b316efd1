-- Requests and their two state layers (design 03, section 3.1). Plain MySQL 8 / MariaDB 10.6+.
-- Every time is DATETIME(3) in UTC written by the database clock (sessions run with time_zone +00:00).

CREATE TABLE operation (
  id              VARCHAR(36)   NOT NULL COMMENT 'the client-generated operationId (UUID, lower case)',
  requester       VARCHAR(128)  NOT NULL,
  subject_id      VARCHAR(64)   NOT NULL,
  target_key      VARCHAR(64)   NOT NULL,
  reason          VARCHAR(1000) NOT NULL,
  expires_at      DATETIME(3)   NULL,
  step_order      VARCHAR(16)   NOT NULL COMMENT 'APPROVE_FIRST or CREATE_FIRST, fixed at submission',
  step            INT           NOT NULL COMMENT 'StepStatus code: 100xx create, 101xx handle, 102xx close, 103xx callbacks, 104xx approval, 105xx pending',
  version         BIGINT        NOT NULL COMMENT 'increases on every state write; guarded writes pin it (no ABA)',
  mr_project      VARCHAR(255)  NULL,
  mr_iid          BIGINT        NULL,
  mr_branch       VARCHAR(255)  NULL,
  mr_web_url      VARCHAR(1024) NULL,
  approval_ticket VARCHAR(128)  NULL,
  batch_id        BIGINT        NULL,
  detail          VARCHAR(1000) NOT NULL DEFAULT '',
  created_at      DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at      DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY idx_operation_requester_created (requester, created_at),
  KEY idx_operation_batch (batch_id),
  KEY idx_operation_merge_request (mr_project, mr_iid)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- One row of current state per subject-target relationship (I5); operation_id is its current owner.
CREATE TABLE binding (
  id           BIGINT      NOT NULL AUTO_INCREMENT,
  subject_id   VARCHAR(64) NOT NULL,
  target_key   VARCHAR(64) NOT NULL,
  operation_id VARCHAR(36) NOT NULL,
  status       VARCHAR(32) NOT NULL COMMENT 'BindingStatus name',
  version      BIGINT      NOT NULL COMMENT 'increases on every status write and re-application; never reset',
  expires_at   DATETIME(3) NULL,
  created_at   DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at   DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) COMMENT 'last state write of the owner (either layer)',
  PRIMARY KEY (id),
  UNIQUE KEY uk_binding_subject_target (subject_id, target_key),
  UNIQUE KEY uk_binding_operation (operation_id),
  KEY idx_binding_status_updated (status, updated_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Append-only: every application attempt (applied, re-applied, blocked, preempted) and every status change.
CREATE TABLE binding_history (
  id           BIGINT        NOT NULL AUTO_INCREMENT,
  subject_id   VARCHAR(64)   NOT NULL,
  target_key   VARCHAR(64)   NOT NULL,
  operation_id VARCHAR(36)   NOT NULL,
  event        VARCHAR(40)   NOT NULL,
  outcome      VARCHAR(16)   NOT NULL COMMENT 'APPLIED, REAPPLIED, BLOCKED, PREEMPTED or CHANGED',
  from_status  VARCHAR(32)   NULL,
  to_status    VARCHAR(32)   NULL,
  from_version BIGINT        NULL,
  to_version   BIGINT        NULL,
  detail       VARCHAR(1000) NOT NULL DEFAULT '',
  actor        VARCHAR(128)  NOT NULL,
  created_at   DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY idx_binding_history_relationship (subject_id, target_key, id),
  KEY idx_binding_history_operation (operation_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Append-only: every state write of an operation, both layers before and after.
CREATE TABLE operation_history (
  id           BIGINT        NOT NULL AUTO_INCREMENT,
  operation_id VARCHAR(36)   NOT NULL,
  event        VARCHAR(40)   NOT NULL,
  from_step    INT           NULL,
  to_step      INT           NOT NULL,
  from_binding VARCHAR(32)   NULL,
  to_binding   VARCHAR(32)   NULL,
  version      BIGINT        NOT NULL COMMENT 'the operation version after the write',
  detail       VARCHAR(1000) NOT NULL DEFAULT '',
  actor        VARCHAR(128)  NOT NULL,
  created_at   DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY idx_operation_history_operation (operation_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
