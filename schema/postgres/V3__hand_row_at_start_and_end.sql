-- Appends stop writing the hand's row.
--
-- Up to V2 every append locked its hand's row, checked `next_seq` against its
-- expected seq and advanced it. The appends of a batch did that in one UPDATE of
-- `hands`, which PostgreSQL planned, on young statistics, as a walk of every hand of
-- the club (1,100 rows read per batch after a minute of the append benchmark, growing
-- with the club); and each advance was a new row version and a WAL record.
--
-- From this version a hand's writers are ordered by the primary key of `events`: an
-- append's first event goes in only if the hand's last committed event is the one
-- before it and no other writer has taken its seq (a writer still in flight is waited
-- for); later events of the same append follow in the same statement or transaction.
-- So events are still written only by a statement that checks them against the
-- hand's log, which is what the dropped foreign key from events to hands relied on
-- (V2). The hand's row is written when the hand starts and when it ends.
--
-- No table changes; the meaning of one column does.
COMMENT ON COLUMN hands.next_seq IS
    'Written with the hand''s status, at its start and its end; appends in between do '
    'not write it, so it is a lower bound. The hand''s next seq is one past its last '
    'row in events.';
