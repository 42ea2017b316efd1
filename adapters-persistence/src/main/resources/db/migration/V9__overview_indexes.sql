-- The operations overview (issue 17) counts the last 24 hours of completions and failures and of deploy
-- reports. Both are index range reads: binding_history by (to_status, created_at) for each counted status,
-- deploy_callback by created_at. Online DDL on MySQL 8 / MariaDB 10.6+ (ALGORITHM=INPLACE, no table lock).
ALTER TABLE binding_history
  ADD KEY idx_binding_history_status_created (to_status, created_at);

ALTER TABLE deploy_callback
  ADD KEY idx_deploy_callback_created (created_at);
