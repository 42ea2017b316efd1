-- Issue 37: the commit each merge put on its target branch (GitLab's merged commit: merge_commit_sha, else
-- squash_commit_sha, else the head of a fast-forward merge), recorded with the merge's order before its requests are
-- written MERGED: one row per merge request, so every operation it merged (a single request, or every member of a
-- batch) has it. A deploy report for the default branch at a commit acts on the operations awaiting their deploy whose
-- merged commit that commit holds: it reads this column by the merge requests' unique key. NULL: merged before this
-- migration (the commit is then read from GitLab when a report needs it).
ALTER TABLE merge_order
  ADD COLUMN merge_commit_sha VARCHAR(64) NULL COMMENT 'the merged commit on the target branch; NULL = not recorded';
