-- The deploy watermark (largest merge request reported in effect per project) counts only reports with
-- the status 'success'; reports of other statuses are stored for the record. The lookup
-- SELECT MAX(mr_iid) ... WHERE project = ? AND status = 'success' stays one index read ("Select tables
-- optimized away") on (project, status, mr_iid), which also serves every lookup by project alone, so it
-- replaces the V3 index on (project, mr_iid).
ALTER TABLE deploy_callback
  ADD KEY idx_deploy_callback_project_status_iid (project, status, mr_iid),
  DROP KEY idx_deploy_callback_project_iid;
