-- Each ordered event's hash beside its place in the club-wide order, written by the
-- sequencer from the event it orders (it reads that row already, for the writing
-- transaction's age). The club log builder reads the leaves it needs (gid, hand, seq,
-- hash) from club_log alone: its join to `events` for the hash, a random read of a wide
-- row per event, was about a tenth of the database's time per event on the HTTP path
-- (ops/README.md, tenth round).
--
-- The log then holds each event's hash as it was when ordered: an event rewritten or
-- deleted behind the store's back after that stays in the log as it was, and the audit
-- names the difference (docs/TRANSPARENCY.md). Rows ordered before this migration have
-- no hash here; the builder reads theirs from `events`, as before.
ALTER TABLE club_log ADD COLUMN hash TEXT COLLATE "C";

COMMENT ON COLUMN club_log.hash IS
    'The event''s hash when the sequencer ordered it (NULL for rows ordered before V16).';
