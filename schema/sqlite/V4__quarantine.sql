-- Quarantined hands, as on PostgreSQL (schema/postgres/V6): a fourth hand status,
-- 'quarantined', and the record of who quarantined the hand, when and why (with the event
-- and the check at which its log failed), in a JSON column set exactly when quarantined.
--
-- SQLite cannot change a CHECK constraint in place, so `hands` is rebuilt. Its rows are
-- copied aside, the table dropped and created anew, and the rows put back, all in the
-- migration's transaction. `hand_players`, `hand_secrets` and `hand_inputs` keep their
-- foreign keys to `hands`: dropping the table deletes its rows (which would orphan theirs),
-- so those checks are deferred to the commit, by which time every row is back.
PRAGMA defer_foreign_keys = ON;

CREATE TABLE hands_v3 AS SELECT * FROM hands;

DROP TABLE hands;

CREATE TABLE hands (
    club_id         TEXT    NOT NULL,
    hand_id         TEXT    NOT NULL,
    table_id        TEXT    NOT NULL,
    game            TEXT    NOT NULL,
    hand_no         INTEGER NOT NULL CHECK (hand_no >= 1),
    status          TEXT    NOT NULL
        CHECK (status IN ('in_progress', 'completed', 'abandoned', 'quarantined')),
    next_seq        INTEGER NOT NULL CHECK (next_seq >= 0),
    players         TEXT    NOT NULL CHECK (json_valid(players)),
    started_ms      INTEGER NOT NULL,
    ended_ms        INTEGER,
    outcome         TEXT    CHECK (outcome IS NULL OR json_valid(outcome)),
    abandon_reason  TEXT,
    quarantine      TEXT    CHECK (quarantine IS NULL OR json_valid(quarantine)),
    PRIMARY KEY (club_id, hand_id),
    FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, table_id),
    UNIQUE (club_id, table_id, hand_no),
    CHECK ((status = 'quarantined') = (quarantine IS NOT NULL))
) STRICT;

INSERT INTO hands (club_id, hand_id, table_id, game, hand_no, status, next_seq, players,
                   started_ms, ended_ms, outcome, abandon_reason)
SELECT club_id, hand_id, table_id, game, hand_no, status, next_seq, players,
       started_ms, ended_ms, outcome, abandon_reason
FROM hands_v3;

DROP TABLE hands_v3;

CREATE UNIQUE INDEX hands_in_progress_key ON hands (club_id, table_id)
    WHERE status = 'in_progress';
CREATE INDEX hands_started_idx ON hands (club_id, started_ms DESC, hand_id DESC);
CREATE INDEX hands_table_started_idx ON hands (club_id, table_id, started_ms DESC, hand_id DESC);
