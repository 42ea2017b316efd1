-- Issue 33 item 3: GitLab webhook deliveries are remembered against repeats for a bounded time; the recurring
-- purge deletes a source's oldest keys first by this index (expand only: a new index).
CREATE INDEX idx_callback_delivery_source_created ON callback_delivery (source, created_at);
