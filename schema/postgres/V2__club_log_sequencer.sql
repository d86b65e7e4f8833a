-- The club-wide order of events leaves the write path.
--
-- V1 gave every event its club-wide number (gid) as it was written, from a counter on
-- the club's row. That row then stayed locked until the writing transaction's commit
-- was flushed, so a club could commit one append per WAL flush, however many hands it
-- was playing. Now, as in Trillian's log design, an append only queues what it wrote
-- (`log_queue`, in the same transaction as the events), and a sequencer gives the
-- queued events their gid afterwards, in batches, under the club's row lock
-- (`club_log`). Readers of the club-wide order read `club_log` only, so they never see
-- a gap that is filled later: a batch's gids commit together, after the previous
-- batch's.

-- The sequencer's work: one row per committed append, events from_seq .. to_seq - 1 of
-- a hand. Rows are deleted as they are sequenced (this table is not the log).
CREATE TABLE log_queue (
    club_id   TEXT COLLATE "C" NOT NULL,
    id        BIGINT GENERATED ALWAYS AS IDENTITY,
    hand_id   TEXT COLLATE "C" NOT NULL,
    from_seq  BIGINT NOT NULL CHECK (from_seq >= 0),
    to_seq    BIGINT NOT NULL,
    CONSTRAINT log_queue_seq_check CHECK (to_seq > from_seq),
    CONSTRAINT log_queue_pkey PRIMARY KEY (club_id, id)
);

-- The club-wide order: gid 0, 1, 2 ... of a club, each naming one event. Append-only.
CREATE TABLE club_log (
    club_id  TEXT COLLATE "C" NOT NULL,
    gid      BIGINT NOT NULL CHECK (gid >= 0),
    hand_id  TEXT COLLATE "C" NOT NULL,
    seq      BIGINT NOT NULL CHECK (seq >= 0),
    CONSTRAINT club_log_pkey PRIMARY KEY (club_id, gid),
    CONSTRAINT club_log_event_key UNIQUE (club_id, hand_id, seq)
);
-- No foreign key to events: only the sequencer writes here, from queue rows that
-- committed with their events, and a per-row foreign key check cost the sequencer
-- more than the rest of its work (about 18 µs of 23 µs per event, measured).

-- The order V1 gave is kept as it was.
INSERT INTO club_log (club_id, gid, hand_id, seq)
SELECT club_id, gid, hand_id, seq FROM events;

ALTER TABLE events DROP CONSTRAINT events_gid_key;
ALTER TABLE events DROP COLUMN gid;

-- The foreign key from events to hands goes too. It was checked per event row, with a
-- FOR KEY SHARE lock (and a WAL record) on the hand's row, which the same statement
-- has just locked and advanced: 23% of the database's CPU per append in the benchmark
-- (ops/README.md). The store writes events only in the statement or transaction that
-- locks the hand's row and checks `next_seq` against them, so an event without its
-- hand cannot be written through it; and whatever is written behind its back is
-- judged by verification, not by constraints. Events still name their club first;
-- the foreign keys of the other tables stay.
ALTER TABLE events DROP CONSTRAINT events_hand_fkey;

COMMENT ON COLUMN clubs.next_gid IS
    'The gid the sequencer gives the club''s next event (club_log).';

CREATE FUNCTION log_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER club_log_no_update_delete
    BEFORE UPDATE OR DELETE ON club_log
    FOR EACH ROW EXECUTE FUNCTION log_append_only();

CREATE TRIGGER club_log_no_truncate
    BEFORE TRUNCATE ON club_log
    FOR EACH STATEMENT EXECUTE FUNCTION log_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON club_log FROM PUBLIC;
