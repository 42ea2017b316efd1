-- The trace each request's (or batch's) steps join: the trace context of whatever scheduled its first step from
-- outside a step (the submission), kept by the scheduler adapter (StepTraces). Steps scheduled later from outside a
-- step (a callback, a sweep, an operator's re-trigger) join that trace too, on any instance and after a crash.
-- Written once per ref (the first wins), never updated; rows past the retention are deleted as new ones come.
create table step_trace (
  ref varchar(100) not null,
  fields varchar(1000) not null,
  created_at datetime(3) not null,
  primary key (ref),
  index step_trace_created_idx (created_at)
);
