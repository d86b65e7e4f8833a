-- The sequencer reads a hand's new events from `events` itself, from a cursor per hand,
-- instead of a queue row written by every append.
--
-- Since V2 every append wrote a `log_queue` row next to its events, and the sequencer
-- deleted it when it gave the events their place in `club_log`: a second heap row and
-- index entry per append, and its deletion, for a fact the events already record. With
-- it, the statement of the commonest write (an append of one event) took 22.7 µs to
-- execute against a plain INSERT's 10.7 (ops/README.md, ninth round).
--
-- A hand's committed events are always a prefix of its `seq`s: an append's first event
-- goes in only right after the hand's last committed one, and a later `seq` cannot
-- commit before it. So one row per hand whose events may still be waiting is enough:
-- `next_seq`, the first of its events not yet in `club_log`. The sequencer, under the
-- club's row lock, takes every hand's events from its cursor on (only a gap-free run of
-- them), gives them their gids, and moves the cursor.
--
-- A cursor row is written with its hand (in the statement or transaction that inserts
-- the hand's row), and deleted by the sequencer once the hand is completed or
-- abandoned and every one of its events is ordered: the store writes no event to a hand
-- after the write that completed or abandoned it (the hand's end takes the next `seq`,
-- and a checked append refuses a hand that has ended). A quarantined hand keeps its
-- cursor: a writer that still held it may append to it. Only the sequencer updates or
-- deletes cursor rows.
CREATE TABLE log_cursors (
    club_id   TEXT COLLATE "C" NOT NULL,
    hand_id   TEXT COLLATE "C" NOT NULL,
    next_seq  BIGINT NOT NULL DEFAULT 0 CHECK (next_seq >= 0),
    CONSTRAINT log_cursors_pkey PRIMARY KEY (club_id, hand_id)
);

-- Every hand that may still have events waiting: those in progress or quarantined, and
-- those with a queue row. A hand's queue rows are in `seq` order and were taken oldest
-- first, so its first waiting event is its oldest queue row's; without one, it is the
-- one after its last ordered event.
INSERT INTO log_cursors (club_id, hand_id, next_seq)
SELECT h.club_id, h.hand_id,
       COALESCE((SELECT min(q.from_seq) FROM log_queue q
                 WHERE q.club_id = h.club_id AND q.hand_id = h.hand_id),
                (SELECT max(l.seq) + 1 FROM club_log l
                 WHERE l.club_id = h.club_id AND l.hand_id = h.hand_id),
                0)
FROM hands h
WHERE h.status IN ('in_progress', 'quarantined')
   OR EXISTS (SELECT 1 FROM log_queue q WHERE q.club_id = h.club_id AND q.hand_id = h.hand_id);

DROP TABLE log_queue;

COMMENT ON TABLE log_cursors IS
    'Per hand whose events may wait for the club order: the first seq not yet in club_log.';
