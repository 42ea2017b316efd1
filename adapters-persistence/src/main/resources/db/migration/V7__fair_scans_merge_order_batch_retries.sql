-- Fair scans (issue 20.6): where each recurring scan (reconciliation, the stuck-request sweeps) continues,
-- so every run reads the next page instead of the oldest rows again. The position is opaque to the
-- database (the adapter's keyset: status, binding.updated_at, binding.id).
CREATE TABLE scan_cursor (
  scan_name  VARCHAR(64)  NOT NULL,
  position   VARCHAR(255) NULL COMMENT 'where the next page starts; NULL = from the start',
  updated_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (scan_name)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Merge order (issue 13.2): one row per merge request written MERGED, numbered by one increasing sequence
-- in the order the merges were recorded (merge request numbers follow creation order, not merge order).
-- Reconciliation's watermark compares these numbers: the latest reported merge order of a project is one
-- backward read of (project, seq) that stops at the first merge request with an in-effect report.
CREATE TABLE merge_order (
  seq        BIGINT       NOT NULL AUTO_INCREMENT,
  project    VARCHAR(255) NOT NULL,
  mr_iid     BIGINT       NOT NULL,
  created_at DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (seq),
  UNIQUE KEY uk_merge_order_merge_request (project, mr_iid),
  KEY idx_merge_order_project_seq (project, seq)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- Merges recorded before this migration, in the order of their first history entry to MERGED.
INSERT INTO merge_order (project, mr_iid, created_at)
SELECT merged.project, merged.mr_iid, MIN(merged.created_at)
FROM (
  SELECT COALESCE(o.mr_project, b.mr_project) AS project, COALESCE(o.mr_iid, b.mr_iid) AS mr_iid,
         h.id AS history_id, h.created_at
  FROM operation_history h
  JOIN operation o ON o.id = h.operation_id
  LEFT JOIN merge_batch b ON b.id = o.batch_id
  WHERE h.to_binding = 'MERGED' AND (h.from_binding IS NULL OR h.from_binding <> 'MERGED')
) merged
WHERE merged.project IS NOT NULL AND merged.mr_iid IS NOT NULL
GROUP BY merged.project, merged.mr_iid
ORDER BY MIN(merged.history_id);

-- Batch members' transient retries (issue 20.7): how many transient batch failures a waiting request went
-- through, and when it may be claimed again (NULL or past: now). The claim skips rows backing off.
ALTER TABLE merge_batch_request
  ADD COLUMN transient_failures INT NOT NULL DEFAULT 0 COMMENT 'transient batch failures so far',
  ADD COLUMN eligible_at DATETIME(3) NULL COMMENT 'claimable from this time on; NULL = at once';
