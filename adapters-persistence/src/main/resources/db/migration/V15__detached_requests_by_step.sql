-- Issue 36 (finding S3 of docs/reliability.md): the failed-close retry job also reads the requests a newer request
-- replaced (they own no binding row, so the scans by binding status never see them) by step, in operation ID order
-- (Operations.detachedAt): an index range read per step instead of a scan of every operation.
CREATE INDEX idx_operation_step_id ON operation (step, id);
