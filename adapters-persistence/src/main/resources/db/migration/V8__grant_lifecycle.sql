-- Issue 18: the grant's whole life. A removal (expiry, give-up, revocation) is an operation of its own kind that
-- takes the subject-target row over in place (I5) and names the grant whose line it takes out of the file.
ALTER TABLE operation
  ADD COLUMN change_kind VARCHAR(16) NOT NULL DEFAULT 'GRANT' COMMENT 'ChangeKind: GRANT, EXPIRY or REVOCATION, fixed when opened',
  ADD COLUMN removes_operation_id VARCHAR(36) NULL COMMENT 'for a removal: the operation whose line it takes out of the grant file';

-- The expiry job's range read: rows in effect by expiry (status = VALIDATED AND expires_at <= now + grace).
ALTER TABLE binding
  ADD KEY idx_binding_status_expires (status, expires_at);
