-- Quarantined hands.
--
-- A hand whose stored log fails verification (a row inserted or edited behind the
-- service's back, a sealed seed swapped) can neither go on nor end: the service will not
-- sign on top of a log it cannot verify. The club admin may set such a hand aside: its
-- status becomes 'quarantined', and its row records who (the admin key's id), when and
-- why, with the event and the check at which its log failed then. Nothing is written to
-- the hand's log (it is what failed), nor to the club's order of events: `club_log`
-- orders signed events only, and a quarantine is not one.
--
-- A quarantined hand is not in progress, so the table may start its next hand (the
-- partial unique index on in-progress hands does not cover it).
ALTER TABLE hands DROP CONSTRAINT hands_status_check;
ALTER TABLE hands ADD CONSTRAINT hands_status_check
    CHECK (status IN ('in_progress', 'completed', 'abandoned', 'quarantined'));

-- {"reason", "quarantined_ms", "by", "seq", "rule"}; set exactly when quarantined.
ALTER TABLE hands ADD COLUMN quarantine JSONB;
ALTER TABLE hands ADD CONSTRAINT hands_quarantine_check
    CHECK ((status = 'quarantined') = (quarantine IS NOT NULL));
