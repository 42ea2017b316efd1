-- Issue 32, item 3: a request may ask for a duration ("for 8 hours") instead of an end. Its end (expires_at, of the
-- operation and of its binding row) stays NULL until its approved grant line is first written, then is fixed once at
-- that moment + duration_seconds. Expand only: a nullable column an older release neither reads nor writes (it sees
-- a request of a duration as one of an end once the end is fixed).
ALTER TABLE operation ADD COLUMN duration_seconds BIGINT NULL
  COMMENT 'issue 32: the duration asked, counted from the first write of the approved line; NULL: a request of an end';
