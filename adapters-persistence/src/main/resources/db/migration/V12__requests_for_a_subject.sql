-- Issue 37: a person's list of requests ("my records") also shows the grants someone else asked for them, newest
-- first: the subject's side of OperationReads.requestsOf reads this index as the requester's side reads
-- idx_operation_requester_created.
CREATE INDEX idx_operation_subject_created ON operation (subject_id, created_at);
