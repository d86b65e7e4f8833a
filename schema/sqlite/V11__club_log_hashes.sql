-- Each ordered event's hash beside its place in the club-wide order, written with the
-- event (this store orders events as it writes them), so the club log builder reads
-- the leaves it needs from club_log alone, as on PostgreSQL (V16 there). Rows ordered
-- before this migration have no hash here; the builder reads theirs from `events`.
ALTER TABLE club_log ADD COLUMN hash TEXT;
