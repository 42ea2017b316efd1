-- Batch aggregation (design 02). The active slot is a generated column with a unique index (I1):
-- RUNNING (1) and BLOCKED (4) batches hold their partition's slot; terminal ones have NULL, and a
-- unique index allows any number of NULLs. Never write active_slot (MySQL rejects it, error 3105).
CREATE TABLE merge_batch (
  id            BIGINT        NOT NULL AUTO_INCREMENT,
  partition_key VARCHAR(64)   NOT NULL,
  status        TINYINT       NOT NULL DEFAULT 1 COMMENT '1=RUNNING 2=SUCCEEDED 3=FAILED 4=BLOCKED',
  active_slot   VARCHAR(64) GENERATED ALWAYS AS (CASE WHEN status IN (1, 4) THEN partition_key END) STORED,
  depth         INT           NOT NULL DEFAULT 0 COMMENT 'bisection splits that led to its members',
  mr_project    VARCHAR(255)  NULL,
  mr_iid        BIGINT        NULL,
  mr_branch     VARCHAR(255)  NULL,
  mr_web_url    VARCHAR(1024) NULL,
  detail        VARCHAR(1000) NOT NULL DEFAULT '',
  version       BIGINT        NOT NULL DEFAULT 1,
  created_at    DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at    DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_merge_batch_active_slot (active_slot),
  KEY idx_merge_batch_status_created (status, created_at, id),
  KEY idx_merge_batch_merge_request (mr_project, mr_iid)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The waiting set and the claims (I2, I3, I4): batch_id NULL means waiting.
CREATE TABLE merge_batch_request (
  id            BIGINT      NOT NULL AUTO_INCREMENT,
  operation_id  VARCHAR(36) NOT NULL,
  partition_key VARCHAR(64) NOT NULL,
  batch_id      BIGINT      NULL COMMENT 'NULL means still waiting',
  bisect_group  VARCHAR(64) NULL COMMENT 'requeued bisection half; a claim takes one group only (NULL = fresh requests)',
  depth         INT         NOT NULL DEFAULT 0,
  created_at    DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_merge_batch_request_operation (operation_id),
  KEY idx_merge_batch_request_waiting (partition_key, batch_id, created_at, id),
  KEY idx_merge_batch_request_batch (batch_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Append-only: who joined (CLAIMED) and left (RELEASED) which batch.
CREATE TABLE merge_batch_membership_history (
  id           BIGINT      NOT NULL AUTO_INCREMENT,
  batch_id     BIGINT      NOT NULL,
  operation_id VARCHAR(36) NOT NULL,
  action       VARCHAR(16) NOT NULL COMMENT 'CLAIMED or RELEASED',
  created_at   DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY idx_membership_batch (batch_id, id),
  KEY idx_membership_operation (operation_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
