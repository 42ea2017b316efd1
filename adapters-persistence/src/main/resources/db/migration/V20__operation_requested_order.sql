-- Issue 32, item 6: the operators' audit export reads the grants requested in a time range, page by page, in the
-- order (created_at, id). Expand only: a new index.
CREATE INDEX idx_operation_created ON operation (created_at, id);
-- ... and the requests that took a page's grants over (removals and renewals name the grant they remove or renew).
CREATE INDEX idx_operation_removes ON operation (removes_operation_id);
