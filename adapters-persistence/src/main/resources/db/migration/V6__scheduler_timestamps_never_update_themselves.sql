-- db-scheduler's TIMESTAMP columns, declared so that no server setting can give them a default of its
-- own. With explicit_defaults_for_timestamp OFF (the default of MariaDB up to 10.9, and a setting
-- MySQL 8 still accepts), the first TIMESTAMP NOT NULL column of a table without an explicit DEFAULT
-- silently becomes DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP: V4 then left
-- execution_time so that every update of a task row (picking it, a heartbeat) reset its due time.
-- Explicit defaults and no ON UPDATE, on every server; db-scheduler always writes every one of them.
-- The values stay as they are (same type, so no time zone conversion). Every other time column of
-- the schema is a DATETIME(3), which never updates itself.
alter table scheduled_tasks
  modify execution_time timestamp(6) not null default current_timestamp(6),
  modify last_success timestamp(6) null default null,
  modify last_failure timestamp(6) null default null,
  modify last_heartbeat timestamp(6) null default null;
