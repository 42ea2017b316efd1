-- Idempotency keys of write requests (design 02, 3.4): the primary key answers duplicates.
CREATE TABLE idempotency_record (
  idem_key    VARCHAR(191) NOT NULL,
  fingerprint VARCHAR(128) NOT NULL,
  outcome     TEXT         NULL COMMENT 'the answer to replay; NULL while the original is still being validated',
  expires_at  DATETIME(3)  NOT NULL,
  created_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (idem_key),
  KEY idx_idempotency_record_expires (expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Deduplication of callback deliveries by the callback's own ID.
CREATE TABLE callback_delivery (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  source      VARCHAR(32)  NOT NULL,
  delivery_id VARCHAR(191) NOT NULL,
  created_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_callback_delivery (source, delivery_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Deploy pipeline reports. The MR number is numeric and indexed with the project, so the
-- reconciliation watermark MAX(mr_iid) is an index read.
CREATE TABLE deploy_callback (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  delivery_id VARCHAR(191) NOT NULL,
  project     VARCHAR(255) NOT NULL,
  mr_iid      BIGINT       NOT NULL,
  status      VARCHAR(32)  NOT NULL,
  created_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_deploy_callback_delivery (delivery_id),
  KEY idx_deploy_callback_project_iid (project, mr_iid)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The operations a deploy report named (exact matching instead of the watermark).
CREATE TABLE deploy_callback_operation (
  operation_id       VARCHAR(36) NOT NULL,
  deploy_callback_id BIGINT      NOT NULL,
  PRIMARY KEY (operation_id, deploy_callback_id),
  KEY idx_deploy_callback_operation_callback (deploy_callback_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Append-only audit of operator actions; entry_key makes recording idempotent.
CREATE TABLE audit_log (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  entry_key   VARCHAR(191) NOT NULL,
  actor       VARCHAR(128) NOT NULL,
  action      VARCHAR(64)  NOT NULL,
  subject     VARCHAR(191) NOT NULL,
  parameters  TEXT         NOT NULL COMMENT 'masked, truncated; form-encoded name=value pairs',
  occurred_at DATETIME(3)  NOT NULL,
  created_at  DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_audit_log_entry (entry_key),
  KEY idx_audit_log_subject (subject, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Cluster-wide rate limits: one row per key serializes its counters, one row per counted attempt.
CREATE TABLE rate_limit_bucket (
  limit_key  VARCHAR(191) NOT NULL,
  created_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (limit_key)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE rate_limit_hit (
  id        BIGINT       NOT NULL AUTO_INCREMENT,
  limit_key VARCHAR(191) NOT NULL,
  hit_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY idx_rate_limit_hit_key_time (limit_key, hit_at),
  KEY idx_rate_limit_hit_time (hit_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
