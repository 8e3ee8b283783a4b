-- Where in the game each chat line was said, so that a log rebuilt after a restart puts
-- it where it was: after `deals` deals and `actions` actions of the latest one (those
-- taken back not counted). NULL for a line stored before these columns: its place is
-- not known. Plain SQL that PostgreSQL also reads.
ALTER TABLE chat ADD COLUMN deals BIGINT;
ALTER TABLE chat ADD COLUMN actions BIGINT;
