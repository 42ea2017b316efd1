-- Issue 36, drift detection: where a target's grant file on main and the records disagree. One row per
-- (target, kind, fingerprint = SHA-256 of subject and line): a run that sees the same line again updates last_seen only;
-- a resolved item seen again is opened again in place. Status moves are guarded by status and version (DriftStatus).
create table drift_item (
  id bigint not null auto_increment,
  version bigint not null default 0,
  target_key varchar(64) not null,
  kind varchar(24) not null comment 'DriftKind',
  fingerprint char(64) not null comment 'Finding.fingerprint: SHA-256 hex of subject and line',
  subject_id varchar(64) null,
  line varchar(1000) not null comment 'the line on main (for a missing line: the line the grant in effect needs)',
  operation_id varchar(36) null comment 'the operation the line names, or the grant in effect''s',
  note varchar(1000) not null,
  evidence_commit varchar(64) null comment 'the commit that last changed the line (GitLab blame)',
  evidence_author varchar(255) null,
  evidence_at datetime(3) null,
  commit_seen varchar(64) null comment 'the commit of main the file was read at when last seen',
  first_seen datetime(3) not null,
  last_seen datetime(3) not null,
  status varchar(16) not null comment 'DriftStatus',
  status_actor varchar(128) not null,
  status_note varchar(1000) not null,
  status_at datetime(3) not null,
  removal_operation_id varchar(36) null comment 'the removal operation taking the line out',
  primary key (id),
  unique key uk_drift_item_identity (target_key, kind, fingerprint),
  key idx_drift_item_status_seen (status, last_seen),
  key idx_drift_item_target_status (target_key, status)
);

-- Each target's baseline: taken at its first check (the lines then are imported, never removed by themselves).
create table drift_baseline (
  target_key varchar(64) not null,
  commit_sha varchar(64) not null,
  taken_at datetime(3) not null,
  primary key (target_key)
);

-- Drift detection reads every row of a target at once.
alter table binding
  add key idx_binding_target_subject (target_key, subject_id);
