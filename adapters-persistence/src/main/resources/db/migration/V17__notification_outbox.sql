-- Issue 32: the notifications' outbox (docs/notifications.md). One row per message, keyed by what makes it unique
-- (operation, event, channel, recipient; or grant, reminder window, recipient): enqueuing the same key again from
-- another instance, a retry or a rescan is a no-op, so each message is sent once. Rows are derived from the committed
-- binding history by a recurring job and sent by another; neither touches the workflow's tables.
CREATE TABLE notification (
  id            BIGINT        NOT NULL AUTO_INCREMENT,
  dedup_key     VARCHAR(255)  NOT NULL COMMENT 'op:<operation>:<event>:<channel>:<recipient> or remind:<operation>:<window>:<recipient>',
  channel       VARCHAR(16)   NOT NULL COMMENT 'MAIL or WEBHOOK',
  recipient     VARCHAR(255)  NOT NULL COMMENT 'an e-mail address, or the webhook name (requests, operators)',
  title         VARCHAR(255)  NOT NULL,
  body          VARCHAR(2000) NOT NULL,
  link          VARCHAR(1024) NOT NULL,
  attempts      INT           NOT NULL DEFAULT 0 COMMENT 'failed attempts so far',
  next_attempt  DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3) COMMENT 'not sent before this (backoff after a failure)',
  last_error    VARCHAR(500)  NULL,
  sent_at       DATETIME(3)   NULL COMMENT 'NULL while pending',
  created_at    DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY uk_notification_dedup (dedup_key),
  KEY idx_notification_pending (sent_at, next_attempt)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- The notifications scan starts after the history present when this release is installed: what happened before
-- notifications existed is not announced. (Without the row, the job would start from the newest change it sees.)
INSERT INTO scan_cursor (scan_name, position)
SELECT 'notifications', CAST(COALESCE(MAX(id), 0) AS CHAR) FROM binding_history;
